// @ts-check
/**
 * The player's preferences on every page (server.preferences): the server renders them on
 * <html>, as classes (the board's colours, the theme, the coordinates: static/css/theme.css)
 * and as JSON in `data-preferences`, which `preferences()` reads; the page needs no request and
 * nothing flashes on load. `savePreferences` applies a change to this page at once, keeps it in
 * this browser (localStorage, and the cookie the server renders the next page from) and sends
 * it to the server, which writes the cookie anew and, when signed in, saves it to the account.
 */
import { requestJson } from './client.js';

/**
 * @typedef {object} Preferences
 * @property {string} board brown, blue, green or grey
 * @property {string} theme light, dark or system
 * @property {boolean} coordinates
 * @property {boolean} sound
 * @property {boolean} premoves
 * @property {boolean} auto_queen
 * @property {boolean} confirm_resign
 * @property {string} threats the threat overlay's mode a game opens with
 * @property {boolean} chat
 */

const STORAGE_KEY = 'chess.preferences';
const COOKIE = 'prefs';
const COOKIE_SECONDS = 400 * 24 * 3600;

/** @type {Preferences} */
const DEFAULTS = {
  board: 'brown',
  theme: 'light',
  coordinates: true,
  sound: true,
  premoves: true,
  auto_queen: false,
  confirm_resign: true,
  threats: 'off',
  chat: true,
};

/** @returns {Preferences} the preferences this page was rendered with, as changed since */
export function preferences() {
  try {
    return { ...DEFAULTS, ...JSON.parse(document.documentElement.dataset.preferences ?? '{}') };
  } catch {
    return { ...DEFAULTS };
  }
}

/**
 * <html>'s classes for `prefs`, as the server writes them (server.preferences.choices).
 * @param {Preferences} prefs
 */
export function applyPreferences(prefs) {
  const html = document.documentElement;
  for (const name of [...html.classList]) {
    if (/^(board|theme)-/.test(name) || name === 'coords-off') html.classList.remove(name);
  }
  html.classList.add(`board-${prefs.board}`, `theme-${prefs.theme}`);
  if (!prefs.coordinates) html.classList.add('coords-off');
  html.dataset.preferences = JSON.stringify(prefs);
}

/**
 * The cookie's form, the server's own (server.preferences.choices.make_cookie).
 * @param {Preferences} prefs
 */
function cookieValue(prefs) {
  return Object.entries(prefs)
    .map(([name, value]) => `${name}:${typeof value === 'boolean' ? Number(value) : value}`)
    .join('|');
}

/** @param {Preferences} prefs */
function keepInBrowser(prefs) {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(prefs));
  document.cookie = `${COOKIE}=${cookieValue(prefs)}; Max-Age=${COOKIE_SECONDS}; Path=/; SameSite=Lax`;
}

/**
 * Change some preferences: applied here at once, kept by the browser, sent to the server.
 * Resolves the server's reply ({ok: true, preferences} or a refusal).
 * @param {Partial<Preferences>} changes
 */
export async function savePreferences(changes) {
  const prefs = { ...preferences(), ...changes };
  applyPreferences(prefs);
  keepInBrowser(prefs);
  return requestJson('/api/preferences', changes);
}

/**
 * A signed-out browser whose cookie is gone (cleared, or expired) but whose localStorage still
 * has the preferences: the cookie is written again and the page takes them on now.
 */
function restoreFromStorage() {
  if (document.body.dataset.account || document.cookie.includes(`${COOKIE}=`)) return;
  const kept = localStorage.getItem(STORAGE_KEY);
  if (!kept) return;
  try {
    const prefs = { ...DEFAULTS, ...JSON.parse(kept) };
    applyPreferences(prefs);
    keepInBrowser(prefs);
  } catch {
    localStorage.removeItem(STORAGE_KEY);
  }
}

restoreFromStorage();
