// @ts-check
/**
 * The review as the page holds it: the server's JSON (docs/protocol.md, `GET /api/reviews/<id>`)
 * with each `review_update` merged in, and the few numbers read from it for drawing.
 *
 * Nothing is judged here: the classes, marks, best moves and explanations are the server's.
 * The one formula, White's win percent of an evaluation, is the curve docs/review.md writes
 * down (lichess's), used only to place the graph's points.
 */
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').WireObject} Review the server's review (docs/protocol.md) */
/** @typedef {import('../wire.js').WireObject} PlyItem a ply of a review: san, uci, fen, class... */
/**
 * @typedef {{
 *   cp: number,
 *   mate?: undefined} | {mate: number,
 *   cp?: undefined,
 * }} Evaluation White's view
 */

export const CLASSES = ['inaccuracy', 'mistake', 'blunder'];
/** @type {Record<string, string>} */
export const CLASS_NAMES = {
  inaccuracy: t('Inaccuracy'),
  mistake: t('Mistake'),
  blunder: t('Blunder'),
};
/** @type {Record<string, string>} */
export const CLASS_SYMBOLS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

const WIN_SLOPE = 0.00368208; // docs/review.md: winning_chances(cp)
const CP_CEILING = 1000; // a mate, or anything above 10 pawns, is drawn at 10 pawns

/**
 * White's win percent (0-100) of `evaluation` ({cp} or {mate}, White's view).
 * @param {Evaluation} evaluation
 */
export function winPercent(evaluation) {
  const cp =
    evaluation.mate !== undefined
      ? Math.sign(evaluation.mate) * CP_CEILING
      : Math.max(-CP_CEILING, Math.min(CP_CEILING, evaluation.cp));
  return 50 + 50 * (2 / (1 + Math.exp(-WIN_SLOPE * cp)) - 1);
}

/**
 * "+0.4", "-1.2", "0.0", "#3", "#-3", as docs/review.md shows an evaluation to players.
 * @param {Evaluation | null | undefined} evaluation
 */
export function formatEval(evaluation) {
  if (!evaluation) return '';
  if (evaluation.mate !== undefined) return `#${evaluation.mate}`;
  const pawns = Math.sign(evaluation.cp) * Math.round(Math.abs(evaluation.cp) / 10) / 10;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(1)}`;
}

/** Whether ply item `ply` has been judged (its fields other than SAN, UCI, FEN are set). */
export const isJudged = (/** @type {PlyItem} */ ply) =>
  ply.best !== null || ply.accuracy !== null || ply.eval !== null;

/**
 * Merge `update` (a `review_update` push, or a whole review) into `review`; returns it.
 * @param {Review} review
 * @param {Review} update
 */
export function mergeUpdate(review, update) {
  const summary = ['accuracy', 'phases', 'phase_accuracy', 'accuracy_so_far', 'counts'];
  for (const field of ['status', 'error', 'progress', 'initial', ...summary]) {
    if (update[field] !== undefined) review[field] = update[field];
  }
  for (const item of update.plies ?? []) {
    const index = item.ply - 1;
    if (index >= 0 && index < review.plies.length) review.plies[index] = item;
  }
  return review;
}

/**
 * White's win percent at each position 0..plies (null where it is not known yet): the start
 * from `initial`, a ply from its evaluation, a ply that ends the game on the board (judged,
 * no evaluation) from the result.
 * @param {Review} review
 * @returns {(number | null)[]}
 */
export function winPercents(review) {
  const start = review.initial?.eval ? winPercent(review.initial.eval) : null;
  const result = review.headers?.Result;
  /** @type {Record<string, number>} */
  const endings = { '1-0': 100, '0-1': 0, '1/2-1/2': 50 };
  const ending = endings[result] ?? 50;
  return [
    start,
    ...review.plies.map((/** @type {PlyItem} */ ply) => {
      if (ply.eval) return winPercent(ply.eval);
      return isJudged(ply) ? ending : null;
    }),
  ];
}

/**
 * Counts of marks per side, from the review's own counts once done, else from the plies.
 * @param {Review} review
 * @returns {Record<string, Record<string, number>>}
 */
export function countMarks(review) {
  if (review.counts) return review.counts;
  /** @type {Record<string, Record<string, number>>} */
  const counts = {};
  for (const side of ['white', 'black']) {
    counts[side] = Object.fromEntries(CLASSES.map((name) => [name, 0]));
  }
  for (const ply of review.plies) {
    if (ply.class) counts[ply.color][ply.class] += 1;
  }
  return counts;
}

/**
 * The plies of `color`'s mistakes and blunders, in order: the puzzles of that side.
 * @param {Review} review
 * @param {import('../wire.js').Color} color
 * @returns {PlyItem[]}
 */
export function mistakesOf(review, color) {
  const isPuzzle = (/** @type {PlyItem} */ ply) => ply.class === 'mistake' || ply.class === 'blunder';
  /** @type {PlyItem[]} */
  const plies = review.plies;
  return plies.filter((ply) => ply.color === color && isPuzzle(ply) && ply.best);
}

/**
 * The FEN before ply `ply` (1-based): the start, or the FEN after the ply before.
 * @param {Review} review
 * @param {number} ply
 * @returns {string}
 */
export function fenBefore(review, ply) {
  return ply <= 1 ? review.start_fen : review.plies[ply - 2].fen;
}

/**
 * The UCI moves before ply `ply`, for a path request (`analysis_position`).
 * @param {Review} review
 * @param {number} ply
 * @returns {string[]}
 */
export function movesBefore(review, ply) {
  return review.plies.slice(0, ply - 1).map((/** @type {PlyItem} */ item) => item.uci);
}

/**
 * The percentage of the review done (0-100).
 * @param {Review} review
 */
export function percentDone(review) {
  const { done = 0, total = 0 } = review.progress ?? {};
  if (review.status === 'done') return 100;
  return total > 0 ? Math.min(100, Math.round((100 * done) / total)) : 0;
}
