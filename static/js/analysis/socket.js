// @ts-check
/**
 * The analysis board's events over its one Socket.IO connection (client.js).
 *
 * The analysis events need no game: every request carries its path (root FEN and moves,
 * docs/protocol.md). A request the server never answers settles as a `timeout` refusal.
 * `engine_lines` pushed by the server go to `onLines`; `onStatus('connected' | 'reconnecting')`
 * tells the page when to start the engine again.
 */
import { openSocket } from '../client.js';

/**
 * @param {object} handlers
 * @param {(status: 'connected' | 'reconnecting') => void} handlers.onStatus
 * @param {(lines: any) => void} handlers.onLines
 */
export function connectAnalysis({ onStatus, onLines }) {
  const { socket, request } = openSocket();
  socket.on('connect', () => onStatus('connected'));
  socket.on('disconnect', () => onStatus('reconnecting'));
  socket.io.on('reconnect_attempt', () => onStatus('reconnecting'));
  socket.on('engine_lines', (lines) => onLines(lines));
  return { request, connected: () => socket.connected };
}
