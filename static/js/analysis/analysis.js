// @ts-check
/**
 * The analysis board page: wires the move tree, the board, the overlays, the engine, the
 * sources, the editor and the export together.
 *
 * The browser holds the tree; the server answers for a path (root FEN and moves): the facts
 * of its position (`analysis_position`: destinations, SAN of a new move, threat map, insight,
 * safety, words, opening), previews and square descriptions, and the engine's lines. A node
 * change draws the board from the node's FEN at once, starts the engine on it, then draws
 * the rest when the position's facts come (kept per node, so stepping back asks nothing).
 */
import { uciToMove } from '/vendor/chessground/util.js';
import { createBoard } from '../board.js';
import { askPromotion } from '../promotion.js';
import { announce } from '../announce.js';
import { createThreatOverlay, OVERLAY_BRUSHES } from '../overlays/threats.js';
import { createOverlayControl } from '../overlays/control.js';
import { CHANGE_BRUSHES } from '../overlays/change.js';
import { createPreview } from '../overlays/preview.js';
import { createSquareFocus } from '../panel/squares.js';
import { createTree, ROOT } from './tree.js';
import { renderTree } from './treeview.js';
import { refusalText } from '../client.js';
import { connectAnalysis } from './socket.js';
import { createEngine } from './engine.js';
import { createSources } from './sources.js';
import { createExport } from './export.js';
import { createEditor } from './editor.js';
import { bindKeys, bindStepButtons } from './keys.js';
import { renderFacts, renderGameTitle } from './facts.js';
import { createNodeOverlay } from './overlay.js';
import { reviewMainLine, reviewUrl } from '../review/request.js';
import { $, find } from '../dom.js';
import { t } from '../i18n.js';

const root = $('#analysis');

/** @typedef {import('../wire.js').Position} Position */
/** @typedef {import('../wire.js').WireObject} WireObject */
/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('/vendor/chessground/types.js').Key} Key */

/**
 * @type {{
 *   tree: import('./tree.js').AnalysisTree,
 *   currentId: string,
 *   positions: Map<string, Position>,
 *   fork: number,
 *   notice: string | null,
 *   preview: WireObject | null,
 *   menuId: string | null,
 *   steppedAt: number,
 * }}
 */
const page = {
  tree: createTree({ fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' }),
  currentId: ROOT,
  positions: new Map(), // node id -> the server's facts of its position
  fork: 0, // which child → follows at a node with several
  notice: null,
  preview: null,
  menuId: null,
  steppedAt: -Infinity, // when the node on view last changed
};
const QUICK_STEP_MS = 90;
const RETRY_MS = 1000;

const socket = connectAnalysis({
  onStatus: showConnection,
  onLines: (update) => engine.receiveServerLines(update),
});

// An evaluation kept in the tree (and so in the exported PGN's `[%eval]`) is one Stockfish
// reached at this depth or deeper, exact (not a bound): never a short look taken while
// stepping, nor our own engine's (docs/protocol.md "Evaluations in the exported PGN").
const KEPT_EVALUATION_DEPTH = 16;

/**
 * Keep Stockfish's evaluation of the node on view once it is deep enough.
 * @param {WireObject} update
 */
function recordEvaluation(update) {
  const node = page.tree.node(page.currentId);
  const best = update.lines[0];
  if (node.uci === null || node.fen !== update.fen || !best) return;
  if (update.engine !== 'stockfish' || update.depth < KEPT_EVALUATION_DEPTH || !best.exact) return;
  node.eval = best.score;
}
const request = socket.request;
const board = createBoard($('#board'), {
  onMove: playBoardMove,
  onSelect: markSafety,
  brushes: { ...OVERLAY_BRUSHES, ...CHANGE_BRUSHES },
  // The layers over the board take its rendered size, as on the game page (board.js).
  frame: /** @type {HTMLElement | null} */ ($('#board').closest('.board-frame')),
});
const overlay = createThreatOverlay($('#threat-grid'), $('#threat-heat'), board);
const overlayControl = createOverlayControl(
  $('#overlay-modes'),
  $('#overlay-density'),
  $('#overlay-note'),
  () => redrawOverlay(),
);
overlayControl.setSpectator(true);
const nodeOverlay = createNodeOverlay({
  board,
  overlay,
  control: overlayControl,
  legend: $('#change-legend'),
  root,
});
const engine = createEngine(
  {
    toggle: $('#engine-toggle'),
    status: $('#engine-status'),
    lines: $('#engine-lines'),
    bar: $('#eval-bar'),
    barFill: $('#eval-fill'),
    barText: $('#eval-text'),
    score: $('#engine-score'),
    name: $('#engine-name'),
    source: $('#engine-source'),
    multipv: $('#engine-multipv'),
    movetime: $('#engine-movetime'),
  },
  { request, onPlayLine: playLine, onUpdate: recordEvaluation },
);
const preview = createPreview($('#board'), {
  board,
  targetOf: previewTarget,
  ask: (uci) => request('analysis_preview', { ...currentPath(), uci }),
  show: (found) => {
    page.preview = found;
    redrawOverlay();
  },
  clear: () => {
    if (page.preview === null) return;
    page.preview = null;
    redrawOverlay();
  },
});
const squares = createSquareFocus($('#square-focus'), $('#square-description'), describeSquare);
const sources = createSources(
  {
    box: $('#sources'),
    text: $('#source-text'),
    load: $('#source-load'),
    file: $('#source-file'),
    list: $('#source-list'),
    error: $('#source-error'),
  },
  loadTree,
);
createExport(
  {
    annotations: $('#export-annotations'),
    download: $('#download-pgn'),
    copyPgn: $('#copy-pgn'),
    pgnText: $('#pgn-text'),
    copyFen: $('#copy-fen'),
    share: $('#share'),
    linkRow: $('#share-row'),
    link: $('#share-link'),
    feedback: $('#export-feedback'),
  },
  { tree: () => page.tree, fen: () => page.tree.node(page.currentId).fen },
);
const editor = createEditor(
  {
    board: $('#editor-board'),
    spares: { white: $('#spares-white'), black: $('#spares-black') },
    turn: $('#editor-turn'),
    castling: { K: $('#castle-K'), Q: $('#castle-Q'), k: $('#castle-k'), q: $('#castle-q') },
    enPassant: $('#editor-ep'),
    fen: $('#editor-fen'),
    analyse: $('#editor-analyse'),
    start: $('#editor-start'),
    clear: $('#editor-clear'),
    trash: $('#editor-trash'),
    error: $('#editor-error'),
  },
  {
    request,
    onAccept: (fen, position) => {
      loadTree({ fen, notice: position.notice ?? null }, { position });
      showEditor(false);
    },
  },
);

// -- the tree ------------------------------------------------------------------------------

/**
 * A new tree (from the server, or a FEN the editor had accepted with its `position`), shown
 * at its root or (`atEnd`) at the end of its main line.
 * @param {Parameters<typeof createTree>[0] & {notice?: string | null, id?: string | null}} data
 * @param {{position?: Position | null, atEnd?: boolean}} [options]
 */
function loadTree(data, { position = null, atEnd = false } = {}) {
  page.tree = createTree(data);
  page.positions.clear();
  if (position) page.positions.set(ROOT, position);
  page.notice = data.notice ?? null;
  renderGameTitle($('#game-title'), data.headers ?? {}, data.result);
  root.dataset.treeId = data.id ?? '';
  goTo(atEnd ? page.tree.end(ROOT) : ROOT);
}

const currentPath = () => page.tree.path(page.currentId);

/**
 * Show node `id`: its board at once, its facts when the server answers. Steps closer together
 * than QUICK_STEP_MS (a key held down) ask the server only for the node they stop at, so the
 * connection's rate limits are not spent on nodes passed over.
 * @param {string} id
 */
function goTo(id) {
  if (!page.tree.get(id)) return;
  page.currentId = id;
  page.fork = 0;
  page.preview = null;
  preview.reset();
  board.markSquares({});
  hideMenu();
  $('#move-error').textContent = '';
  const node = page.tree.node(id);
  root.dataset.node = id;
  root.dataset.fen = node.fen;
  const now = performance.now();
  const quick = now - page.steppedAt < QUICK_STEP_MS;
  page.steppedAt = now;
  render();
  if (!quick) {
    ask(id, now);
    return;
  }
  engine.pause();
  window.setTimeout(() => {
    if (page.currentId === id) ask(id, now);
  }, QUICK_STEP_MS);
}

/**
 * Start the engine on node `id` (changed to at `since`) and get or say its facts.
 * @param {string} id
 * @param {number} since
 */
function ask(id, since) {
  engine.follow(page.tree.path(id), page.tree.node(id).fen, since);
  const known = page.positions.get(id);
  if (known) speak(known);
  else fetchPosition(id);
}

/**
 * @param {string} id
 * @param {boolean} [retry]
 */
async function fetchPosition(id, retry = true) {
  const tree = page.tree;
  const reply = await request('analysis_position', tree.path(id));
  if (page.tree !== tree || !tree.get(id)) return; // replaced or deleted meanwhile
  if (!reply.ok) {
    if (id !== page.currentId) return;
    if (retry && reply.code === 'rate_limited') {
      // Over the connection's budget for a moment: ask once more when it has refilled.
      window.setTimeout(() => {
        if (page.currentId === id && !page.positions.has(id)) fetchPosition(id, false);
      }, RETRY_MS);
      return;
    }
    $('#move-error').textContent = refusalText(reply);
    return;
  }
  page.positions.set(id, reply.position);
  if (id === page.currentId) {
    render();
    speak(reply.position);
  }
}

/**
 * A move from the node on view: follow the child that plays it, or ask the server for it.
 * @param {string} uci
 */
async function playUci(uci) {
  $('#move-error').textContent = '';
  const from = page.currentId;
  const existing = page.tree.node(from).children.find((child) => child.uci === uci);
  if (existing) {
    goTo(existing.id);
    return true;
  }
  const added = await extend(from, [uci]);
  if (added) goTo(added);
  else board.restore();
  return added !== null;
}

/**
 * Add the moves `ucis` below node `from`, one node each (all asked for at once); the id of
 * the last, or null when the server refused one (its words shown).
 * @param {string} from
 * @param {string[]} ucis
 * @returns {Promise<string | null>}
 */
async function extend(from, ucis) {
  const tree = page.tree;
  const base = tree.path(from);
  const replies = await Promise.all(
    ucis.map((_, index) => {
      const moves = [...base.moves, ...ucis.slice(0, index + 1)];
      return request('analysis_position', { fen: base.fen, moves });
    }),
  );
  let parent = from;
  for (const reply of replies) {
    if (!reply.ok) {
      $('#move-error').textContent = refusalText(reply);
      return null;
    }
    // A tree loaded or the node deleted meanwhile: the answer is for nothing on view.
    if (page.tree !== tree || !tree.get(parent)) return null;
    const { last_move: move, fen } = reply.position;
    const node = tree.addChild(parent, { uci: move.uci, san: move.san, fen });
    page.positions.set(node.id, reply.position);
    parent = node.id;
  }
  return parent;
}

/** @param {string[]} ucis */
async function playLine(ucis) {
  const last = await extend(page.currentId, ucis);
  if (last) goTo(last);
}

/** @param {string} id */
function promote(id) {
  if (page.tree.promote(id)) render();
}

/** @param {string} id */
function remove(id) {
  if (id === ROOT) return;
  const onView = page.tree.line(page.currentId).some((node) => node.id === id);
  const parent = page.tree.remove(id);
  if (onView && parent !== null) goTo(parent);
  else render();
}

// -- drawing -------------------------------------------------------------------------------

function render() {
  const node = page.tree.node(page.currentId);
  const position = page.positions.get(page.currentId) ?? null;
  const turn = node.fen.split(' ')[1] === 'b' ? 'black' : 'white';
  board.show({
    fen: node.fen,
    turn,
    lastMove: node.uci ? /** @type {[Key, Key]} */ (uciToMove(node.uci)) : null,
    check: position?.check ?? false,
    dests: position && socket.connected() ? position.dests : null,
  });
  redrawOverlay();
  squares.layout(board.orientation());
  renderTree($('#tree'), page.tree, page.currentId, {
    onSelect: goTo,
    onMenu: showMenu,
  });
  renderFork(node);
  renderFacts(
    { opening: $('#opening'), status: $('#position-status'), notice: $('#notice') },
    position,
    page.notice,
  );
  $('#promote-variation', HTMLButtonElement).disabled = page.tree.isMainline(page.currentId);
  $('#delete-variation', HTMLButtonElement).disabled = page.currentId === ROOT;
  root.dataset.ply = String(page.tree.depth(page.currentId));
  root.dataset.ready = position ? 'true' : 'false';
  squares.refresh();
}

/**
 * The choice of next moves at a node with several (lichess's fork): ↑/↓ pick, → plays.
 * @param {TreeNode} node
 */
function renderFork(node) {
  const fork = $('#fork');
  fork.hidden = node.children.length < 2;
  fork.replaceChildren(
    ...node.children.map((child, index) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'fork-move';
      button.textContent = child.san;
      button.setAttribute('aria-pressed', String(index === page.fork));
      button.addEventListener('click', () => goTo(child.id));
      return button;
    }),
  );
}

function redrawOverlay() {
  const position = page.positions.get(page.currentId) ?? null;
  nodeOverlay.draw(position, page.tree.node(page.currentId).fen, page.preview);
}

/** @param {string} square */
function describeSquare(square) {
  return request('analysis_describe', { ...currentPath(), square });
}

/** @param {Position} position */
function speak(position) {
  if (position.announcement) announce($('#announcer'), position.announcement);
}

/** @param {string} square */
function markSafety(square) {
  nodeOverlay.markSafety(page.positions.get(page.currentId) ?? null, square);
}

/**
 * @param {string} from
 * @param {string | null} square
 */
function previewTarget(from, square) {
  return nodeOverlay.previewTarget(page.positions.get(page.currentId) ?? null, from, square);
}

// -- acting --------------------------------------------------------------------------------

/**
 * @param {string} orig
 * @param {string} dest
 */
async function playBoardMove(orig, dest) {
  const position = page.positions.get(page.currentId);
  if (!position) {
    board.restore();
    return;
  }
  let uci = `${orig}${dest}`;
  if ((position.promotions?.[orig] ?? []).includes(dest)) {
    const piece = await askPromotion($('#promotion'), position.turn);
    if (!piece) {
      board.restore();
      return;
    }
    uci += piece;
  }
  await playUci(uci);
}

/**
 * The menu of a move (right click): it acts on that move, the node on view stays.
 * @param {string} id
 * @param {number} x
 * @param {number} y
 */
function showMenu(id, x, y) {
  page.menuId = id;
  const menu = $('#tree-menu');
  menu.hidden = false;
  menu.style.left = `${x}px`;
  menu.style.top = `${y}px`;
  find(menu, '[data-action="promote"]', HTMLButtonElement).disabled = page.tree.isMainline(id);
  find(menu, 'button').focus();
}

function hideMenu() {
  $('#tree-menu').hidden = true;
  page.menuId = null;
}

$('#tree-menu').addEventListener('click', (event) => {
  const action = /** @type {Element} */ (event.target).closest('button')?.dataset.action;
  const id = page.menuId;
  hideMenu();
  if (!id) return;
  if (action === 'promote') promote(id);
  if (action === 'delete') remove(id);
});
document.addEventListener('click', (event) => {
  if (!/** @type {Element} */ (event.target).closest('#tree-menu')) hideMenu();
});
$('#tree-menu').addEventListener('keydown', (event) => {
  if (event.key === 'Escape') hideMenu();
});
$('#promote-variation').addEventListener('click', () => promote(page.currentId));
$('#delete-variation').addEventListener('click', () => remove(page.currentId));

/** @param {boolean} open */
function showEditor(open) {
  $('#editor').hidden = !open;
  $('#analysis-view').hidden = open;
  if (open) editor.load(page.tree.node(page.currentId).fen);
}
$('#open-editor').addEventListener('click', () => showEditor(true));
$('#close-editor').addEventListener('click', () => showEditor(false));
// The site menu's "Board editor" (templates/site_menu.html) is this page opened on the editor.
if (window.location.hash === '#editor') showEditor(true);

function flip() {
  board.flip();
  // White's share of the bar grows from White's side of the board, as on lichess.
  $('#eval-bar').classList.toggle('flipped', board.orientation() === 'black');
  render();
}
$('#flip').addEventListener('click', flip);

/** @type {Record<string, () => void>} */
const navigate = {
  first: () => goTo(ROOT),
  previous: () => goTo(page.tree.parentOf(page.currentId)?.id ?? ROOT),
  next: () => {
    const next = page.tree.next(page.currentId, page.fork);
    if (next) goTo(next);
  },
  last: () => goTo(page.tree.end(page.currentId)),
  /** ↑/↓ at a fork pick the move → plays; elsewhere they go to the start and the end. */
  forkUp: () => {
    if (!chooseFork(-1)) navigate.first();
  },
  forkDown: () => {
    if (!chooseFork(1)) navigate.last();
  },
  exitVariation: () => {
    const to = page.tree.exitVariation(page.currentId);
    if (to) goTo(to);
  },
  enterVariation: () => {
    const to = page.tree.enterVariation(page.currentId);
    if (to) goTo(to);
  },
  flip,
};

/** @param {number} step */
function chooseFork(step) {
  const count = page.tree.node(page.currentId).children.length;
  const next = page.fork + step;
  if (count < 2 || next < 0 || next >= count) return false;
  page.fork = next;
  renderFork(page.tree.node(page.currentId));
  return true;
}

bindStepButtons(document, navigate);
bindKeys(document, navigate, () => !$('#editor').hidden);

for (const type of ['mouseup', 'touchend']) {
  // A piece put back or dropped: its destinations' safety marks go with it (as on the game
  // page, after chessground's own handler of the same event).
  document.addEventListener(type, () => {
    window.setTimeout(() => {
      if (!board.selected()) board.markSquares({});
    }, 0);
  });
}

// The main line's computer analysis (issue 18): posted as PGN, opened at /review/<id>.
$('#review-game').addEventListener('click', async () => {
  const button = $('#review-game', HTMLButtonElement);
  button.disabled = true;
  $('#export-feedback').textContent = t('Asking for a computer analysis…');
  const reply = await reviewMainLine(page.tree);
  button.disabled = false;
  if (!reply.ok) {
    $('#export-feedback').textContent = t('Could not review this game: {why}', {
      why: refusalText(reply),
    });
    return;
  }
  window.location.href = reviewUrl(reply.id);
});

// -- the connection --------------------------------------------------------------------------

/** @type {Record<string, string>} */
const CONNECTION_TEXT = {
  connected: t('Connected'),
  reconnecting: t('Connection lost: reconnecting…'),
};
let everConnected = false;

/** @param {string} status */
function showConnection(status) {
  const element = $('#connection');
  element.dataset.state = status;
  element.textContent = CONNECTION_TEXT[status] ?? status;
  if (status !== 'connected') {
    render();
    return;
  }
  if (everConnected) {
    // The server forgot this connection's engine job; facts asked meanwhile may have failed.
    engine.restart();
    if (!page.positions.has(page.currentId)) fetchPosition(page.currentId);
  }
  everConnected = true;
  render();
}

sources.open(root.dataset);
