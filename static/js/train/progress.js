// @ts-check
/**
 * The trainee's progress, kept in this browser (localStorage) while there are no accounts: a
 * rating per drill kind (Elo-like, 1500 to start), the level it asks for, and the history of
 * answers by day for the graph. An account (issue 27) would keep the same record on the
 * server; this module is the one place that reads and writes it.
 *
 * The rating moves as Elo's does: a drill of level L counts as an opponent rated
 * `LEVEL_RATINGS[L]`, a right answer as a win, K = 32. The level asked for is the highest
 * whose rating the trainee's reaches (less 100), so drills get harder as the trainee improves.
 */

const KEY = 'chess.train.v1';
export const START_RATING = 1500;
/** @type {Record<number, number>} */
export const LEVEL_RATINGS = { 1: 1300, 2: 1500, 3: 1700 };
const K = 32;
// Days of history kept: a year is more than the graph shows.
const MAX_DAYS = 366;

/** @typedef {{done: number, right: number, seconds: number}} Day */
/** @typedef {{ratings: Record<string, number>, days: Record<string, Day>}} Progress */

/** @returns {Progress} */
function read() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return { ratings: data.ratings ?? {}, days: data.days ?? {} };
  } catch {
    return { ratings: {}, days: {} };
  }
}

/** @param {Progress} data */
function write(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // A full or forbidden storage loses the progress, not the drill.
  }
}

/** @param {string} kind */
export function ratingOf(kind) {
  return read().ratings[kind] ?? START_RATING;
}

/**
 * The level (1 to 3) a trainee rated `rating` is given.
 * @param {number} rating
 */
export function levelFor(rating) {
  if (rating >= LEVEL_RATINGS[3] - 100) return 3;
  if (rating >= LEVEL_RATINGS[2] - 100) return 2;
  return 1;
}

/**
 * The rating after a drill of `level` answered right (`correct`) or not.
 * @param {number} rating
 * @param {number} level
 * @param {boolean} correct
 */
export function nextRating(rating, level, correct) {
  const expected = 1 / (1 + 10 ** ((LEVEL_RATINGS[level] - rating) / 400));
  return Math.round(rating + K * ((correct ? 1 : 0) - expected));
}

/**
 * Record an answer: the kind's new rating, and the day's count, right answers and time.
 * @param {{kind: string, level: number, correct: boolean, seconds: number, day?: string}} answer
 */
export function record({ kind, level, correct, seconds, day = today() }) {
  const data = read();
  data.ratings[kind] = nextRating(data.ratings[kind] ?? START_RATING, level, correct);
  const entry = data.days[day] ?? { done: 0, right: 0, seconds: 0 };
  data.days[day] = {
    done: entry.done + 1,
    right: entry.right + (correct ? 1 : 0),
    seconds: entry.seconds + seconds,
  };
  const days = Object.keys(data.days).sort();
  for (const old of days.slice(0, Math.max(0, days.length - MAX_DAYS))) delete data.days[old];
  write(data);
  return data.ratings[kind];
}

/** The history by day, oldest first: [{day, done, right, seconds}]. */
export function history() {
  const days = read().days;
  return Object.keys(days)
    .sort()
    .map((day) => ({ day, ...days[day] }));
}

export function today() {
  const now = new Date();
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
