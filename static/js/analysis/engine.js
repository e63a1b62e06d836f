// @ts-check
/**
 * The engine panel: an on/off switch, which engine (Stockfish in this browser, or our own on
 * the server), how many lines (1-5) and how long to think (8 s as lichess, 30 s, or until
 * stopped), the engine's name, the evaluation bar, and the best lines deepening live.
 *
 * Stockfish in a Web Worker (./browser_engine.js) is the default; where this browser cannot
 * run WebAssembly, or the visitor chooses it, the server's engine (./server_engine.js) gives
 * the lines instead. Either hands over updates of one form, drawn by ./engine_view.js. While
 * the switch is on and the tab is visible each node change starts a search of the node's
 * path; switched off or hidden, it stops. The settings are kept in localStorage. Each first
 * line of a search on screen is recorded as a User Timing measure named 'engine-first-line'
 * from the node change, for bench/analysis_page.py.
 */
import { canRunStockfish } from './stockfish.js';
import { createBrowserEngine } from './browser_engine.js';
import { createServerEngine, SERVER_MAX_MULTIPV } from './server_engine.js';
import { describeSearch, lineRow, renderScore } from './engine_view.js';
import { t } from '../i18n.js';

const SETTINGS_KEY = 'chess.analysisEngineSettings';
const SWITCH_KEY = 'chess.analysisEngine';
/** @typedef {{source: string, multipv: number, movetime: number | null}} Settings */
/** @typedef {{fen: string, moves: string[]}} Path */
/**
 * An engine either side: in this browser or on the server.
 * @typedef {{
 *   name: string,
 *   start: (path: Path, fen: string, settings: {multipv: number, movetime: number | null}) => void,
 *   stop: () => void,
 *   receive?: (update: import('../wire.js').WireObject) => void,
 *   restart?: () => void,
 * }} Engine
 */
/**
 * @typedef {object} EngineElements
 * @property {HTMLInputElement} toggle
 * @property {HTMLSelectElement} source
 * @property {HTMLSelectElement} multipv
 * @property {HTMLSelectElement} movetime
 * @property {HTMLElement} name
 * @property {HTMLElement} status
 * @property {HTMLElement} lines
 * @property {HTMLElement} bar
 * @property {HTMLElement} barFill
 * @property {HTMLElement} barText
 * @property {HTMLElement} score
 */

/** @type {Settings} */
const DEFAULTS = { source: 'browser', multipv: 3, movetime: 8000 };

/**
 * `elements`: {toggle, source, multipv, movetime (selects), name, status, lines, bar, barFill,
 * barText, score}; `request` the socket's; `onPlayLine(ucis)` plays a line's first moves from
 * the node; `onUpdate(update)` hears every update drawn.
 * @param {EngineElements} elements
 * @param {object} hooks
 * @param {(event: string, payload?: object) => Promise<import('../client.js').Reply>} hooks.request
 * @param {(ucis: string[]) => void} hooks.onPlayLine
 * @param {(update: import('../wire.js').WireObject) => void} hooks.onUpdate
 */
export function createEngine(elements, { request, onPlayLine, onUpdate }) {
  const wasm = canRunStockfish();
  /**
   * @type {{
   *   on: boolean,
   *   settings: Settings,
   *   path: Path | null,
   *   fen: string | null,
   *   startedAt: number,
   *   firstShown: boolean,
   *   engines: Record<string, Engine>,
   * }}
   */
  const panel = {
    on: localStorage.getItem(SWITCH_KEY) !== 'off',
    settings: readSettings(wasm),
    path: null, // the path analysed (or to analyse once visible)
    fen: null, // the FEN at the end of the path
    startedAt: 0,
    firstShown: false,
    engines: {}, // made when first chosen, so a visitor on the server's engine loads no WASM
  };
  const showStatus = (/** @type {string} */ text) => {
    elements.status.textContent = text;
  };
  const receive = (/** @type {import('../wire.js').WireObject} */ update) => {
    if (!panel.on || update.fen !== panel.fen) return;
    render(update);
    onUpdate(update);
  };

  /**
   * @param {string} source
   * @returns {Engine}
   */
  function engineOf(source) {
    if (!panel.engines[source]) {
      panel.engines[source] =
        source === 'browser'
          ? createBrowserEngine({ onUpdate: receive, onFailure: fallBack })
          : createServerEngine({ request, onUpdate: receive, onStatus: showStatus });
    }
    return panel.engines[source];
  }
  const current = () => engineOf(panel.settings.source);

  /**
   * Stockfish could not start here: say so and use the server's engine.
   * @param {string} message
   */
  function fallBack(message) {
    if (panel.settings.source !== 'browser') return;
    disableBrowserOption(elements.source);
    changeSettings({ source: 'server' }, false);
    showStatus(t('Stockfish cannot run in this browser ({why}): our engine on the server instead.', { why: message }));
  }

  function start() {
    if (!panel.on || !panel.path || document.hidden) return;
    panel.firstShown = false;
    showStatus(t('Analysing…'));
    const { multipv, movetime } = panel.settings;
    current().start(panel.path, panel.fen ?? '', { multipv, movetime });
  }

  function stopAll() {
    for (const engine of Object.values(panel.engines)) engine.stop();
  }

  /** @param {import('../wire.js').WireObject} update */
  function render(update) {
    elements.lines.replaceChildren(
      ...update.lines.map((/** @type {import('./browser_engine.js').Line} */ line) =>
        lineRow(line, panel.fen ?? '', onPlayLine),
      ),
    );
    if (update.lines.length > 0) showStatus(describeSearch(update));
    else if (update.outcome) showStatus(t('Checkmate: no move to analyse.'));
    else showStatus(update.done ? t('No legal move: nothing to analyse.') : t('Analysing…'));
    elements.lines.dataset.depth = String(update.depth);
    elements.lines.dataset.engine = update.engine;
    renderScore(elements, update.lines[0]?.score ?? update.outcome ?? null);
    if (!panel.firstShown && update.lines.length > 0) {
      panel.firstShown = true;
      performance.measure('engine-first-line', { start: panel.startedAt, end: performance.now() });
    }
  }

  function clear() {
    elements.lines.replaceChildren();
    delete elements.lines.dataset.depth;
    renderScore(elements, null);
  }

  function showName() {
    elements.name.textContent = current().name;
    elements.name.dataset.engine = panel.settings.source;
  }

  /**
   * New settings: kept, shown, and the search started again with them (`restart`).
   * @param {Partial<Settings>} changes
   * @param {boolean} [restart]
   */
  function changeSettings(changes, restart = true) {
    stopAll();
    Object.assign(panel.settings, changes);
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(panel.settings));
    showSettings(elements, panel.settings);
    showName();
    clear();
    panel.startedAt = performance.now();
    if (restart) start();
  }

  elements.source.addEventListener('change', () => changeSettings({ source: elements.source.value }));
  elements.multipv.addEventListener('change', () =>
    changeSettings({ multipv: Number(elements.multipv.value) }),
  );
  elements.movetime.addEventListener('change', () =>
    changeSettings({ movetime: Number(elements.movetime.value) || null }),
  );
  elements.toggle.addEventListener('change', () => switchOn(elements.toggle.checked));
  document.addEventListener('visibilitychange', () => {
    if (!panel.on) return;
    if (document.hidden) {
      stopAll();
      showStatus(t('Paused while the tab is hidden'));
    } else {
      start();
    }
  });

  /** @param {boolean} on */
  function switchOn(on) {
    panel.on = on;
    localStorage.setItem(SWITCH_KEY, on ? 'on' : 'off');
    elements.bar.hidden = !on;
    if (on) {
      panel.startedAt = performance.now();
      showName();
      start();
    } else {
      stopAll();
      clear();
      showStatus(t('Engine off'));
    }
  }

  if (!wasm) disableBrowserOption(elements.source);
  elements.toggle.checked = panel.on;
  elements.bar.hidden = !panel.on;
  showSettings(elements, panel.settings);
  if (panel.on) showName();
  else showStatus(t('Engine off'));

  return {
    /**
     * The node on view changed to `path` (its position's FEN `fen`) at `since`: analyse it.
     * @param {Path} path
     * @param {string} fen
     * @param {number} [since]
     */
    follow(path, fen, since = performance.now()) {
      panel.path = path;
      panel.fen = fen;
      panel.startedAt = since;
      clear();
      start();
    },
    /** The node is changing faster than worth analysing: stop showing the old lines. */
    pause() {
      if (!panel.on) return;
      stopAll();
      clear();
      showStatus(t('Analysing…'));
    },
    /**
     * `engine_lines` from the server.
     * @param {import('../wire.js').WireObject} update
     */
    receiveServerLines(update) {
      panel.engines.server?.receive?.(update);
    },
    /** The connection came back: the server forgot its job, so start it again. */
    restart() {
      panel.engines.server?.restart?.();
    },
  };
}

/**
 * The kept settings, checked; the server's engine where no WebAssembly runs.
 * @param {boolean} wasm
 * @returns {Settings}
 */
function readSettings(wasm) {
  /** @type {any} */
  let kept;
  try {
    kept = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') ?? {};
  } catch {
    kept = {};
  }
  const settings = { ...DEFAULTS };
  if (kept.source === 'server' || kept.source === 'browser') settings.source = kept.source;
  if (Number.isInteger(kept.multipv) && kept.multipv >= 1 && kept.multipv <= 5) {
    settings.multipv = kept.multipv;
  }
  if (kept.movetime === null || [8000, 30000].includes(kept.movetime)) {
    settings.movetime = kept.movetime;
  }
  if (!wasm) settings.source = 'server';
  return settings;
}

/**
 * @param {EngineElements} elements
 * @param {Settings} settings
 */
function showSettings(elements, settings) {
  elements.source.value = settings.source;
  elements.multipv.value = String(settings.multipv);
  elements.movetime.value = String(settings.movetime ?? 0);
  // Our engine computes at most three lines; more are Stockfish's.
  for (const option of elements.multipv.options) {
    option.disabled = settings.source === 'server' && Number(option.value) > SERVER_MAX_MULTIPV;
  }
  elements.movetime.disabled = settings.source === 'server';
}

/**
 * The browser's Stockfish is not offered where it cannot run.
 * @param {HTMLSelectElement} source
 */
function disableBrowserOption(source) {
  const option = source.querySelector('option[value="browser"]');
  if (option instanceof HTMLOptionElement) option.disabled = true;
}
