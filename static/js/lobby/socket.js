// @ts-check
/**
 * The lobby's connection: it enters the `lobby` room over the page's one Socket.IO connection
 * (client.js), hears seeks come and go, the games to watch and a private `paired`, and sends
 * requests (a request never answered settles as a `timeout` refusal). After a lost connection
 * it enters again: the server withdrew what the old connection held.
 * The events are in docs/protocol.md, "Lobby".
 */
import { openSocket } from '../client.js';

const MESSAGES = /** @type {const} */ ([
  'seek_added',
  'seeks_removed',
  'paired',
  'lobby_games',
  'state',
]);

/**
 * @typedef {{
 *   onStatus: (state: string) => void,
 *   onEnter: (reply: import('../client.js').Accepted) => void,
 * } & {[message in typeof MESSAGES[number]]?: (data: any) => void}} LobbyHandlers
 */

/** @param {LobbyHandlers} handlers */
export function connectToLobby(handlers) {
  const { socket, request } = openSocket();

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
