// @ts-check
/**
 * The accounts' API as the pages call it (docs/protocol.md, "Accounts"): JSON posts from this
 * site's own pages (the server refuses other sites'), and the claim of this browser's games,
 * whose seats are the HttpOnly cookies the browser sends along; the ids come from
 * localStorage (storage.js).
 */

import { refusalText, requestJson } from '../client.js';
import { byId } from '../dom.js';
import { listGames } from '../storage.js';
import { t, tn } from '../i18n.js';

/** @typedef {import('../client.js').Reply} Reply */

/**
 * POST `body` as JSON to `path` (the accounts' API takes only posts).
 * @param {string} path
 * @param {object} [body]
 */
export function post(path, body = {}) {
  return requestJson(path, body);
}

/**
 * Show `reply`'s refusal in `element` (or clear it).
 * @param {HTMLElement} element
 * @param {Reply} reply
 */
export function showError(element, reply) {
  element.textContent = reply.ok ? '' : refusalText(reply);
}

/** The ids of the games this browser remembers playing. */
export function browserGames() {
  return listGames().map((game) => game.id);
}

/** Claim this browser's games for the signed-in account (once per account). */
export function claimGames() {
  return post('/api/account/claim', { seats: browserGames() });
}

/**
 * Call `submit` with the form's values when it is sent; its button waits meanwhile.
 * @param {HTMLFormElement} form
 * @param {() => Promise<void>} submit
 */
export function onSubmit(form, submit) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
    button.disabled = true;
    try {
      await submit();
    } finally {
      button.disabled = false;
    }
  });
}

/**
 * Wire the claim button, text and status of a page (sign-up's last step, settings).
 * @param {{text: string, button: string, status: string, error: string}} ids
 * @returns {number} how many games this browser has to claim
 */
export function setUpClaim(ids) {
  const games = browserGames();
  const text = byId(ids.text);
  const button = byId(ids.button, HTMLButtonElement);
  const status = byId(ids.status);
  const error = byId(ids.error);
  if (games.length === 0) {
    text.textContent = t('This browser has no games of yours to add.');
    button.hidden = true;
    return games.length;
  }
  text.textContent = tn(
    'This browser played one game before you signed in. Add it to your account, so it is yours on any browser (once per account).',
    'This browser played {n} games before you signed in. Add them to your account, so they are yours on any browser (once per account).',
    games.length,
  );
  button.addEventListener('click', async () => {
    button.disabled = true;
    const reply = await claimGames();
    showError(error, reply);
    if (reply.ok) {
      const added = reply.claimed.length;
      status.textContent = tn('One game added.', '{n} games added.', added);
      button.hidden = true;
    } else {
      button.disabled = false;
    }
  });
  return games.length;
}

/**
 * Whether this browser can use passkeys here: WebAuthn's JSON helpers, a secure context, and
 * a host name (a passkey belongs to a site's name, never to a bare IP address).
 */
export function hasPasskeys() {
  const named = !/^[0-9.]+$|^\[/.test(window.location.hostname);
  const json = typeof window.PublicKeyCredential?.parseCreationOptionsFromJSON === 'function';
  return json && window.isSecureContext && named;
}

/**
 * Add a passkey to the signed-in account: the server's options, the authenticator, back.
 * @param {string} password
 * @returns {Promise<Reply>}
 */
export async function addPasskey(password) {
  const start = await post('/api/account/passkeys/options', { password });
  if (!start.ok) return start;
  try {
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(start.options);
    const made = await navigator.credentials.create({ publicKey });
    const credential = /** @type {PublicKeyCredential} */ (made);
    return post('/api/account/passkeys', { ticket: start.ticket, credential: credential.toJSON() });
  } catch (error) {
    return passkeyRefusal(t('no passkey was made'), error);
  }
}

/**
 * Sign in with one of this site's passkeys.
 * @returns {Promise<Reply>}
 */
export async function signInWithPasskey() {
  const start = await post('/api/account/passkey/options');
  if (!start.ok) return start;
  try {
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(start.options);
    const used = await navigator.credentials.get({ publicKey });
    const credential = /** @type {PublicKeyCredential} */ (used);
    return post('/api/account/passkey/login', { ticket: start.ticket, credential: credential.toJSON() });
  } catch (error) {
    return passkeyRefusal(t('no passkey was used'), error);
  }
}

/**
 * The authenticator's failure (the player cancelled, no passkey for this site...) as a refusal.
 * @param {string} words
 * @param {unknown} error
 * @returns {import('../client.js').Refusal}
 */
function passkeyRefusal(words, error) {
  const name = error instanceof Error ? error.name : String(error);
  return { ok: false, code: 'passkey', message: `${words} (${name})` };
}
