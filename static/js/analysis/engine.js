/**
 * The engine panel: an on/off switch, the evaluation bar beside the board (from White's
 * view, `#N` for a mate) and the best lines in SAN with their score and depth, deepening
 * live as the server sends `engine_lines` (docs/protocol.md).
 *
 * While the switch is on and the tab is visible, each node change starts a job for the
 * node's path (`engine_start`, which replaces the connection's previous job on the server);
 * the switch turned off or the tab hidden stops it (`engine_stop`). Lines of any job but the
 * latest are ignored. A click on a move of a line asks the page to play the line up to it.
 * Each first line of a job on screen is recorded as a User Timing measure named
 * 'engine-first-line' from the node change, for bench/analysis_page.py.
 */

import { rootPly } from './treeview.js';

const STORAGE_KEY = 'chess.analysisEngine';

/**
 * `elements`: {toggle (checkbox), status, lines, bar, barFill, barText}; `request(event,
 * payload)` the socket's; `onPlayLine(ucis)` plays the line's first moves from the node.
 */
const RESUME_MS = 3000;

export function createEngine(elements, { request, onPlayLine }) {
  const engine = {
    on: localStorage.getItem(STORAGE_KEY) !== 'off',
    path: null, // the path analysed (or to analyse once visible)
    fen: null, // the FEN at the end of the path
    job: null, // the job id of the latest engine_start's answer
    running: false, // a job was asked for and not stopped since
    asked: 0, // engine_start requests sent, so a stale answer is recognised
    startedAt: 0,
    firstShown: false,
    latest: null,
  };
  elements.toggle.checked = engine.on;

  async function start() {
    if (!engine.on || !engine.path || document.hidden) return;
    engine.asked += 1;
    const asked = engine.asked;
    engine.job = null;
    engine.running = true;
    engine.latest = null;
    engine.firstShown = false;
    const path = engine.path;
    showStatus('Analysing…');
    const reply = await request('engine_start', { fen: path.fen, moves: path.moves, multipv: 3 });
    if (asked !== engine.asked) return;
    if (reply.ok) {
      engine.job = reply.job;
    } else {
      showStatus(`Engine: ${reply.message ?? reply.error}`);
    }
  }

  function stop() {
    engine.asked += 1;
    engine.job = null;
    engine.running = false;
    request('engine_stop', {});
  }

  function receive(update) {
    if (!engine.on || !engine.running) return;
    // The job's id is known once engine_start is answered; lines that come first are taken
    // when they are for the position asked about.
    const current = engine.job === null ? update.fen === engine.fen : update.job === engine.job;
    if (!current) return;
    if (engine.job === null) engine.job = update.job;
    engine.latest = update;
    render(update);
    if (update.done && update.preempted) resumeLater(update.job);
    if (!engine.firstShown && update.lines.length > 0) {
      engine.firstShown = true;
      performance.measure('engine-first-line', { start: engine.startedAt, end: performance.now() });
    }
  }

  /** A live game's search took the worker (games come first): say so, and ask again in a
   * moment for the same node, unless the page has moved on meanwhile. */
  function resumeLater(job) {
    showStatus('Paused for a live game; resuming…');
    setTimeout(() => {
      if (engine.job === job && engine.running) start();
    }, RESUME_MS);
  }

  function render(update) {
    elements.lines.replaceChildren(...update.lines.map(lineRow));
    const best = update.lines[0]?.score ?? null;
    const seconds = update.seconds?.toFixed(1) ?? '?';
    const state = update.done ? 'done' : 'deepening';
    showStatus(
      update.lines.length === 0
        ? update.done
          ? 'No legal move: nothing to analyse.'
          : 'Analysing…'
        : `Depth ${update.depth} · ${formatNodes(update.nodes)} nodes · ${seconds} s (${state})`,
    );
    elements.lines.dataset.depth = String(update.depth);
    renderBar(best);
  }

  function lineRow(line) {
    const row = document.createElement('div');
    row.className = 'engine-line';
    row.dataset.rank = String(line.rank);
    const score = document.createElement('span');
    score.className = 'engine-score';
    score.textContent = formatScore(line.score);
    const moves = document.createElement('span');
    moves.className = 'engine-moves';
    let ply = rootPly(engine.fen);
    line.san.forEach((san, index) => {
      // Move numbers as lichess writes a line: "12. Nf3 Nc6" or "12… Nc6 13. Nf3".
      if (ply % 2 === 0 || index === 0) moves.append(moveNumber(ply));
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'engine-move';
      button.textContent = san;
      button.setAttribute('aria-label', `Play the line up to ${san}`);
      button.addEventListener('click', () => onPlayLine(line.uci.slice(0, index + 1)));
      moves.append(button);
      ply += 1;
    });
    row.append(score, moves);
    return row;
  }

  function renderBar(score) {
    const share = score === null ? 50 : whiteShare(score);
    elements.barFill.style.height = `${share}%`;
    const text = score === null ? '' : formatScore(score);
    elements.barText.textContent = text;
    elements.bar.setAttribute('aria-label', text ? `Evaluation ${text}` : 'No evaluation');
    elements.bar.dataset.score = text;
  }

  function showStatus(text) {
    elements.status.textContent = text;
  }

  function clear() {
    elements.lines.replaceChildren();
    delete elements.lines.dataset.depth;
    renderBar(null);
  }

  elements.toggle.addEventListener('change', () => {
    engine.on = elements.toggle.checked;
    localStorage.setItem(STORAGE_KEY, engine.on ? 'on' : 'off');
    elements.bar.hidden = !engine.on;
    if (engine.on) {
      engine.startedAt = performance.now();
      start();
    } else {
      stop();
      clear();
      showStatus('Engine off');
    }
  });
  document.addEventListener('visibilitychange', () => {
    if (!engine.on) return;
    if (document.hidden) {
      stop();
      showStatus('Paused while the tab is hidden');
    } else {
      start();
    }
  });
  elements.bar.hidden = !engine.on;
  if (!engine.on) showStatus('Engine off');

  return {
    /**
     * The node on view changed to `path` (its position's FEN `fen`) at `since`: analyse it.
     */
    follow(path, fen, since = performance.now()) {
      engine.path = path;
      engine.fen = fen;
      engine.startedAt = since;
      clear();
      start();
    },
    /** The node is changing faster than worth analysing: stop showing the old lines. */
    pause() {
      if (!engine.on) return;
      if (engine.running) stop();
      clear();
      showStatus('Analysing…');
    },
    receive,
    /** The connection came back: the server forgot the job, so start it again. */
    restart: start,
    isOn: () => engine.on,
  };
}

/** A score from White's view: `+0.34`, `-1.20`, `#3` (White mates), `#-3` (Black mates). */
export function formatScore(score) {
  if (score.mate !== undefined) return `#${score.mate}`;
  const pawns = score.cp / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(2)}`;
}

/** How much of the bar is White's, in percent: lichess's winning chances from centipawns. */
function whiteShare(score) {
  if (score.mate !== undefined) return score.mate > 0 ? 100 : 0;
  const chances = 2 / (1 + Math.exp(-0.00368208 * score.cp)) - 1;
  return Math.max(2, Math.min(98, 50 + 50 * chances));
}

function moveNumber(ply) {
  const number = document.createElement('span');
  number.className = 'engine-number';
  number.textContent = `${Math.floor(ply / 2) + 1}${ply % 2 === 0 ? '.' : '…'}`;
  return number;
}

function formatNodes(nodes) {
  if (nodes === undefined) return '?';
  return nodes >= 1000 ? `${Math.round(nodes / 1000)}k` : String(nodes);
}
