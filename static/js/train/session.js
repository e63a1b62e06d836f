// @ts-check
/**
 * This visit's drills, for the session summary: per drill its kind, whether it was right and
 * the seconds it took; the accuracy, the time per drill and the same by kind; the streak of
 * right answers in a row and the best one. Plain data, kept in memory only.
 */

export function createSession() {
  /** @type {{kind: string, correct: boolean, seconds: number}[]} */
  const results = [];
  let streak = 0;
  let best = 0;
  return {
    /**
     * @param {string} kind
     * @param {boolean} correct
     * @param {number} seconds
     */
    add(kind, correct, seconds) {
      results.push({ kind, correct, seconds });
      streak = correct ? streak + 1 : 0;
      best = Math.max(best, streak);
    },
    streak: () => streak,
    best: () => best,
    /** {done, right, accuracy (0-100), seconds (mean), byKind: [{kind, done, right, seconds}]} */
    summary() {
      /** @type {Map<string, {kind: string, done: number, right: number, total: number}>} */
      const byKind = new Map();
      for (const result of results) {
        const entry = byKind.get(result.kind) ?? { kind: result.kind, done: 0, right: 0, total: 0 };
        entry.done += 1;
        entry.right += result.correct ? 1 : 0;
        entry.total += result.seconds;
        byKind.set(result.kind, entry);
      }
      const right = results.filter((result) => result.correct).length;
      const total = results.reduce((sum, result) => sum + result.seconds, 0);
      return {
        done: results.length,
        right,
        accuracy: results.length ? Math.round((100 * right) / results.length) : 0,
        seconds: results.length ? total / results.length : 0,
        byKind: [...byKind.values()].map(({ total: spent, ...entry }) => ({
          ...entry,
          seconds: spent / entry.done,
        })),
      };
    },
  };
}
