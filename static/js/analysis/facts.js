// @ts-check
/**
 * The words above the move list: the players of a loaded game, the opening of the node on
 * view (the last named position on its path), whose move it is or how the game ended there,
 * and the notice of a root that cannot arise in a game. All of it is the server's
 * (`analysis_position`, the tree's headers); the page only writes it down.
 */
import { t } from '../i18n.js';

/** @type {Record<string, string>} */
const ENDINGS = {
  checkmate: t('Checkmate'),
  stalemate: t('Stalemate'),
  insufficient_material: t('Draw: insufficient material'),
  fivefold_repetition: t('Draw: fivefold repetition'),
  seventyfive_moves: t('Draw: seventy-five-move rule'),
  threefold_repetition: t('Draw: threefold repetition'),
  fifty_moves: t('Draw: fifty-move rule'),
};

/**
 * `elements`: {opening, status, notice}; `position` the node's facts (null until they come);
 * `treeNotice` the notice the tree came with.
 * @param {{opening: HTMLElement, status: HTMLElement, notice: HTMLElement}} elements
 * @param {import('../wire.js').Position | null} position
 * @param {string | null} [treeNotice]
 */
export function renderFacts(elements, position, treeNotice) {
  const opening = position?.opening;
  elements.opening.hidden = !opening;
  elements.opening.textContent = opening ? `${opening.eco} ${opening.name}` : '';
  elements.status.textContent = position ? describeStatus(position) : '';
  const notice = position?.notice ?? treeNotice;
  elements.notice.hidden = !notice;
  elements.notice.textContent = notice ?? '';
}

/**
 * "White to move", "Black to move, in check", "Checkmate: White wins" (from the outcome).
 * @param {import('../wire.js').Position} position
 */
export function describeStatus(position) {
  const white = position.turn === 'white';
  const { outcome } = position;
  if (!outcome && position.check) return white ? t('White to move, in check') : t('Black to move, in check');
  if (!outcome) return white ? t('White to move') : t('Black to move');
  const ending = ENDINGS[outcome.termination] ?? outcome.termination.replaceAll('_', ' ');
  if (!outcome.winner) return ending;
  return outcome.winner === 'white'
    ? t('{ending}: White wins', { ending })
    : t('{ending}: Black wins', { ending });
}

/**
 * "White – Black" (and the result) of a loaded game; hidden for a bare position.
 * @param {HTMLElement} title
 * @param {Record<string, string>} headers
 * @param {string} [result]
 */
export function renderGameTitle(title, headers, result) {
  const players = headers.White || headers.Black;
  title.hidden = !players;
  const ending = result && result !== '*' ? ` ${result}` : '';
  title.textContent = players ? `${headers.White ?? '?'} – ${headers.Black ?? '?'}${ending}` : '';
}
