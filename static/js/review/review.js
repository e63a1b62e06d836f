// @ts-check
/**
 * The review page (/review/<id>): a game's computer analysis as lichess shows it. The board
 * with the move list beside it, each move marked `?!` / `?` / `??`; per player the accuracy
 * and the count of each mark; the evaluation graph (click a point to go there); under the
 * board the ply's explanation with its squares and arrows drawn on the board; arrow keys step
 * as on the analysis board; "Learn from your mistakes" (puzzle.js); the reviewed PGN.
 *
 * The review comes whole from `GET /api/reviews/<id>` (at once, so the page shows the moves
 * and the progress bar from the first second), then from `review_watch`, whose `review_update`
 * pushes fill the graph and the marks as the engine goes. Should the socket not answer, the
 * page asks the HTTP address again every few seconds until the review is done.
 */
import { uciToMove } from '/vendor/chessground/util.js';
import { createBoard } from '../board.js';
import { announce } from '../announce.js';
import { findGame } from '../storage.js';
import { createThreatOverlay, OVERLAY_BRUSHES } from '../overlays/threats.js';
import { refusalText, requestFile, requestJson } from '../client.js';
import { bindKeys, bindStepButtons } from '../analysis/keys.js';
import { connectReview } from './socket.js';
import { mergeUpdate, mistakesOf, winPercents } from './model.js';
import { createGraph } from './graph.js';
import { renderMoves } from './moves.js';
import { engineWords, renderPlayers, renderProgress } from './summary.js';
import { renderPhases } from './phases.js';
import { ADVICE_BRUSHES, explanationShapes, renderAdvice } from './advice.js';
import { createPuzzles } from './puzzle.js';
import { openInAnalysis } from './to_analysis.js';
import { $ } from '../dom.js';
import { t } from '../i18n.js';

const root = $('#review');
const reviewId = /** @type {string} */ (root.dataset.reviewId); // the template writes it
const POLL_MS = 2000;

/** @typedef {import('/vendor/chessground/types.js').Key} Key */

/** @typedef {import('../wire.js').WireObject} Review */
/** @typedef {import('../wire.js').Color} Color */

/**
 * @type {{
 *   review: Review | null,
 *   ply: number,
 *   viewer: Color | null,
 *   watched: boolean,
 *   pollTimer: number | undefined,
 *   announcedDone: boolean,
 * }}
 */
const page = {
  review: null,
  ply: 0,
  viewer: null, // this browser's seat in the reviewed game, when it played it
  watched: false, // review_watch answered on the live connection: pushes are coming
  pollTimer: undefined,
  announcedDone: false,
};

const board = createBoard($('#board'), {
  onMove: (orig, dest) => puzzles.onMove(orig, dest),
  brushes: { ...OVERLAY_BRUSHES, ...ADVICE_BRUSHES },
  frame: $('.board-frame'),
});
const overlay = createThreatOverlay($('#threat-grid'), $('#threat-heat'), board);
const graph = createGraph($('#graph'), { onSelect: goTo });
const socket = connectReview(reviewId, {
  onReview: (review) => {
    page.watched = true;
    receive(review);
  },
  onUpdate: (update) => {
    if (page.review) receive(mergeUpdate(page.review, update));
  },
  onStatus: showConnection,
});
const puzzles = createPuzzles({
  elements: {
    box: $('#puzzle'),
    head: $('#puzzle-head'),
    prompt: $('#puzzle-prompt'),
    text: $('#puzzle-text'),
    progress: $('#puzzle-progress'),
    hint: $('#puzzle-hint'),
    solution: $('#puzzle-solution'),
    next: $('#puzzle-next'),
    close: $('#puzzle-close'),
    promotion: $('#promotion'),
  },
  board,
  overlay,
  request: socket.request,
  reviewId,
  onExit: () => {
    root.dataset.mode = 'review';
    render();
  },
});

// -- receiving -----------------------------------------------------------------------------

/** @param {Review} review */
function receive(review) {
  const first = page.review === null;
  page.review = review;
  root.dataset.status = review.status;
  if (first) renderOnce(review);
  if (review.status === 'done' && !page.announcedDone) {
    page.announcedDone = true;
    if (!first) announce($('#announcer'), t('The computer analysis is done.'));
  }
  $('#review-error').textContent =
    review.status === 'failed'
      ? t('The review failed: {why}', { why: review.error ?? t('no reason given') })
      : '';
  render();
  schedulePoll();
}

/**
 * The parts that do not change as the review goes: the title and the links.
 * @param {Review} review
 */
function renderOnce(review) {
  const { White: white = t('White'), Black: black = t('Black'), Result: result } = review.headers ?? {};
  const ending = result && result !== '*' ? `, ${result}` : '';
  const players = `${white} – ${black}`;
  $('#review-title').textContent = t('Computer analysis: {players}', { players: players + ending });
  document.title = t('Review: {players}', { players });
  $('#review-engine').textContent = t('Judged by {engine}', { engine: engineWords(review) });
  const gameId = review.source?.game;
  const link = $('#open-analysis', HTMLAnchorElement);
  link.hidden = false;
  if (gameId) link.href = `/analysis/${encodeURIComponent(gameId)}`;
  else link.addEventListener('click', (event) => openImported(event, review));
  const seat = gameId ? findGame(gameId)?.color : null;
  board.setOrientation(seat === 'black' ? 'black' : 'white');
  page.viewer = seat === 'white' || seat === 'black' ? seat : null;
}

/**
 * "Open in analysis board" of an imported PGN's review: its moves stored on the board first.
 * @param {Event} event
 * @param {Review} review
 */
async function openImported(event, review) {
  event.preventDefault();
  const opened = await openInAnalysis(review);
  if (opened.ok) window.location.href = opened.url;
  else $('#review-feedback').textContent = t('Could not open the analysis board: {reason}', { reason: refusalText(opened) });
}

/** While the review runs and no push is coming (the socket is not watching): ask again. */
function schedulePoll() {
  window.clearTimeout(page.pollTimer);
  const working = ['queued', 'running'].includes(page.review?.status);
  if (!working || (page.watched && socket.connected())) return;
  page.pollTimer = window.setTimeout(load, POLL_MS);
}

async function load() {
  const reply = await requestJson(`/api/reviews/${encodeURIComponent(reviewId)}`);
  if (!reply.ok) {
    $('#review-error').textContent = t('Could not load the review: {why}', { why: refusalText(reply) });
    root.dataset.status = 'error';
    if (reply.status !== 404) page.pollTimer = window.setTimeout(load, POLL_MS);
    return;
  }
  // A whole review from the socket may have come first; the newer one wins.
  if (page.review && progressOf(page.review) > progressOf(reply)) return;
  receive(page.review ? mergeUpdate(page.review, reply) : reply);
}

/** @param {Review} review */
const progressOf = (review) => (review.status === 'done' ? Infinity : review.progress?.done ?? 0);

// -- drawing -------------------------------------------------------------------------------

function render() {
  const { review, ply } = page;
  if (!review) return;
  root.dataset.ply = String(ply);
  renderProgress(
    {
      box: $('#review-progress'),
      label: $('#progress-label'),
      track: $('.progress-track'),
      fill: $('#progress-fill'),
    },
    review,
  );
  graph.update(review, winPercents(review));
  graph.select(ply);
  renderPlayers($('#players'), review);
  renderPhases($('#phases'), $('#accuracy-so-far'), review, ply);
  renderMoves($('#moves'), review, ply, goTo);
  renderLearn(review);
  if (puzzles.active()) return; // the puzzle has the board and the box under it
  renderAdvice(
    {
      box: $('#advice'),
      head: $('#advice-head'),
      text: $('#advice-text'),
      best: $('#advice-best'),
    },
    review,
    ply,
  );
  drawBoard(review, ply);
}

/**
 * @param {Review} review
 * @param {number} ply
 */
function drawBoard(review, ply) {
  const item = ply > 0 ? review.plies[ply - 1] : null;
  const fen = item ? item.fen : review.start_fen;
  board.show({
    fen,
    turn: fen.split(' ')[1] === 'b' ? 'black' : 'white',
    lastMove: item ? /** @type {[Key, Key]} */ (uciToMove(item.uci)) : null,
    // The check is read off the SAN's suffix, which the server wrote.
    check: Boolean(item && /[+#]$/.test(item.san)),
    dests: null,
  });
  overlay.render({ threats: null, fen, orientation: board.orientation(), mode: 'off' });
  const shapes = item?.class ? explanationShapes(item.explanation, item.best) : [];
  board.setShapes(shapes);
  root.dataset.shapes = String(shapes.length);
}

/**
 * The buttons of "learn from your mistakes", once the review is done: one per side, the
 * viewer's first (their seat in the game, when this browser played it).
 * @param {Review} review
 */
function renderLearn(review) {
  const box = $('#learn');
  box.hidden = review.status !== 'done';
  if (box.hidden || box.dataset.built === 'true') return;
  box.dataset.built = 'true';
  /** @type {Record<Color, Color>} */
  const other = { white: 'black', black: 'white' };
  /** @type {Color[]} */
  const sides = page.viewer ? [page.viewer, other[page.viewer]] : ['white', 'black'];
  box.replaceChildren(
    ...sides.map((color) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.color = color;
      const count = mistakesOf(review, color).length;
      button.textContent =
        color === page.viewer
          ? t('Learn from your mistakes ({count})', { count })
          : color === 'white'
            ? t("Learn from White's mistakes ({count})", { count })
            : t("Learn from Black's mistakes ({count})", { count });
      if (color === page.viewer) button.classList.add('primary');
      button.disabled = count === 0;
      button.addEventListener('click', () => {
        root.dataset.mode = 'puzzle';
        overlay.render({ threats: null, fen: '', orientation: board.orientation(), mode: 'off' });
        if (page.review) puzzles.start(page.review, color);
        $('#puzzle').scrollIntoView({ block: 'nearest' });
      });
      return button;
    }),
  );
}

// -- stepping ------------------------------------------------------------------------------

/** @param {number} ply */
function goTo(ply) {
  if (!page.review || puzzles.active()) return;
  page.ply = Math.max(0, Math.min(page.review.plies.length, ply));
  render();
}

function flip() {
  board.flip();
  if (page.review && !puzzles.active()) render();
}

const navigate = {
  first: () => goTo(0),
  previous: () => goTo(page.ply - 1),
  next: () => goTo(page.ply + 1),
  last: () => goTo(page.review?.plies.length ?? 0),
  forkUp: () => goTo(0),
  forkDown: () => goTo(page.review?.plies.length ?? 0),
  exitVariation: () => {},
  enterVariation: () => {},
  flip,
};
bindStepButtons(document, navigate);
$('#flip').addEventListener('click', flip);
bindKeys(document, navigate, () => puzzles.active());

// -- export --------------------------------------------------------------------------------

$('#export-pgn').addEventListener('click', async () => {
  const feedback = $('#review-feedback');
  const reply = await requestFile(`/api/reviews/${encodeURIComponent(reviewId)}/pgn`);
  if (!reply.ok) {
    feedback.textContent = t('Could not export the PGN: {why}', { why: refusalText(reply) });
    return;
  }
  const url = URL.createObjectURL(reply.blob);
  const anchor = Object.assign(document.createElement('a'), {
    href: url,
    download: `review-${reviewId}.pgn`,
  });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  URL.revokeObjectURL(url);
  feedback.textContent = t('Reviewed PGN downloaded');
});

// -- the connection ------------------------------------------------------------------------

/** @type {Record<string, string>} */
const CONNECTION_TEXT = {
  connected: t('Connected'),
  reconnecting: t('Connection lost: reconnecting…'),
};

/**
 * @param {string} status
 * @param {string} [words]
 */
function showConnection(status, words) {
  const element = $('#connection');
  element.dataset.state = status;
  element.textContent = CONNECTION_TEXT[status] ?? t('Error: {detail}', { detail: words ?? '' });
  if (status !== 'connected') page.watched = false;
  schedulePoll();
}

load();
