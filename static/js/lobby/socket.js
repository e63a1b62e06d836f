/**
 * The lobby's connection: one Socket.IO connection that enters the `lobby` room, hears seeks
 * come and go, the games to watch and a private `paired`, and sends requests with an
 * acknowledgement and a time limit (a request never answered settles as `timeout`). After a
 * lost connection it enters again: the server withdrew what the old connection held.
 * The events are in docs/protocol.md, "Lobby".
 */
import { io } from '/vendor/socket.io/socket.io.esm.min.js';

const REQUEST_TIMEOUT_MS = 8000;
const MESSAGES = ['seek_added', 'seeks_removed', 'paired', 'lobby_games', 'state'];

/** handlers: onStatus(state), onEnter(reply), and one per message of MESSAGES. */
export function connectToLobby(handlers) {
  const socket = io({ transports: ['websocket'], reconnectionDelayMax: 2000 });

  function request(event, payload = {}) {
    return new Promise((resolve) => {
      socket.timeout(REQUEST_TIMEOUT_MS).emit(event, payload, (error, reply) => {
        resolve(error ? { ok: false, code: 'timeout', error: `the server did not answer '${event}'` } : reply);
      });
    });
  }

  socket.on('connect', async () => {
    handlers.onStatus('connected');
    const reply = await request('lobby_enter');
    if (reply.ok) handlers.onEnter(reply);
  });
  socket.on('disconnect', () => handlers.onStatus('reconnecting'));
  for (const message of MESSAGES) {
    socket.on(message, (data) => handlers[message]?.(data));
  }
  return { request };
}
