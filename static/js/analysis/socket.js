/**
 * The analysis board's Socket.IO connection: the only module of the page that talks Socket.IO.
 *
 * The analysis events need no game: every request carries its path (root FEN and moves,
 * docs/protocol.md). Each request goes out with an acknowledgement and a time limit, so one
 * the server never answers still settles, as `{ok: false, error: 'timeout'}`. `engine_lines`
 * pushed by the server go to `onLines`; `onStatus('connected' | 'reconnecting')` tells the
 * page when to start the engine again.
 */
import { io } from '/vendor/socket.io/socket.io.esm.min.js';

const REQUEST_TIMEOUT_MS = 8000;

export function connectAnalysis({ onStatus, onLines }) {
  const socket = io({ transports: ['websocket'], reconnectionDelayMax: 2000 });
  socket.on('connect', () => onStatus('connected'));
  socket.on('disconnect', () => onStatus('reconnecting'));
  socket.io.on('reconnect_attempt', () => onStatus('reconnecting'));
  socket.on('engine_lines', (lines) => onLines(lines));

  return {
    /** Emit `event` with `payload`; resolves with the reply, or a timeout error. */
    request(event, payload = {}) {
      return new Promise((resolve) => {
        socket.timeout(REQUEST_TIMEOUT_MS).emit(event, payload, (error, reply) => {
          resolve(error ? timeout(event) : reply);
        });
      });
    },
    connected: () => socket.connected,
  };
}

function timeout(event) {
  return {
    ok: false,
    error: 'timeout',
    message: `the server did not answer '${event}' in time`,
  };
}

/**
 * The words of a refusal. The analysis events answer `{error: code, message}`, the game
 * events `{code, error: words}`; either reads.
 */
export function refusalText(reply) {
  return reply.message ?? reply.error ?? 'the server refused the request';
}
