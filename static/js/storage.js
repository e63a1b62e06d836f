// @ts-check
/**
 * The games this browser plays, remembered in localStorage so the lobby can list them and the
 * game page can show the invitation link to its creator. The seat itself is an HttpOnly
 * cookie set by the server; nothing secret about the seat is kept here.
 */

const KEY = 'chess.games';
const LIMIT = 30;

/** @returns {{id: string, [field: string]: any}[]} */
export function listGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

/**
 * Add or update the record of game `id` with `fields` ({color, opponent, invite, over}).
 * @param {string} id
 * @param {object} fields
 */
export function rememberGame(id, fields) {
  const games = listGames();
  const old = games.find((game) => game.id === id) ?? { id, created: Date.now() };
  const others = games.filter((game) => game.id !== id);
  localStorage.setItem(KEY, JSON.stringify([{ ...old, ...fields }, ...others].slice(0, LIMIT)));
}

/** @param {string} id */
export function findGame(id) {
  return listGames().find((game) => game.id === id) ?? null;
}
