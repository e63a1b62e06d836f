// @ts-check
/**
 * The puzzles' page (/puzzles): ask the server for a puzzle, play the opponent's setting-up
 * move, check the solver's moves one by one against the puzzle's line (the reply played by
 * itself), and on a wrong move say so and show the threats missed: the threat overlay of the
 * position and the solution in a sentence, both from the server's lesson. Hints: the overlay
 * first, then the piece to move. After the puzzle the solution can be played through (buttons,
 * arrow keys). Three modes: rated puzzles (results posted, ratings shown), a streak (ends at
 * the first miss) and a 3-minute storm (solve as many as the clock allows).
 *
 * The page knows no chess: the legal moves, the positions of the line and their SAN come from
 * the server (`/api/puzzles/<id>/lesson`). A visitor's rating and results are the browser's
 * (progress.js), an account's the server's. `window.puzzlesPage` exposes the state for the
 * browser tests.
 */
import { createBoard } from '../board.js';
import { createThreatOverlay, OVERLAY_BRUSHES } from '../overlays/threats.js';
import { refusalText, requestJson } from '../client.js';
import { announce } from '../announce.js';
import { $ } from '../dom.js';
import { load, recordResult, rememberSeen } from './progress.js';
import { createStorm } from './storm.js';
import { renderDashboard } from './dashboard.js';
import { createSquareFocus } from '../panel/squares.js';
import { t, tn } from '../i18n.js';

/** @typedef {import('/vendor/chessground/types.js').Key} Key */
/** @typedef {import('/vendor/chessground/types.js').Color} Color */
/** @typedef {import('../wire.js').WireObject} Wire */

const SETUP_DELAY = 600; // ms before the opponent's setting-up move, so it is seen to happen
const REPLY_DELAY = 450; // ms before the opponent's reply to a right move
const STREAK_START = 900; // rating of a streak's first puzzle; each solved one adds STREAK_STEP
const STREAK_STEP = 60;

const page = $('#puzzles');
const signedIn = document.body.dataset.account !== undefined;
const board = createBoard($('#board'), {
  onMove: (orig, dest) => played(orig + dest),
  brushes: OVERLAY_BRUSHES,
  frame: /** @type {HTMLElement | null} */ (document.querySelector('.board-frame')),
});
const overlay = createThreatOverlay($('#threat-grid'), $('#threat-heat'), board);
const themeChoice = /** @type {HTMLSelectElement} */ ($('#puzzle-theme'));
const mineChoice = /** @type {HTMLInputElement | null} */ (document.getElementById('puzzle-mine'));
// The squares for the keyboard and screen readers: what stands on each, from the lesson (the
// threats are the hint's to show, not the squares' words).
const squares = createSquareFocus($('#square-focus'), $('#square-description'), async (square) => {
  const piece = lesson?.pieces?.[square];
  // The piece's words are the analysis editor's ("white knight"), in the js catalog.
  const text = piece ? t('{square}, {piece}', { square, piece: t(piece) }) : t('{square}, empty', { square });
  return { ok: true, text };
});
const storm = createStorm($('#puzzle-clock'), () => stormOver());

/** @type {Wire | null} */
let puzzle = null;
/** @type {Wire | null} */
let lesson = null; // the lesson of the step being solved
/** @type {Wire | null} */
let firstLesson = null; // the first step's: its sentence says what the puzzle is about
let step = 0; // the solver's move due, from 0
let hints = 0;
let streak = 0;
let replayAt = -1; // the position shown in the play-through (-1: the puzzle's start)
let mode = 'rated';
/** @type {Record<string, string>} */
const themeNames = {};

/** @param {string} state */
function setState(state) {
  page.dataset.state = state;
}

/** @param {string} uci @returns {[Key, Key]} */
const keys = (uci) => [/** @type {Key} */ (uci.slice(0, 2)), /** @type {Key} */ (uci.slice(2, 4))];
/** @param {string} color @returns {Color} */
const other = (color) => (color === 'white' ? 'black' : 'white');
const current = () => /** @type {Wire} */ (puzzle);
const taught = () => /** @type {Wire} */ (lesson);

/** @param {string} text */
function prompt(text) {
  $('#puzzle-prompt').textContent = text;
}

/**
 * Shown as the prompt and spoken.
 * @param {string} text
 */
function told(text) {
  prompt(text);
  announce($('#puzzle-announcer'), text);
}

/** @param {string} text */
function showError(text) {
  $('#puzzle-error').textContent = text;
}

function askedRating() {
  if (mode === 'streak') return STREAK_START + STREAK_STEP * streak;
  if (mode === 'storm') return storm.rating();
  if (signedIn) return null; // the server knows the account's
  return Math.round(load().solver?.rating ?? 1500);
}

async function nextPuzzle() {
  if (mode === 'storm' && !storm.running()) return chooseMode('storm'); // a new storm
  setState('loading');
  showError('');
  const params = new URLSearchParams();
  if (themeChoice.value) params.set('theme', themeChoice.value);
  if (mineChoice?.checked) params.set('mine', '1');
  const rating = askedRating();
  if (rating !== null) params.set('rating', String(rating));
  const recent = load().recent.slice(-100);
  if (recent.length) params.set('exclude', recent.join(','));
  const reply = await requestJson(`/api/puzzles/next?${params}`);
  if (!reply.ok) return showError(refusalText(reply));
  puzzle = reply.puzzle;
  rememberSeen(current().id);
  step = 0;
  if (!(await fetchLesson())) return;
  startPuzzle();
}

/** The lesson of `step` (its legal moves, overlay, sentence); false when refused. */
async function fetchLesson() {
  const reply = await requestJson(`/api/puzzles/${current().id}/lesson?step=${step}`);
  if (!reply.ok) {
    showError(refusalText(reply));
    return false;
  }
  lesson = reply.lesson;
  if (step === 0) firstLesson = lesson;
  return true;
}

function startPuzzle() {
  const solver = /** @type {Color} */ (taught().turn);
  hints = 0;
  replayAt = -1;
  setReplay(false);
  board.markSquares({});
  board.setOrientation(solver);
  squares.layout(solver);
  board.show({ fen: current().fen, turn: other(solver), dests: null });
  overlay.render({ threats: null, fen: current().fen, orientation: solver, mode: 'off' });
  $('#puzzle-sentence').textContent = '';
  $('#puzzle-about').textContent = mode === 'rated' ? t('Puzzle {id} · rated {rating}', { id: current().id, rating: current().rating }) : '';
  prompt(t('Watch the opponent’s move…'));
  setState('setup');
  window.setTimeout(() => {
    const setup = taught().line[0];
    showLine(0, taught().dests);
    setState('playing');
    prompt(solver === 'white' ? t('Your turn: find the best move for White.') : t('Your turn: find the best move for Black.'));
    const said =
      solver === 'white'
        ? t('Black played {move}. Find the best move for White.', { move: setup.san })
        : t('White played {move}. Find the best move for Black.', { move: setup.san });
    announce($('#puzzle-announcer'), said);
  }, SETUP_DELAY);
}

/**
 * The position after move `index` of the line, with `dests` when the solver may move.
 * @param {number} index
 * @param {Record<string, Key[]> | null} dests
 */
function showLine(index, dests) {
  const ply = taught().line[index];
  const turn = index % 2 === 0 ? taught().turn : other(taught().turn);
  board.show({ fen: ply.fen, turn, lastMove: keys(ply.uci), check: ply.check, dests, player: dests ? turn : null });
  /** @type {HTMLAnchorElement} */ ($('#puzzle-analyse')).href = `/analysis?fen=${encodeURIComponent(ply.fen)}`;
  squares.refresh();
}

/** @param {string} uci */
function played(uci) {
  if (page.dataset.state !== 'playing') return board.restore();
  const expected = current().moves[2 * step + 1];
  if (uci === expected.slice(0, 4)) return rightMove();
  return failed(uci);
}

/**
 * A move typed (SAN as the lesson lists them, or UCI): played as if on the board.
 * @param {string} text
 */
function playTyped(text) {
  const typed = text.trim();
  if (page.dataset.state !== 'playing' || !typed) return false;
  const sans = /** @type {Record<string, string>} */ (taught().sans);
  const bare = (/** @type {string} */ san) => san.replace(/[+#]$/, '');
  const found =
    sans[typed] ??
    Object.entries(sans).find(([san]) => bare(san) === bare(typed))?.[1] ??
    Object.values(sans).find((uci) => uci === typed.toLowerCase() || uci.slice(0, 4) === typed.toLowerCase());
  if (!found) {
    showError(t('{move} is not a legal move here.', { move: typed }));
    return false;
  }
  showError('');
  played(found.slice(0, 4));
  return true;
}

async function rightMove() {
  const index = 2 * step + 1;
  showLine(index, null);
  overlay.render({ threats: null, fen: taught().line[index].fen, orientation: board.orientation(), mode: 'off' });
  board.markSquares({});
  if (index === current().moves.length - 1) return solved();
  setState('reply');
  prompt(t('Best move! Keep going.'));
  announce($('#puzzle-announcer'), t('{move}: best move. Keep going.', { move: taught().line[index].san }));
  await new Promise((done) => {
    window.setTimeout(done, REPLY_DELAY);
  });
  step += 1;
  hints = 0;
  const reply = taught().line[index + 1];
  if (!(await fetchLesson())) return;
  showLine(index + 1, taught().dests);
  setState('playing');
  announce($('#puzzle-announcer'), t('The opponent played {move}. Your move.', { move: reply.san }));
}

async function solved() {
  setState('solved');
  prompt(t('Solved!'));
  $('#puzzle-sentence').textContent = firstLesson?.sentence ?? '';
  announce($('#puzzle-announcer'), t('Solved!'));
  finishPuzzle(true);
}

/**
 * A wrong move (or the solution asked for: `uci` null): the puzzle is failed; the position
 * before it is shown with its threat overlay, the solution's move as an arrow and the
 * sentence that says what it does.
 * @param {string | null} uci
 */
function failed(uci) {
  setState('failed');
  const answerArrow = { orig: keys(taught().move)[0], dest: keys(taught().move)[1], brush: 'green' };
  showLine(2 * step, null);
  board.markSquares(uci ? { [uci.slice(0, 2)]: 'puzzle-wrong', [uci.slice(2, 4)]: 'puzzle-wrong' } : {});
  showThreats([/** @type {import('../wire.js').Shape} */ (answerArrow)]);
  const sans = /** @type {Record<string, string>} */ (taught().sans);
  const tried = Object.keys(sans).find((san) => uci && sans[san].slice(0, 4) === uci) ?? uci;
  prompt(tried ? t('Wrong: {move} is not the move. Puzzle failed.', { move: tried }) : t('The solution:'));
  $('#puzzle-sentence').textContent = t('You missed {move}: {sentence}', { move: taught().san, sentence: taught().sentence });
  announce($('#puzzle-announcer'), uci ? t('Puzzle failed. {sentence}', { sentence: taught().sentence }) : taught().sentence);
  finishPuzzle(false);
}

/** @param {boolean} win */
async function finishPuzzle(win) {
  replayAt = 2 * step + (win ? 1 : 0);
  setReplay(true);
  if (mode === 'streak') return streakResult(win);
  if (mode === 'storm') return stormResult(win);
  /** @type {Record<string, unknown>} */
  const body = { win };
  const kept = load().solver;
  if (!signedIn && kept) body.solver = kept;
  const reply = await requestJson(`/api/puzzles/${current().id}/result`, body);
  if (!reply.ok) return showError(refusalText(reply));
  recordResult(current().themes, win, signedIn ? null : reply.solver);
  const { before, after } = reply.rating;
  const change = after - before;
  const signed = `${change >= 0 ? '+' : ''}${change}`;
  $('#puzzle-rating').textContent = reply.counted
    ? t('Rating {rating} ({change})', { rating: after, change: signed })
    : t('Rating {rating}', { rating: after });
  $('#puzzle-about').textContent = t('Puzzle {id} · now rated {rating}', { id: current().id, rating: reply.puzzle.rating });
  refreshDashboard();
}

/** @param {boolean} win */
function streakResult(win) {
  if (win) {
    streak += 1;
    $('#puzzle-counter').textContent = t('Streak {n}', { n: streak });
    window.setTimeout(nextPuzzle, 700);
    return;
  }
  $('#puzzle-counter').textContent = t('Streak over: {n}', { n: streak });
  prompt(tn('Streak over: {n} solved in a row. Press Next to start again.', 'Streak over: {n} solved in a row. Press Next to start again.', streak));
  streak = 0;
}

/** @param {boolean} win */
function stormResult(win) {
  storm.result(win);
  $('#puzzle-counter').textContent = t('Solved {n}', { n: storm.score() });
  if (storm.running()) window.setTimeout(() => storm.running() && nextPuzzle(), win ? 250 : 900);
}

function stormOver() {
  setState('over');
  board.show({ fen: board.ground.getFen(), turn: 'white', dests: null });
  prompt(tn('Time! {n} puzzle solved in 3 minutes.', 'Time! {n} puzzles solved in 3 minutes.', storm.score()));
  announce($('#puzzle-announcer'), tn('Time is up: {n} puzzle solved.', 'Time is up: {n} puzzles solved.', storm.score()));
}

/** @param {boolean} on */
function setReplay(on) {
  for (const id of ['#replay-first', '#replay-back', '#replay-forward', '#replay-last']) {
    /** @type {HTMLButtonElement} */ ($(id)).disabled = !on;
  }
}

/** @param {number} index -1: the puzzle's start, else after move `index` of the line */
function replay(index) {
  if (!['failed', 'solved'].includes(/** @type {string} */ (page.dataset.state)) || !lesson) return;
  const last = taught().line.length - 1;
  replayAt = Math.max(-1, Math.min(last, index));
  overlay.render({ threats: null, fen: current().fen, orientation: board.orientation(), mode: 'off' });
  board.markSquares({});
  if (replayAt === -1) {
    board.show({ fen: current().fen, turn: other(taught().turn), dests: null });
    return told(t('The puzzle’s start.'));
  }
  showLine(replayAt, null);
  told(t('Move {number} of {count}: {move}', { number: replayAt + 1, count: last + 1, move: taught().line[replayAt].san }));
}

/**
 * The threats of the position the solver faces (the lesson's overlay), both sides', with
 * `extraShapes` (the answer's arrow after a failure).
 * @param {import('../wire.js').Shape[]} extraShapes
 */
function showThreats(extraShapes) {
  const view = taught().overlay;
  overlay.render({
    threats: view.threats,
    xrays: view.xrays,
    pins: view.pins,
    checkedKing: view.checked_king,
    fen: taught().fen,
    perspective: /** @type {Color} */ (taught().turn),
    orientation: board.orientation(),
    mode: 'both',
    density: 'pieces',
    extraShapes,
  });
}

function hint() {
  if (page.dataset.state !== 'playing') return;
  hints += 1;
  if (hints === 1) {
    showThreats([]);
    prompt(t('Hint: the threats of the position are shown.'));
  } else {
    board.markSquares({ [taught().piece]: 'puzzle-hint' });
    prompt(t('Hint: move the piece on {square}.', { square: taught().piece }));
  }
  announce($('#puzzle-announcer'), /** @type {string} */ ($('#puzzle-prompt').textContent));
}

/** @param {string} chosen */
function chooseMode(chosen) {
  mode = chosen;
  page.dataset.mode = mode;
  for (const button of document.querySelectorAll('.puzzle-modes button')) {
    button.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (button).dataset.mode === mode));
  }
  streak = 0;
  $('#puzzle-counter').textContent = mode === 'rated' ? '' : mode === 'streak' ? t('Streak {n}', { n: 0 }) : t('Solved {n}', { n: 0 });
  if (mode === 'storm') storm.start();
  else storm.stop();
  nextPuzzle();
}

async function loadThemes() {
  const reply = await requestJson('/api/puzzles/themes');
  if (!reply.ok) return showError(refusalText(reply));
  themeChoice.options[0].textContent = t('Any theme ({count})', { count: reply.total });
  for (const theme of reply.themes) {
    themeNames[theme.key] = theme.name;
    if (theme.count) themeChoice.add(new Option(`${theme.name} (${theme.count})`, theme.key));
  }
}

async function refreshDashboard() {
  if (!signedIn) {
    const themes = Object.entries(load().themes).map(([key, tally]) => ({ key, name: themeNames[key] ?? key, ...tally }));
    return renderDashboard($('#dashboard'), $('#dashboard-line'), themes, load().solver?.rating ?? null);
  }
  const reply = await requestJson('/api/puzzles/dashboard');
  if (reply.ok) renderDashboard($('#dashboard'), $('#dashboard-line'), reply.themes, reply.rating);
}

/** @param {KeyboardEvent} event */
function onKey(event) {
  const target = /** @type {HTMLElement} */ (event.target);
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName) || event.ctrlKey || event.metaKey) return;
  if (target.closest('#square-focus')) return; // the arrows move between squares there
  const actions = /** @type {Record<string, () => unknown>} */ ({
    ArrowLeft: () => replay(replayAt - 1),
    ArrowRight: () => replay(replayAt + 1),
    Home: () => replay(-1),
    End: () => replay(Infinity),
    h: hint,
    n: nextPuzzle,
    s: () => page.dataset.state === 'playing' && failed(null),
  });
  const action = actions[event.key];
  if (!action) return;
  event.preventDefault();
  action();
}

$('#typed-move').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('#typed-move-input'));
  if (playTyped(input.value)) input.value = '';
});
$('#puzzle-hint').addEventListener('click', hint);
$('#puzzle-next').addEventListener('click', () => nextPuzzle());
$('#puzzle-solution').addEventListener('click', () => page.dataset.state === 'playing' && failed(null));
$('#replay-first').addEventListener('click', () => replay(-1));
$('#replay-back').addEventListener('click', () => replay(replayAt - 1));
$('#replay-forward').addEventListener('click', () => replay(replayAt + 1));
$('#replay-last').addEventListener('click', () => replay(Infinity));
for (const button of document.querySelectorAll('.puzzle-modes button')) {
  button.addEventListener('click', () => chooseMode(/** @type {string} */ (/** @type {HTMLElement} */ (button).dataset.mode)));
}
themeChoice.addEventListener('change', () => nextPuzzle());
mineChoice?.addEventListener('change', () => nextPuzzle());
document.addEventListener('keydown', onKey);

const kept = load().solver;
$('#puzzle-rating').textContent = kept && !signedIn ? t('Rating {rating}', { rating: Math.round(kept.rating) }) : '';

// @ts-expect-error: the browser tests read the page's state here
window.puzzlesPage = {
  puzzle: () => puzzle,
  lesson: () => lesson,
  step: () => step,
  mode: () => mode,
  storm,
};

loadThemes().then(refreshDashboard);
nextPuzzle();
