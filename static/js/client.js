// @ts-check
/**
 * The client: the only module that talks to the server. It makes the page's one Socket.IO
 * connection (one set of options for every page) and every HTTP request (one fetch helper,
 * JSON in and JSON, text or a file out), and it turns every way a request can fail into one
 * value, a `Refusal`: the server's `{ok: false, code, error}` (from an acknowledgement or an
 * HTTP reply), an HTTP status with no JSON, a network failure, a request never answered. A
 * refusal is worded for the page by one function, `refusalText`. The wire format is in
 * docs/protocol.md; docs/frontend.md says how the pages use this module.
 */
import { io } from '/vendor/socket.io/socket.io.esm.min.js';
import { t } from './i18n.js';

/** @typedef {import('/vendor/socket.io/socket.io.esm.min.js').Socket} Socket */

/**
 * A request that did not succeed, whatever the reason.
 * @typedef {object} Refusal
 * @property {false} ok
 * @property {string} code the server's code (`not_found`, `rate_limited`, ...), or the
 *   client's own: `timeout` (no answer in time), `network` (the server could not be reached),
 *   `bad_reply` (an answer of the wrong kind)
 * @property {string} message what went wrong, in words for the player
 * @property {number} [status] the HTTP status, for HTTP requests the server answered
 */

/**
 * A request the server accepted: its reply's fields (the wire format's, not typed here).
 * @typedef {{ok: true, [field: string]: any}} Accepted
 */

/** @typedef {Accepted | Refusal} Reply */

/**
 * @typedef {object} Connection
 * @property {Socket} socket the connection itself, for the page to listen on
 * @property {(event: string, payload?: object) => Promise<Reply>} request emit `event` with
 *   an acknowledgement and a time limit; resolves with the reply or a refusal, never rejects
 */

const REQUEST_TIMEOUT_MS = 8000;
// `ok: true` typed as the literal, which an object's `true` is not.
const TRUE = /** @type {const} */ (true);

// Every page the same, as each page had it: WebSocket from the first request, and a lost
// connection tried again at least every 2 s.
const SOCKET_OPTIONS = { transports: ['websocket'], reconnectionDelayMax: 2000 };

/**
 * A refusal made here.
 * @param {string} code
 * @param {string} message
 * @param {number} [status]
 * @returns {Refusal}
 */
function refuse(code, message, status) {
  return status === undefined ? { ok: false, code, message } : { ok: false, code, message, status };
}

/**
 * The server's reply in the client's shape: accepted as it is, or refused as a `Refusal`.
 * @param {unknown} reply
 * @param {number} [status]
 * @returns {Reply}
 */
function readReply(reply, status) {
  if (!isRecord(reply)) return refuse('bad_reply', answeredText(status), status);
  const failed = reply.ok === false || (status !== undefined && (status < 200 || status > 299));
  return failed ? readRefusal(reply, status) : /** @type {Accepted} */ ({ ...reply, ok: true });
}

/**
 * The server's refusal, `{ok: false, code, error}` (an acknowledgement's or an HTTP reply's
 * body; `message` is read too), or an HTTP error without one.
 * @param {unknown} reply
 * @param {number} [status]
 * @returns {Refusal}
 */
function readRefusal(reply, status) {
  const fields = isRecord(reply) ? reply : {};
  const code = typeof fields.code === 'string' ? fields.code : 'refused';
  const words = [fields.error, fields.message].find((value) => typeof value === 'string');
  return refuse(code, typeof words === 'string' ? words : answeredText(status), status);
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @param {number} [status] */
function answeredText(status) {
  if (status === undefined) return t('the server answered nothing readable');
  return t('the server answered {status}', { status });
}

/**
 * The words that tell the player why `refusal` happened (a sentence's lower-case tail: pages
 * put their own "Could not ...:" before it).
 * @param {Refusal} refusal
 * @returns {string}
 */
export function refusalText(refusal) {
  return refusal.message || t('the server refused the request ({code})', { code: refusal.code });
}

// -- Socket.IO --------------------------------------------------------------------------------

/**
 * Open the page's connection. Each page opens one and listens on its `socket`; requests go
 * through `request`, so a request the server never answers still settles, as a refusal with
 * code `timeout`.
 * @returns {Connection}
 */
export function openSocket() {
  const socket = io(SOCKET_OPTIONS);
  return { socket, request: (event, payload = {}) => emitRequest(socket, event, payload) };
}

/**
 * @param {Socket} socket
 * @param {string} event
 * @param {object} payload
 * @returns {Promise<Reply>}
 */
function emitRequest(socket, event, payload) {
  return new Promise((resolve) => {
    /** @type {(error: unknown, reply: unknown) => void} */
    const settle = (error, reply) => {
      if (error) resolve(refuse('timeout', t("the server did not answer '{event}' in time", { event })));
      else resolve(readReply(reply));
    };
    socket.timeout(REQUEST_TIMEOUT_MS).emit(event, payload, settle);
  });
}

// -- HTTP ---------------------------------------------------------------------------------------

/**
 * The one fetch: `body` sent as JSON (a POST; a GET when undefined), the reply read by `read`
 * when the status says success; otherwise the reply's JSON words the refusal.
 * @template T
 * @param {string} url
 * @param {unknown} body
 * @param {(response: Response) => Promise<T>} read
 * @returns {Promise<T | Refusal>}
 */
async function send(url, body, read) {
  /** @type {RequestInit} */
  const init = { credentials: 'same-origin' };
  if (body !== undefined) {
    Object.assign(init, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    return refuse('network', t('the server could not be reached ({error}); try again', { error: errorName(error) }));
  }
  try {
    if (response.ok) return await read(response);
    return readRefusal(isJson(response) ? await response.json() : null, response.status);
  } catch (error) {
    return refuse(
      'network',
      t('the reply was cut off ({error}); try again', { error: errorName(error) }),
      response.status,
    );
  }
}

/** @param {Response} response */
function isJson(response) {
  return (response.headers.get('Content-Type') ?? '').includes('json');
}

/** @param {unknown} error */
function errorName(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Ask `url` for JSON: GET when `body` is undefined, else POST it as JSON. Resolves with the
 * reply's fields (`ok: true`) or a refusal; never rejects.
 * @param {string} url
 * @param {unknown} [body]
 * @returns {Promise<Reply>}
 */
export function requestJson(url, body) {
  return send(url, body, async (response) => {
    if (!isJson(response)) return refuse('bad_reply', answeredText(response.status), response.status);
    return readReply(await response.json(), response.status);
  });
}

/**
 * Ask `url` for text (a PGN written by the server): `{ok: true, text}` or a refusal.
 * @param {string} url
 * @param {unknown} [body]
 * @returns {Promise<{ok: true, text: string} | Refusal>}
 */
export function requestText(url, body) {
  return send(url, body, async (response) => ({ ok: TRUE, text: await response.text() }));
}

/**
 * Ask `url` for a file to save: `{ok: true, blob}` or a refusal.
 * @param {string} url
 * @returns {Promise<{ok: true, blob: Blob} | Refusal>}
 */
export function requestFile(url) {
  return send(url, undefined, async (response) => ({ ok: TRUE, blob: await response.blob() }));
}
