// @ts-check
/**
 * What the board shows of an answer: while it is being given, the squares picked and the
 * moves chosen (blue); once judged, every part of the truth and of the answer, square by square
 * or move by move, right in green, missed in orange, wrong in red. Squares are marked with
 * chessground's custom highlight classes (styled in train.css), moves with arrows. A pins
 * answer is both: the pinned pieces as squares, each pinned piece's target as an arrow from it
 * (judged, the whole pin line pinner -> pinned -> target in the pair's colour).
 */

// The overlay's own marks (its red for checks and hanging pieces, its gold for pin lines) are
// purple here: on this page red says "wrong" and orange "missed".
const OVERLAY_PURPLE = '#7b3294';
export const TRAIN_BRUSHES = {
  trainRight: { key: 'tg', color: '#15781b', opacity: 0.85, lineWidth: 10 },
  trainMissed: { key: 'to', color: '#e69f00', opacity: 0.9, lineWidth: 10 },
  trainWrong: { key: 'tr', color: '#d0312d', opacity: 0.85, lineWidth: 10 },
  trainPicked: { key: 'tp', color: '#2f6fb0', opacity: 0.8, lineWidth: 10 },
  red: { key: 'tv', color: OVERLAY_PURPLE, opacity: 0.85, lineWidth: 10 },
  // The keys stay the overlay's: app.css dashes a relative pin's line by its arrowhead's key.
  pinAbsolute: { key: 'pa', color: OVERLAY_PURPLE, opacity: 0.8, lineWidth: 9 },
  pinRelative: { key: 'pr', color: '#7b3295', opacity: 0.8, lineWidth: 7 },
};
/** @typedef {import('../wire.js').WireObject} Drill a drill as the server gives it */
/** @typedef {import('../wire.js').WireObject} Verdict the server's judgement of an answer */
/** @typedef {import('../wire.js').Shape} Shape */
/** @typedef {import('../wire.js').Square} Square */
/**
 * An answer being given.
 * @typedef {{
 *   moves: Set<string>,
 *   pins: Map<string, Set<string>>,
 *   squares: Set<string>,
 *   choosing: string | null,
 * }} Answer
 */

/** @type {Record<string, string>} */
const BRUSH = { right: 'trainRight', missed: 'trainMissed', wrong: 'trainWrong' };
const MOVE_KINDS = new Set(['checks', 'captures', 'threats', 'fork']);

export const isMoveKind = (/** @type {string} */ kind) => MOVE_KINDS.has(kind);

/**
 * Marks while answering: {classes: square -> class, shapes}.
 * @param {Drill} drill
 * @param {Answer} answer
 * @returns {{classes: Record<string, string>, shapes: Shape[]}}
 */
export function pickedMarks(drill, answer) {
  /** @type {Record<string, string>} */
  const classes = {};
  /** @type {Shape[]} */
  const shapes = [];
  if (drill.square) classes[drill.square] = 'train-focus';
  if (drill.piece) classes[drill.piece] = 'train-focus';
  if (isMoveKind(drill.kind)) {
    for (const key of answer.moves) shapes.push(arrow(key, 'trainPicked'));
  } else if (drill.kind === 'pins') {
    for (const [pinned, targets] of answer.pins) {
      classes[pinned] = pinned === answer.choosing ? 'train-choosing' : 'train-picked';
      for (const target of targets) shapes.push(arrow(pinned + target, 'trainPicked'));
    }
  } else {
    for (const square of answer.squares) classes[square] = 'train-picked';
  }
  return { classes, shapes };
}

/**
 * A pins answer as the API takes it: [[pinned, target], ...].
 * @param {Answer} answer
 */
export function pinPairs(answer) {
  return [...answer.pins].flatMap(([pinned, targets]) =>
    [...targets].map((target) => [pinned, target]),
  );
}

/**
 * Marks of a judged answer: each item of the truth and of the answer with its verdict.
 * @param {Drill} drill
 * @param {Verdict} verdict
 * @returns {{classes: Record<string, string>, shapes: Shape[]}}
 */
export function verdictMarks(drill, verdict) {
  /** @type {Record<string, string>} */
  const classes = {};
  /** @type {Shape[]} */
  const shapes = [];
  const mark = (/** @type {string} */ item, /** @type {string} */ how) => {
    if (isMoveKind(drill.kind)) {
      shapes.push(arrow(item, BRUSH[how]));
    } else {
      classes[item] = `train-${how}`;
    }
  };
  for (const item of judgedItems(drill, verdict)) mark(item.value, item.how);
  if (drill.kind === 'count') classes[drill.square] = verdict.correct ? 'train-right' : 'train-wrong';
  if (drill.kind === 'blunder') {
    shapes.push(arrow(drill.move, verdict.correct ? 'trainRight' : 'trainWrong'));
  }
  if (drill.kind === 'pins') shapes.push(...pinShapes(verdict));
  return { classes, shapes };
}

/**
 * Each true pin line drawn pinner -> pinned -> target, green when its target was named and
 * orange when not; each wrongly named target as a red arrow from the piece named pinned.
 * @param {Verdict} verdict
 * @returns {Shape[]}
 */
function pinShapes(verdict) {
  const pairKey = (/** @type {[string, string]} */ [pinned, target]) => pinned + target;
  const missed = new Set((verdict.missed_targets ?? []).map(pairKey));
  /** @type {Shape[]} */
  const shapes = [];
  for (const line of verdict.overlay.pins) {
    const brush = BRUSH[missed.has(line.pinned + line.target) ? 'missed' : 'right'];
    shapes.push(arrow(line.pinner + line.pinned, brush), arrow(line.pinned + line.target, brush));
  }
  for (const pair of verdict.wrong_targets ?? []) shapes.push(arrow(pairKey(pair), BRUSH.wrong));
  return shapes;
}

/**
 * [{value, how: right|missed|wrong}] for the kinds answered with squares or moves.
 * @param {Drill} drill
 * @param {Verdict} verdict
 * @returns {{value: string, how: string}[]}
 */
export function judgedItems(drill, verdict) {
  if (drill.kind === 'count') return [];
  const missed = new Set(verdict.missed);
  if (drill.kind === 'blunder') {
    const how = verdict.correct ? 'right' : 'missed';
    return (verdict.drops ?? []).map((/** @type {string} */ square) => ({ value: square, how }));
  }
  const items = verdict.truth.map((/** @type {string} */ value) => {
    const key = isMoveKind(drill.kind) ? value.slice(0, 4) : value;
    return { value: key, how: missed.has(key) ? 'missed' : 'right' };
  });
  return items.concat(verdict.wrong.map((/** @type {string} */ value) => ({ value, how: 'wrong' })));
}

/**
 * @param {string} uci
 * @param {string} brush
 * @returns {Shape}
 */
function arrow(uci, brush) {
  const square = (/** @type {string} */ name) => /** @type {Square} */ (name);
  return { orig: square(uci.slice(0, 2)), dest: square(uci.slice(2, 4)), brush };
}
