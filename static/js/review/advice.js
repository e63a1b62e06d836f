// @ts-check
/**
 * Under the board: what the engine says of the ply on view ("Nf6?? Blunder", the server's
 * explanation, "Best was Qd7."), and the explanation's overlay on the board: a circle on each
 * square it names, an arrow for each attack, defence, pin or move it names, coloured by role.
 * The words and squares are the server's (`explanation`, docs/protocol.md).
 */
import { CLASS_NAMES, CLASS_SYMBOLS, formatEval, isJudged } from './model.js';
import { moveNumber } from './graph.js';
import { t } from '../i18n.js';

/** Brushes of the explanation's shapes (given to chessground by board.js), one per role. */
export const ADVICE_BRUSHES = {
  adviceSquare: { key: 'xs', color: '#e68a00', opacity: 0.9, lineWidth: 4 },
  adviceBest: { key: 'xb', color: '#15781b', opacity: 0.8, lineWidth: 10 },
  adviceMove: { key: 'xm', color: '#8e1b1b', opacity: 0.75, lineWidth: 10 },
  adviceAttack: { key: 'xa', color: '#e0531f', opacity: 0.8, lineWidth: 10 },
  adviceDefence: { key: 'xd', color: '#1e5bb8', opacity: 0.8, lineWidth: 9 },
  advicePin: { key: 'xp', color: '#d4a000', opacity: 0.9, lineWidth: 9 },
};
/** @type {Record<string, string>} */
const ROLE_BRUSHES = {
  move: 'adviceMove',
  attack: 'adviceAttack',
  defence: 'adviceDefence',
  pin: 'advicePin',
};

/**
 * chessground's shapes of `explanation` (null: none) of a ply whose engine choice was `best`
 * ({uci, san} or null): the best move's arrow green, any other move it names (the reply that
 * punishes the mistake) dark red.
 * @param {import('../wire.js').WireObject | null} explanation
 * @param {{uci: string, san: string} | null} [best]
 * @returns {import('../wire.js').Shape[]}
 */
export function explanationShapes(explanation, best = null) {
  if (!explanation) return [];
  /** @type {import('../wire.js').Square[]} */
  const squares = explanation.squares ?? [];
  const circles = squares.map((square) => ({
    orig: square,
    brush: 'adviceSquare',
  }));
  // One arrow per pair of squares (the first role named): an attack that is also the reply
  // that wins the piece is one arrow, not two drawn over each other.
  const seen = new Set();
  /** @type {import('../wire.js').Shape[]} */
  const arrows = [];
  for (const arrow of explanation.arrows ?? []) {
    const key = `${arrow.from}${arrow.to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const isBest = arrow.role === 'move' && best && key === best.uci.slice(0, 4);
    const brush = isBest ? 'adviceBest' : ROLE_BRUSHES[arrow.role] ?? 'adviceMove';
    arrows.push({ orig: arrow.from, dest: arrow.to, brush });
  }
  return [...circles, ...arrows];
}

/**
 * The explanation's sentence and, unless it says so already, "Best was Qd7."
 * @param {import('../wire.js').WireObject} item
 */
export function adviceWords(item) {
  const text = item.explanation?.text ?? '';
  const best = item.best && item.best.uci !== item.uci ? item.best.san : null;
  // The server says whether the explanation names the better move; a review stored before
  // it did so has its English text, read for "Better was Qd7".
  const said = item.explanation?.names_best;
  const named =
    best !== null &&
    (typeof said === 'boolean' ? said : new RegExp(`\\b(was|is) ${escape(best)}(?!\\w)`).test(text));
  return { text, best: best && !named ? t('Best was {move}.', { move: best }) : '' };
}

/** @param {string} text */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Fill `elements` ({box, head, text, best}) for ply `ply` of `review`.
 * @param {{box: HTMLElement, head: HTMLElement, text: HTMLElement, best: HTMLElement}} elements
 * @param {import('../wire.js').WireObject} review
 * @param {number} ply
 */
export function renderAdvice(elements, review, ply) {
  const { box, head, text, best } = elements;
  box.dataset.class = '';
  box.dataset.ply = String(ply);
  if (ply === 0) {
    head.textContent = t('Start position {score}', { score: formatEval(review.initial?.eval) }).trim();
    text.textContent = '';
    best.textContent = '';
    return;
  }
  const item = review.plies[ply - 1];
  const number = moveNumber(review.start_fen, ply);
  const move = `${number}${item.color === 'white' ? '.' : '…'} ${item.san}`;
  if (!isJudged(item)) {
    head.textContent = t('{move}: not reviewed yet', { move });
    text.textContent = '';
    best.textContent = '';
    return;
  }
  const mark = item.class ? CLASS_SYMBOLS[item.class] : '';
  const name = item.class ? ` ${CLASS_NAMES[item.class]}` : '';
  head.textContent = `${move}${mark}${name} ${formatEval(item.eval)}`.trim();
  box.dataset.class = item.class ?? '';
  const words = adviceWords(item);
  text.textContent = words.text;
  best.textContent = item.class ? words.best : '';
}
