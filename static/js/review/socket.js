// @ts-check
/**
 * The review page's events over its one Socket.IO connection (client.js): watching the review
 * (`review_watch`, then the `review_update` pushes), the puzzle's answers (`review_try`) and
 * the positions' legal destinations (`analysis_position`, the analysis board's event). A
 * request never answered settles as a `timeout` refusal. After a lost connection the review is
 * watched again.
 */
import { openSocket, refusalText } from '../client.js';

/**
 * @typedef {object} ReviewHandlers
 * @property {(review: any) => void} onReview the whole review, on every (re)connection
 * @property {(update: any) => void} onUpdate each push
 * @property {(status: 'connected' | 'reconnecting' | 'error', words?: string) => void} onStatus
 */

/**
 * Watch review `id`.
 * @param {string} id
 * @param {ReviewHandlers} handlers
 */
export function connectReview(id, { onReview, onUpdate, onStatus }) {
  const { socket, request } = openSocket();

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
