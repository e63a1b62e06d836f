// @ts-check
/**
 * The analysis board's lines from Stockfish in this browser (./stockfish.js), in the same form
 * as the server's `engine_lines` (docs/protocol.md), so the panel draws either alike:
 * `{fen, depth, nodes, nps, seconds, done, lines: [{rank, score, exact, uci, san}]}` with
 * scores from White's view. The server is asked nothing while these lines are computed.
 *
 * Stockfish speaks UCI; the SAN of its lines comes from chessops (lichess's rules library, the
 * one its analysis board uses for the same job), so this page still holds no rules of ours.
 * Lines are drawn at most every RENDER_MS: Stockfish reports hundreds of them a second at low
 * depth, more than a screen can show.
 */
import { Chess } from '/vendor/chessops/chess.js';
import { parseFen } from '/vendor/chessops/fen.js';
import { makeSanAndPlay } from '/vendor/chessops/san.js';
import { parseUci } from '/vendor/chessops/util.js';
import { startStockfish } from './stockfish.js';

const RENDER_MS = 120;

/** @typedef {import('./stockfish.js').Search} Search */
/** @typedef {import('./stockfish.js').Info} Info */
/** @typedef {import('./engine_view.js').Score} Score */
/** @typedef {{rank: number, score: Score, exact: boolean, uci: string[], san: string[]}} Line */
/**
 * The search on view and what it found so far.
 * @typedef {{
 *   search: Search,
 *   fen: string,
 *   lines: Map<number, Line>,
 *   depth: number,
 *   nodes: number,
 *   nps: number,
 *   time: number,
 *   timer: ReturnType<typeof setTimeout> | null,
 * }} Running
 */

/**
 * `onUpdate(update)` gets the lines of the search on view; `onFailure(message)` is told when
 * the engine cannot run here. Returns {name, ready, start, stop}.
 * @param {object} hooks
 * @param {(update: import('../wire.js').WireObject) => void} hooks.onUpdate
 * @param {(message: string) => void} hooks.onFailure
 */
export function createBrowserEngine({ onUpdate, onFailure }) {
  /** @type {Running | null} */
  let current = null; // {search, fen, lines: Map rank -> line, depth, nodes, nps, time, timer}
  const stockfish = startStockfish({
    onInfo: (search, info) => {
      if (current?.search === search) take(current, info);
    },
    onDone: (search) => {
      if (!current || current.search !== search || search.cancelled) return;
      emit(current, true);
    },
    onError: onFailure,
  });
  stockfish.ready.catch((/** @type {Error} */ error) => onFailure(error.message));

  /**
   * @param {Running} state
   * @param {Info} info
   */
  function take(state, info) {
    const line = makeLine(state.fen, info);
    if (line === null) return;
    state.lines.set(info.multipv, line);
    for (const rank of state.lines.keys()) if (rank > state.search.multipv) state.lines.delete(rank);
    if (info.multipv === 1) {
      Object.assign(state, { depth: info.depth, nodes: info.nodes, nps: info.nps, time: info.time });
    }
    if (state.timer === null) state.timer = setTimeout(() => emit(state, false), RENDER_MS);
  }

  /**
   * @param {Running} state
   * @param {boolean} done
   */
  function emit(state, done) {
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = null;
    if (current !== state) return;
    const lines = [...state.lines.values()].sort((a, b) => a.rank - b.rank);
    onUpdate({
      engine: 'stockfish',
      fen: state.fen,
      depth: state.depth,
      nodes: state.nodes,
      nps: state.nps,
      seconds: state.time / 1000,
      done,
      lines: lines.filter((line) => line.uci.length > 0),
      outcome: lines.find((line) => line.uci.length === 0)?.score ?? null,
    });
  }

  return {
    name: stockfish.build.name,
    ready: stockfish.ready,
    /**
     * Analyse `path` (root FEN and moves) ending in `fen`, `multipv` lines, for `movetime` ms
     * (null: until stopped).
     * @param {{fen: string, moves: string[]}} path
     * @param {string} fen
     * @param {{multipv: number, movetime: number | null}} settings
     */
    start(path, fen, { multipv, movetime }) {
      if (current) current.search.cancelled = true;
      /** @type {Search} */
      const search = { fen: path.fen, moves: path.moves, multipv, movetime, cancelled: false };
      current = { search, fen, lines: new Map(), depth: 0, nodes: 0, nps: 0, time: 0, timer: null };
      stockfish.search(search);
    },
    stop() {
      if (current) current.search.cancelled = true;
      current = null;
      stockfish.stop();
    },
  };
}

/**
 * One of Stockfish's lines as the panel draws it, or null if its moves do not play here.
 * @param {string} fen
 * @param {Info} info
 * @returns {Line | null}
 */
function makeLine(fen, info) {
  const position = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const white = position.turn === 'white';
  const score = whiteView(/** @type {{cp?: number, mate?: number}} */ (info.score), white);
  /** @type {string[]} */
  const san = [];
  for (const uci of info.pv) {
    const move = parseUci(uci);
    if (!move || !position.isLegal(move)) return null;
    san.push(makeSanAndPlay(position, move));
  }
  return { rank: info.multipv, score, exact: info.bound === null, uci: info.pv, san };
}

/**
 * A score from the side to move's view turned to White's; a mated side's `mate 0` names the
 * winner, since 0 has no sign.
 * @param {{cp?: number, mate?: number}} score
 * @param {boolean} whiteToMove
 * @returns {Score}
 */
function whiteView(score, whiteToMove) {
  if (score.mate === 0) return { mate: 0, winner: whiteToMove ? 'black' : 'white' };
  const sign = whiteToMove ? 1 : -1;
  return score.mate !== undefined ? { mate: sign * score.mate } : { cp: sign * (score.cp ?? 0) };
}
