/**
 * Connection and protocol: the only module that talks to the server over Socket.IO.
 *
 * It joins one game, keeps the version of the last state it saw, and after a lost connection
 * joins again with `since` so the server sends the current state (and what was missed).
 * Every request goes out with an acknowledgement and a time limit, so a request the server
 * never answers still settles: as `{ok: false, code: 'timeout'}`. The wire format is in
 * docs/protocol.md.
 */
import { io } from '/vendor/socket.io/socket.io.esm.min.js';

const REQUEST_TIMEOUT_MS = 8000;

/**
 * Join `gameId` and keep it joined. `handlers`: onStatus(text), onJoined(reply),
 * onState(state), onRematch(data), onPremove(notice), and `name`, the player's display name
 * sent with each join. Returns {request(event, fields), seenVersion(v)}.
 */
export function connectToGame(gameId, handlers) {
  const socket = io({ transports: ['websocket'], reconnectionDelayMax: 2000 });
  let lastVersion = null;

  async function join() {
    const payload = { game: gameId };
    if (handlers.name) payload.name = handlers.name;
    if (lastVersion !== null) payload.since = lastVersion;
    const reply = await send(socket, 'join', payload);
    if (reply.ok) {
      handlers.onStatus('connected');
      handlers.onJoined(reply);
    } else if (reply.code === 'timeout') {
      socket.disconnect().connect();
    } else {
      handlers.onStatus('error', reply.error);
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
    request: (event, fields = {}) => send(socket, event, { game: gameId, ...fields }),
    seenVersion(version) {
      lastVersion = version;
    },
  };
}

/** Emit `event` and resolve with the server's reply, or a timeout error. */
function send(socket, event, payload) {
  return new Promise((resolve) => {
    socket.timeout(REQUEST_TIMEOUT_MS).emit(event, payload, (error, reply) => {
      if (error) {
        resolve({ ok: false, code: 'timeout', error: `the server did not answer '${event}'` });
      } else {
        resolve(reply);
      }
    });
  });
}

/** POST JSON to the HTTP API; resolves with the parsed reply (`ok` false on any failure). */
export async function postJson(url, body) {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    return await response.json();
  } catch (error) {
    return { ok: false, code: 'network', error: `could not reach the server: ${error.message}` };
  }
}

/** GET JSON from the HTTP API; `ok` false on any failure (an endpoint missing included). */
export async function getJson(url) {
  try {
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.headers.get('Content-Type')?.includes('json')) {
      return { ok: false, code: 'not_found', error: `${url} answered ${response.status}` };
    }
    return await response.json();
  } catch (error) {
    return { ok: false, code: 'network', error: `could not reach the server: ${error.message}` };
  }
}
