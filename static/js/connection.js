// @ts-check
/**
 * The game page's connection: the game's events over the page's one Socket.IO connection
 * (client.js opens it and settles every request, a request never answered as a `timeout`
 * refusal).
 *
 * It joins one game, keeps the version of the last state it saw, and after a lost connection
 * joins again with `since` so the server sends the current state (and what was missed). The
 * wire format is in docs/protocol.md.
 */
import { openSocket, refusalText } from './client.js';

/** @typedef {import('./client.js').Reply} Reply */

/**
 * @typedef {object} GameHandlers
 * @property {(status: string, words?: string) => void} onStatus
 * @property {(reply: import('./client.js').Accepted) => void} onJoined
 * @property {(state: any) => void} onState
 * @property {(data: any) => void} onRematch
 * @property {(notice: any) => void} [onPremove]
 * @property {string | null} [name] the player's display name, sent with each join
 */

/**
 * Join `gameId` and keep it joined.
 * @param {string} gameId
 * @param {GameHandlers} handlers
 */
export function connectToGame(gameId, handlers) {
  const { socket, request } = openSocket();
  /** @type {number | null} */
  let lastVersion = null;

  async function join() {
    /** @type {{game: string, name?: string, since?: number}} */
    const payload = { game: gameId };
    if (handlers.name) payload.name = handlers.name;
    if (lastVersion !== null) payload.since = lastVersion;
    const reply = await request('join', payload);
    if (reply.ok) {
      handlers.onStatus('connected');
      handlers.onJoined(reply);
    } else if (reply.code === 'timeout') {
      socket.disconnect().connect();
    } else {
      handlers.onStatus('error', refusalText(reply));
    }
  }

  socket.on('connect', () => {
    handlers.onStatus('joining');
    join();
  });
  socket.on('disconnect', () => handlers.onStatus('reconnecting'));
  socket.io.on('reconnect_attempt', () => handlers.onStatus('reconnecting'));
  socket.on('state', (state) => handlers.onState(state));
  socket.on('rematch', (data) => handlers.onRematch(data));
  socket.on('premove', (notice) => handlers.onPremove?.(notice));

  return {
    /**
     * @param {string} event
     * @param {object} [fields]
     * @returns {Promise<Reply>}
     */
    request: (event, fields = {}) => request(event, { game: gameId, ...fields }),
    /**
     * Listen to the connection's `event` (the chat's lines: chat.js).
     * @param {string} event
     * @param {(data: any) => void} handler
     */
    on(event, handler) {
      socket.on(event, handler);
    },
    /** @param {number} version */
    seenVersion(version) {
      lastVersion = version;
    },
  };
}
