// @ts-check
/**
 * Stockfish 19 lite, compiled to WebAssembly, in a Web Worker: the analysis board's engine in
 * the visitor's browser (served from /vendor/stockfish/, docs/protocol.md "The engine in the
 * browser"). This module speaks UCI to it and nothing else: it knows no chess.
 *
 * The build: where the page is cross-origin isolated (the server sends COOP and COEP on the
 * analysis page), the threaded build with one thread fewer than the machine's cores, else the
 * single-threaded one; both carry the same small net, so their lines agree at a depth.
 * One search at a time: a new one first stops the running search and waits for its
 * `bestmove`, so no `info` of an old position is taken for the new one (lichess's ceval keeps
 * the same order).
 */
import { tn } from '../i18n.js';

const VENDOR = '/vendor/stockfish';
const HASH_MB = 32;
const READY_TIMEOUT_MS = 60_000;

/** Whether this browser can run the engine at all (else the page falls back to the server). */
export function canRunStockfish() {
  return typeof WebAssembly === 'object' && typeof Worker === 'function';
}

/** Which build to load here, its thread count and the name the page shows. */
export function chooseBuild() {
  const isolated = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
  const threads = isolated ? Math.max(1, (navigator.hardwareConcurrency || 1) - 1) : 1;
  const file = isolated ? 'stockfish-19-lite.js' : 'stockfish-19-lite-single.js';
  return {
    url: `${VENDOR}/${file}`,
    threads,
    threaded: isolated,
    name: tn('Stockfish 19 lite, WebAssembly, {n} thread', 'Stockfish 19 lite, WebAssembly, {n} threads', threads),
  };
}

/**
 * Start the engine. `onInfo(info)` gets each parsed `info` line with a score and a pv,
 * `onDone(search)` each search's end (its `bestmove`). Returns {ready (a promise), search,
 * stop, quit}.
 */
/**
 * A search as the page asks for it.
 * @typedef {{
 *   fen: string,
 *   moves: string[],
 *   multipv: number,
 *   movetime: number | null,
 *   cancelled?: boolean,
 * }} Search
 */
/** @typedef {NonNullable<ReturnType<typeof parseInfo>>} Info */

/**
 * @param {object} hooks
 * @param {(search: Search, info: Info) => void} hooks.onInfo
 * @param {(search: Search) => void} hooks.onDone
 * @param {(words: string) => void} hooks.onError
 */
export function startStockfish({ onInfo, onDone, onError }) {
  const build = chooseBuild();
  const worker = new Worker(build.url);
  /** @type {{running: Search | null, next: Search | null, stopping: boolean}} */
  const engine = { running: null, next: null, stopping: false };
  /** @type {(value: ReturnType<typeof chooseBuild>) => void} */
  let readyResolve = () => {};
  /** @type {Promise<ReturnType<typeof chooseBuild>>} */
  const ready = new Promise((resolve, reject) => {
    readyResolve = resolve;
    setTimeout(() => reject(new Error('Stockfish did not start in time')), READY_TIMEOUT_MS);
  });
  const send = (/** @type {string} */ command) => worker.postMessage(command);

  worker.addEventListener('error', (event) => onError(event.message || 'the engine failed'));
  worker.addEventListener('message', (event) => {
    const line = String(event.data);
    if (line === 'readyok') readyResolve(build);
    else if (line.startsWith('info ') && engine.running && !engine.stopping) {
      const info = parseInfo(line);
      if (info) onInfo(engine.running, info);
    } else if (line.startsWith('bestmove')) finished();
  });
  send('uci');
  send(`setoption name Threads value ${build.threads}`);
  send(`setoption name Hash value ${HASH_MB}`);
  send('isready');

  function finished() {
    const ended = engine.running;
    engine.running = null;
    engine.stopping = false;
    if (ended) onDone(ended);
    if (engine.next) begin(engine.next);
  }

  /** @param {Search} search */
  function begin(search) {
    engine.next = null;
    engine.running = search;
    send(`setoption name MultiPV value ${search.multipv}`);
    const moves = search.moves.length ? ` moves ${search.moves.join(' ')}` : '';
    send(`position fen ${search.fen}${moves}`);
    send(search.movetime ? `go movetime ${search.movetime}` : 'go infinite');
  }

  return {
    ready,
    build,
    /**
     * Search `{fen, moves, multipv, movetime (ms, or null for no end)}` after any running.
     * @param {Search} search
     */
    search(search) {
      if (engine.running) {
        engine.next = search;
        stopRunning();
      } else {
        begin(search);
      }
    },
    /** Stop the running search (its `onDone` follows) and forget any waiting one. */
    stop() {
      engine.next = null;
      if (engine.running) stopRunning();
    },
    quit() {
      send('quit');
      worker.terminate();
    },
  };

  function stopRunning() {
    if (engine.stopping) return;
    engine.stopping = true;
    send('stop');
  }
}

/**
 * An `info` line as data: {depth, multipv, score: {cp} | {mate}, bound, nodes, nps, time, pv},
 * the score from the side to move's view; null for a line without a score and a pv (a
 * `currmove` report), except the `score mate 0` of a mated side, which has no pv.
 * @param {string} line
 */
export function parseInfo(line) {
  const words = line.split(' ');
  /**
   * @type {{
   *   depth: number,
   *   multipv: number,
   *   score: {cp?: number, mate?: number} | null,
   *   bound: string | null,
   *   nodes: number,
   *   nps: number,
   *   time: number,
   *   pv: string[],
   *   [field: string]: unknown,
   * }}
   */
  const info = { depth: 0, multipv: 1, score: null, bound: null, nodes: 0, nps: 0, time: 0, pv: [] };
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index];
    if (word === 'pv') {
      info.pv = words.slice(index + 1);
      break;
    }
    if (word === 'score') {
      const kind = words[index + 1];
      info.score = { [kind]: Number(words[index + 2]) };
      index += 2;
    } else if (word === 'lowerbound' || word === 'upperbound') {
      info.bound = word;
    } else if (word in info && word !== 'pv' && word !== 'score' && word !== 'bound') {
      info[word] = Number(words[index + 1]);
      index += 1;
    }
  }
  if (info.score === null) return null;
  if (info.pv.length === 0 && info.score.mate !== 0) return null;
  return info;
}
