// @ts-check
/**
 * A visitor's puzzle progress in this browser (localStorage): the Glicko-2 rating the server
 * computes after each result (the page keeps it; an account's is the server's), the ids of
 * the recent puzzles (sent as `exclude`, so the next is a new one) and the results per theme
 * (the dashboard of a visitor without an account). Storage may be full or refused: the page
 * then goes on without it.
 */

const KEY = 'chess.puzzles';
const RECENT = 200;

/** @typedef {{rating: number, deviation: number, volatility: number}} Glicko */
/**
 * @typedef {object} Progress
 * @property {Glicko | null} solver
 * @property {string[]} recent
 * @property {Record<string, {wins: number, losses: number}>} themes
 */

/** @returns {Progress} */
export function load() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (stored && Array.isArray(stored.recent) && typeof stored.themes === 'object') return stored;
  } catch {
    // unreadable: start again
  }
  return { solver: null, recent: [], themes: {} };
}

/** @param {Progress} progress */
function save(progress) {
  try {
    localStorage.setItem(KEY, JSON.stringify(progress));
  } catch {
    // full or refused: the page goes on without it
  }
}

/**
 * The puzzle seen: kept among the recent ones.
 * @param {string} id
 */
export function rememberSeen(id) {
  const progress = load();
  progress.recent = progress.recent.filter((seen) => seen !== id).concat(id).slice(-RECENT);
  save(progress);
}

/**
 * A result: the tally of each of the puzzle's themes, and the rating the server sent back.
 * @param {string[]} themes
 * @param {boolean} win
 * @param {Glicko | null} solver
 */
export function recordResult(themes, win, solver) {
  const progress = load();
  for (const theme of themes) {
    const tally = progress.themes[theme] ?? { wins: 0, losses: 0 };
    if (win) tally.wins += 1;
    else tally.losses += 1;
    progress.themes[theme] = tally;
  }
  if (solver) progress.solver = solver;
  save(progress);
}
