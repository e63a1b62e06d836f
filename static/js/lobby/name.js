// @ts-check
/**
 * The visitor's display name: chosen on the lobby and kept in localStorage, else a generated
 * "Anonymous-4821" kept the same way. The check mirrors the server's (server/lobby/names.py),
 * only to say what is wrong before asking; the server decides.
 */
import { t } from '../i18n.js';

const KEY = 'chess.name';
const NAME = /^[\p{L}\p{Nd}_ -]{1,20}$/u;

/** @param {string} text */
export function isName(text) {
  return NAME.test(text) && text === text.trim();
}

export function makeAnonymousName() {
  return `Anonymous-${1000 + Math.floor(Math.random() * 9000)}`;
}

/** The name this browser keeps, or null when it never visited the lobby (none made up). */
export function keptName() {
  const kept = localStorage.getItem(KEY);
  return kept && isName(kept) ? kept : null;
}

/** The kept name, or a new anonymous one (kept from now on). */
export function loadName() {
  const kept = keptName();
  if (kept) return kept;
  const name = makeAnonymousName();
  localStorage.setItem(KEY, name);
  return name;
}

/** @param {string} name */
export function saveName(name) {
  localStorage.setItem(KEY, name);
}

/**
 * Wire the name field: shows the kept name, keeps a valid edit, says why an edit is refused.
 * A signed-in player's field holds the account's name, read-only: the server shows that name.
 * @param {HTMLInputElement} input
 * @param {HTMLElement} errorLine
 * @returns {() => string} the name to send
 */
export function wireNameField(input, errorLine) {
  if (input.dataset.account !== undefined) return () => input.value;
  input.value = loadName();
  input.addEventListener('input', () => {
    const name = input.value;
    if (isName(name)) {
      saveName(name);
      errorLine.textContent = '';
    } else {
      errorLine.textContent = t(
        'A name is 1 to 20 letters, digits, spaces, _ or - (no space at either end).',
      );
    }
  });
  return () => (isName(input.value) ? input.value : loadName());
}
