// @ts-check
/**
 * How the engine's findings look: the evaluation bar beside the board (White's share from
 * White's side, the score written across it), the score in the panel's head, and the lines as
 * rows of clickable SAN moves with lichess's move numbers. Scores are from White's view:
 * `{cp}`, `{mate}` (positive when White mates) or, on a mated position, `{mate: 0, winner}`.
 */
import { rootPly } from './treeview.js';
import { t } from '../i18n.js';

/**
 * @typedef {{
 *   cp: number,
 *   mate?: undefined,
 *   winner?: undefined} | {mate: number,
 *   cp?: undefined,
 *   winner?: string,
 * }} Score
 */

/**
 * A score as a player reads it: `+0.34`, `-1.20`, `#3` (White mates), `#-3` (Black mates),
 * `1-0` / `0-1` once mated.
 * @param {Score} score
 */
export function formatScore(score) {
  if (score.mate === 0) return score.winner === 'white' ? '1-0' : '0-1';
  if (score.mate !== undefined) return `#${score.mate}`;
  const pawns = score.cp / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(2)}`;
}

/**
 * The short form written on the bar, one decimal as lichess's: `+0.3`, `#3`, `1-0`.
 * @param {Score} score
 */
function barScore(score) {
  if (score.mate !== undefined) return formatScore(score);
  const pawns = Math.abs(score.cp / 100);
  return pawns >= 10 ? pawns.toFixed(0) : pawns.toFixed(1);
}

/**
 * How much of the bar is White's, in percent: a mate fills it for the side that mates;
 * otherwise lichess's winning chances from centipawns.
 * @param {Score} score
 */
export function whiteShare(score) {
  if (score.mate === 0) return score.winner === 'white' ? 100 : 0;
  if (score.mate !== undefined) return score.mate > 0 ? 100 : 0;
  const chances = 2 / (1 + Math.exp(-0.00368208 * score.cp)) - 1;
  return Math.max(2, Math.min(98, 50 + 50 * chances));
}

/**
 * Draw `score` (or null: no evaluation) on the bar `{bar, barFill, barText}` and `head`.
 * @param {object} elements
 * @param {HTMLElement} elements.bar
 * @param {HTMLElement} elements.barFill
 * @param {HTMLElement} elements.barText
 * @param {HTMLElement} elements.score
 * @param {Score | null} score
 */
export function renderScore(elements, score) {
  const share = score === null ? 50 : whiteShare(score);
  elements.barFill.style.height = `${share}%`;
  const text = score === null ? '' : formatScore(score);
  elements.barText.textContent = score === null ? '' : barScore(score);
  // The number sits at the leading side's end of the bar, dark on white or light on dark.
  elements.bar.dataset.leader = share >= 50 ? 'white' : 'black';
  elements.bar.setAttribute('aria-label', text ? t('Evaluation {score}', { score: text }) : t('No evaluation'));
  elements.bar.dataset.score = text;
  elements.score.textContent = text;
}

/**
 * A row of the line `line` from the position `fen`; `onPlay(ucis)` plays it up to a move.
 * @param {{rank: number, score: Score, san: string[], uci: string[]}} line
 * @param {string} fen
 * @param {(ucis: string[]) => void} onPlay
 */
export function lineRow(line, fen, onPlay) {
  const row = document.createElement('div');
  row.className = 'engine-line';
  row.dataset.rank = String(line.rank);
  const score = document.createElement('span');
  score.className = 'engine-score';
  score.textContent = formatScore(line.score);
  const moves = document.createElement('span');
  moves.className = 'engine-moves';
  let ply = rootPly(fen);
  line.san.forEach((san, index) => {
    // Move numbers as lichess writes a line: "12. Nf3 Nc6" or "12… Nc6 13. Nf3".
    if (ply % 2 === 0 || index === 0) moves.append(moveNumber(ply));
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'engine-move';
    button.textContent = san;
    button.setAttribute('aria-label', t('Play the line up to {move}', { move: san }));
    button.addEventListener('click', () => onPlay(line.uci.slice(0, index + 1)));
    moves.append(button);
    ply += 1;
  });
  row.append(score, moves);
  return row;
}

/**
 * "Depth 22 · 410k nodes/s · 3.1 s (deepening)" for an update with lines.
 * @param {import('../wire.js').WireObject} update
 */
export function describeSearch(update) {
  const seconds = update.seconds?.toFixed(1) ?? '?';
  const speed = update.nps
    ? t('{count} nodes/s', { count: formatCount(update.nps) })
    : t('{count} nodes', { count: formatCount(update.nodes) });
  const said = { depth: update.depth, speed, seconds };
  return update.done
    ? t('Depth {depth} · {speed} · {seconds} s (done)', said)
    : t('Depth {depth} · {speed} · {seconds} s (deepening)', said);
}

/** @param {number} ply */
function moveNumber(ply) {
  const number = document.createElement('span');
  number.className = 'engine-number';
  number.textContent = `${Math.floor(ply / 2) + 1}${ply % 2 === 0 ? '.' : '…'}`;
  return number;
}

/** @param {number | undefined} count */
function formatCount(count) {
  if (count === undefined) return '?';
  if (count >= 1_000_000) return `${(count / 1_000_000).toFixed(1)}M`;
  return count >= 1000 ? `${Math.round(count / 1000)}k` : String(count);
}
