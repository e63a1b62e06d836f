// @ts-check
/**
 * The analysis board's lines from the server's engine (our own, chesscore's search) over
 * Socket.IO: `engine_start` for a path, which replaces the connection's previous job on the
 * server, `engine_stop`, and the `engine_lines` the server pushes as the search deepens
 * (docs/protocol.md). Lines of any job but the latest are ignored. A job pre-empted by a live
 * game's search (games come first) is asked for again a few seconds later.
 */
import { refusalText } from '../client.js';
import { t } from '../i18n.js';

const RESUME_MS = 3000;
// The server computes at most this many lines (server/transport/requests.py MAX_MULTIPV).
export const SERVER_MAX_MULTIPV = 3;

/** @typedef {{fen: string, moves: string[]}} Path */
/**
 * @typedef {object} EngineHooks
 * @property {(event: string, payload?: object) => Promise<import('../client.js').Reply>} request
 * @property {(update: import('../wire.js').WireObject) => void} onUpdate
 * @property {(text: string) => void} onStatus
 */

/**
 * `request(event, payload)` the socket's; `onUpdate(update)`, `onStatus(text)` to the panel.
 * @param {EngineHooks} hooks
 */
export function createServerEngine({ request, onUpdate, onStatus }) {
  /**
   * @type {{
   *   path: Path | null,
   *   fen: string | null,
   *   multipv: number,
   *   id: string | null,
   *   running: boolean,
   *   asked: number,
   * }}
   */
  const job = {
    path: null,
    fen: null,
    multipv: SERVER_MAX_MULTIPV,
    id: null, // the job id of the latest engine_start's answer
    running: false, // a job was asked for and not stopped since
    asked: 0, // engine_start requests sent, so a stale answer is recognised
  };

  async function start() {
    if (!job.path) return;
    job.asked += 1;
    const asked = job.asked;
    job.id = null;
    job.running = true;
    const payload = { fen: job.path.fen, moves: job.path.moves, multipv: job.multipv };
    const reply = await request('engine_start', payload);
    if (asked !== job.asked) return;
    if (reply.ok) job.id = reply.job;
    else onStatus(`Engine: ${refusalText(reply)}`);
  }

  /** A live game's search took the worker: say so, and ask again in a moment for the same
   * node, unless the page has moved on meanwhile. */
  /** @param {string} id */
  function resumeLater(id) {
    onStatus(t('Paused for a live game; resuming…'));
    setTimeout(() => {
      if (job.id === id && job.running) start();
    }, RESUME_MS);
  }

  return {
    name: t('Our engine, on the server'),
    /**
     * @param {Path} path
     * @param {string} fen
     * @param {{multipv: number}} settings
     */
    start(path, fen, { multipv }) {
      Object.assign(job, { path, fen, multipv: Math.min(multipv, SERVER_MAX_MULTIPV) });
      start();
    },
    stop() {
      job.asked += 1;
      job.id = null;
      if (!job.running) return;
      job.running = false;
      request('engine_stop', {});
    },
    /**
     * `engine_lines` from the server.
     * @param {import('../wire.js').WireObject} update
     */
    receive(update) {
      if (!job.running) return;
      // The job's id is known once engine_start is answered; lines that come first are taken
      // when they are for the position asked about.
      const current = job.id === null ? update.fen === job.fen : update.job === job.id;
      if (!current) return;
      if (job.id === null) job.id = update.job;
      onUpdate({ ...update, engine: 'server' });
      if (update.done && update.preempted) resumeLater(update.job);
    },
    /** The connection came back: the server forgot the job, so start it again. */
    restart() {
      if (job.running) start();
    },
  };
}
