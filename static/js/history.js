/**
 * Earlier positions of the game, for stepping back through the move list.
 *
 * Every state the page receives is kept by its ply (FEN, check, threat map, insight), so positions
 * seen during the visit are at hand. A position from before the page was opened is asked of
 * the server (`GET /api/games/<id>/positions/<ply>`); if it cannot be had, the page says so
 * rather than guess it.
 */
import { requestJson } from './client.js';

export function createHistory(gameId) {
  const positions = new Map();
  const asked = new Map();

  return {
    /** Keep the position of `state`; a takeback drops the positions after it. */
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
    get: (ply) => positions.get(ply) ?? null,
    /** Ask the server for position `ply`; resolves with it, or null if it cannot be had. */
    async fetch(ply) {
      if (positions.has(ply)) return positions.get(ply);
      if (!asked.has(ply)) asked.set(ply, requestJson(`/api/games/${gameId}/positions/${ply}`));
      const reply = await asked.get(ply);
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
