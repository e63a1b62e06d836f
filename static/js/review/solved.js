// @ts-check
/**
 * What this browser did with each puzzle of "learn from your mistakes", kept in localStorage
 * per review and ply: 'solved' (a move the server accepted), 'failed' (the solution viewed)
 * or 'skipped' (passed over with Next). Nothing about it is sent to the server.
 */

const PREFIX = 'chess.reviewPuzzles.';

/**
 * {ply: status} of review `id` (empty when none, or when the stored value is unreadable).
 * @param {string} id
 * @returns {Record<number, string>}
 */
export function loadProgress(id) {
  try {
    const stored = JSON.parse(localStorage.getItem(PREFIX + id) ?? '{}');
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  } catch {
    return {};
  }
}

/**
 * Record `status` for ply `ply` of review `id`; a solved puzzle stays solved.
 * @param {string} id
 * @param {number} ply
 * @param {string} status
 */
export function saveProgress(id, ply, status) {
  const progress = loadProgress(id);
  if (progress[ply] === 'solved' && status !== 'solved') return progress;
  progress[ply] = status;
  try {
    localStorage.setItem(PREFIX + id, JSON.stringify(progress));
  } catch {
    // Storage full or refused (private mode): the progress lasts as long as the page.
  }
  return progress;
}
