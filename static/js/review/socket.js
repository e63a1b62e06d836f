/**
 * The review page's Socket.IO connection: watching the review (`review_watch`, then the
 * `review_update` pushes), the puzzle's answers (`review_try`) and the positions' legal
 * destinations (`analysis_position`, the analysis board's event). Every request goes out with
 * an acknowledgement and a time limit, so one never answered settles as
 * `{ok: false, error: 'timeout'}`. After a lost connection the review is watched again.
 */
import { io } from '/vendor/socket.io/socket.io.esm.min.js';

const REQUEST_TIMEOUT_MS = 8000;

/**
 * Watch review `id`: `onReview(review)` with the whole review on every (re)connection,
 * `onUpdate(update)` with each push, `onStatus('connected' | 'reconnecting' | 'error', words)`.
 */
export function connectReview(id, { onReview, onUpdate, onStatus }) {
  const socket = io({ transports: ['websocket'], reconnectionDelayMax: 2000 });

  function request(event, payload) {
    return new Promise((resolve) => {
      socket.timeout(REQUEST_TIMEOUT_MS).emit(event, payload, (error, reply) => {
        resolve(error ? timeout(event) : reply);
      });
    });
  }

  socket.on('connect', async () => {
    const reply = await request('review_watch', { id });
    if (reply.ok) {
      onStatus('connected');
      onReview(reply.review);
    } else {
      onStatus('error', refusalText(reply));
    }
  });
  socket.on('disconnect', () => onStatus('reconnecting'));
  socket.io.on('reconnect_attempt', () => onStatus('reconnecting'));
  socket.on('review_update', (update) => {
    if (update.id === id) onUpdate(update);
  });

  return { request, connected: () => socket.connected };
}

function timeout(event) {
  return { ok: false, error: 'timeout', message: `the server did not answer '${event}' in time` };
}

/** The words of a refusal (`{error: code, message}` or `{code, error: words}`). */
export function refusalText(reply) {
  return reply.message ?? reply.error ?? 'the server refused the request';
}
