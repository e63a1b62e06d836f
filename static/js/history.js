// @ts-check
/**
 * Earlier positions of the game, for stepping back through the move list.
 *
 * Every state the page receives is kept by its ply (FEN, check, threat map, insight), so positions
 * seen during the visit are at hand. A position from before the page was opened is asked of
 * the server (`GET /api/games/<id>/positions/<ply>`); if it cannot be had, the page says so
 * rather than guess it.
 */
import { requestJson } from './client.js';

/** @typedef {import('./wire.js').Position} Position */

/** @param {string} gameId */
export function createHistory(gameId) {
  /** @type {Map<number, Position>} */
  const positions = new Map();
  /** @type {Map<number, Promise<import('./client.js').Reply>>} */
  const asked = new Map();

  return {
    /**
     * Keep the position of `state`; a takeback drops the positions after it.
     * @param {import('./wire.js').GameState} state
     */
    record(state) {
      for (const cache of [positions, asked]) {
        for (const ply of cache.keys()) {
          if (ply > state.ply) cache.delete(ply);
        }
      }
      positions.set(state.ply, {
        ply: state.ply,
        fen: state.fen,
        check: state.check,
        checked_king: state.checked_king,
        threats: state.threats,
        insight: state.insight,
      });
    },
    /** @param {number} ply */
    get: (ply) => positions.get(ply) ?? null,
    /**
     * Ask the server for position `ply`; resolves with it, or null if it cannot be had.
     * @param {number} ply
     * @returns {Promise<Position | null>}
     */
    async fetch(ply) {
      const known = positions.get(ply);
      if (known) return known;
      if (!asked.has(ply)) asked.set(ply, requestJson(`/api/games/${gameId}/positions/${ply}`));
      const reply = await /** @type {Promise<import('./client.js').Reply>} */ (asked.get(ply));
      if (!reply.ok || typeof reply.fen !== 'string') {
        asked.delete(ply);
        return null;
      }
      const position = {
        ply,
        fen: reply.fen,
        check: Boolean(reply.check),
        checked_king: reply.checked_king ?? null,
        threats: reply.threats ?? null,
        insight: reply.insight ?? null,
      };
      positions.set(ply, position);
      return position;
    },
  };
}
