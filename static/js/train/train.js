/**
 * The threat trainer's page (/train): ask the server for a drill of the chosen kind at the
 * trainee's level, collect the answer (squares clicked, moves played on the board, a count
 * on the number pad, safe or not), send it, and show the verdict square by square with the
 * threat overlay of the position; then the next drill by key or button.
 *
 * The page knows no chess: the drill's legal moves come with it (`dests`), its answer only
 * with the verdict. Ratings and the history by day are the browser's (progress.js), the
 * session's results the page's (session.js). `window.trainPage` exposes the drill on view
 * and the session for the browser tests.
 */
import { createBoard } from '../board.js';
import { createThreatOverlay, OVERLAY_BRUSHES } from '../overlays/threats.js';
import { refusalText, requestJson } from '../client.js';
import { TRAIN_BRUSHES, isMoveKind, pickedMarks, pinPairs, verdictMarks } from './marks.js';
import { createSession } from './session.js';
import { history as dayHistory, levelFor, ratingOf, record } from './progress.js';
import { createHistoryGraph } from './history.js';
import { $ } from '../dom.js';

const KIND_NAMES = {
  hanging: 'Hanging',
  checks: 'Checks',
  captures: 'Captures',
  threats: 'Threats',
  count: 'Count',
  safe: 'Safe squares',
  pins: 'Pins',
  fork: 'Forks',
  blunder: 'Blunder check',
};
const HINTS = {
  square: 'Click the squares, again to take one back; then Submit (Enter).',
  move: 'Play each move on the board (drag or click); again to take it back; then Submit.',
  pins: 'Click a pinned piece, then the piece it is pinned to; a piece clicked twice is taken back. Then Submit (Enter).',
  count: 'Choose both numbers, and who wins the exchange when it is asked; then Submit.',
  blunder: 'Is the move shown safe?',
};

const page = $('#train');
const board = createBoard($('#board'), {
  onMove: (orig, dest) => toggleMove(orig + dest),
  onSelect: (square) => toggleSquare(square),
  brushes: { ...OVERLAY_BRUSHES, ...TRAIN_BRUSHES },
  frame: document.querySelector('.board-frame'),
});
const overlay = createThreatOverlay($('#threat-grid'), $('#threat-heat'), board);
const session = createSession();
const graph = createHistoryGraph($('#history'));

let kind = new URLSearchParams(location.search).get('kind') ?? 'hanging';
let drill = null;
let verdict = null;
let answer = null;
let started = 0;
let timer = null;

function freshAnswer() {
  return {
    squares: new Set(),
    moves: new Set(),
    // pins: pinned square -> the squares of the pieces it is said to be pinned to; `choosing`
    // is the pinned piece whose target the next tap names.
    pins: new Map(),
    choosing: null,
    count: { white: null, black: null, exchange: null },
    safe: null,
  };
}

async function nextDrill() {
  const level = levelFor(ratingOf(kind));
  setState('loading');
  const reply = await requestJson(`/api/train/next?kind=${encodeURIComponent(kind)}&level=${level}`);
  if (!reply.ok) return showError(refusalText(reply));
  drill = reply.drill;
  verdict = null;
  answer = freshAnswer();
  showDrill();
  started = performance.now();
  clearInterval(timer);
  timer = setInterval(tick, 100);
  setState('asking');
}

function showDrill() {
  const blunder = drill.kind === 'blunder';
  board.setOrientation(drill.turn);
  board.show({
    fen: blunder ? drill.after : drill.fen,
    turn: blunder ? other(drill.turn) : drill.turn,
    lastMove: blunder ? [drill.move.slice(0, 2), drill.move.slice(2, 4)] : null,
    check: false,
    dests: isMoveKind(drill.kind) ? drill.dests : null,
  });
  overlay.render({ threats: null, fen: drill.fen, orientation: board.orientation(), mode: 'off' });
  $('#train-question').textContent = drill.question;
  $('#train-hint').textContent = HINTS[hintOf(drill.kind)];
  $('#train-level').textContent = `${KIND_NAMES[drill.kind]} · level ${drill.level}`;
  $('#train-rating').textContent = `rating ${ratingOf(drill.kind)}`;
  $('#train-count').hidden = drill.kind !== 'count';
  $('#train-exchange').hidden = !drill.asks_exchange;
  $('#train-yesno').hidden = !blunder;
  $('#train-result').hidden = true;
  $('#train-error').textContent = '';
  for (const key of document.querySelectorAll('.count-key, .exchange-key, .train-yesno button')) {
    key.setAttribute('aria-pressed', 'false');
  }
  drawPicks();
}

function hintOf(drillKind) {
  if (isMoveKind(drillKind)) return 'move';
  if (['count', 'blunder', 'pins'].includes(drillKind)) return drillKind;
  return 'square';
}

const other = (color) => (color === 'white' ? 'black' : 'white');

function tick() {
  $('#train-timer').textContent = ((performance.now() - started) / 1000).toFixed(1);
}

function toggleSquare(square) {
  if (!drill || verdict || !['square', 'pins'].includes(hintOf(drill.kind))) return;
  if (drill.kind === 'pins') {
    tapForPins(square);
  } else if (answer.squares.has(square)) {
    answer.squares.delete(square);
  } else {
    answer.squares.add(square);
  }
  // chessground keeps a clicked piece selected: let it go, so a second click toggles back.
  board.ground.selectSquare(null);
  drawPicks();
}

/**
 * A tap on a pins drill: a first tap names a pinned piece, the next one the piece it is pinned
 * to; a tap on a named pinned piece chooses it again (to name another target, or to take a
 * named one back), a second tap takes the piece back with its targets. An empty square only
 * ends the choosing.
 */
function tapForPins(square) {
  const { pins } = answer;
  const chosen = answer.choosing;
  if (chosen === square) {
    pins.delete(square);
    answer.choosing = null;
  } else if (!board.ground.state.pieces.has(square)) {
    answer.choosing = null;
  } else if (chosen !== null) {
    const targets = pins.get(chosen);
    if (targets.has(square)) targets.delete(square);
    else targets.add(square);
    answer.choosing = null;
  } else {
    if (!pins.has(square)) pins.set(square, new Set());
    answer.choosing = square;
  }
}

function toggleMove(key) {
  if (!drill || verdict || !isMoveKind(drill.kind)) return;
  if (answer.moves.has(key)) answer.moves.delete(key);
  else answer.moves.add(key);
  board.restore(); // the position stays as asked: moves are picked, not played
  drawPicks();
}

function drawPicks() {
  $('#train-error').textContent = '';
  const marks = pickedMarks(drill, answer);
  board.markSquares(marks.classes);
  board.setShapes(marks.shapes);
  const picked = isMoveKind(drill.kind) ? [...answer.moves] : [...answer.squares];
  const shown = hintOf(drill.kind) === 'square' || isMoveKind(drill.kind);
  $('#train-picked').textContent = shown
    ? `Your answer: ${picked.sort().join(', ') || 'none'}`
    : drill.kind === 'pins'
      ? pinsSaid()
      : '';
}

function pinsSaid() {
  const said = [...answer.pins]
    .map(([pinned, targets]) => `${pinned} → ${[...targets].join(' and ') || '?'}`)
    .sort();
  const asking = answer.choosing ? ` Now tap the piece ${answer.choosing} is pinned to.` : '';
  return `Your answer: ${said.join(', ') || 'none'}.${asking}`;
}

function answerValue() {
  if (isMoveKind(drill.kind)) return [...answer.moves];
  if (drill.kind === 'pins') return pinPairs(answer);
  if (drill.kind === 'count' && !drill.asks_exchange) {
    return { white: answer.count.white, black: answer.count.black };
  }
  if (drill.kind === 'count') return answer.count;
  if (drill.kind === 'blunder') return answer.safe;
  return [...answer.squares];
}

/** What the answer still lacks, in words, or null when it is whole. */
function missingPart() {
  if (drill.kind === 'count') {
    const { white, black, exchange } = answer.count;
    if (white === null || black === null) return 'Choose how many white and black pieces attack.';
    if (drill.asks_exchange && exchange === null) return 'Choose who wins the exchange.';
  }
  if (drill.kind === 'blunder' && answer.safe === null) return 'Say whether the move is safe.';
  if (drill.kind === 'pins') {
    const bare = [...answer.pins].find(([, targets]) => targets.size === 0);
    if (bare) return `Tap the piece ${bare[0]} is pinned to (or ${bare[0]} again to take it back).`;
  }
  return null;
}

async function submit() {
  if (!drill || verdict || page.dataset.state !== 'asking') return;
  const missing = missingPart();
  if (missing) return showError(missing);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  setState('judging');
  const reply = await requestJson('/api/train/answer', { id: drill.id, answer: answerValue() });
  if (!reply.ok) {
    setState('asking');
    return showError(refusalText(reply));
  }
  verdict = reply;
  session.add(drill.kind, verdict.correct, seconds);
  record({ kind: drill.kind, level: drill.level, correct: verdict.correct, seconds });
  showVerdict();
  showSummary();
  setState('judged');
}

function showVerdict() {
  const marks = verdictMarks(drill, verdict);
  board.markSquares(marks.classes);
  const view = verdict.overlay;
  overlay.render({
    threats: view.threats,
    xrays: view.xrays,
    pins: view.pins,
    checkedKing: view.checked_king,
    fen: drill.kind === 'blunder' ? drill.after : drill.fen,
    perspective: drill.turn,
    orientation: board.orientation(),
    mode: 'both',
    density: drill.kind === 'count' ? 'contested' : 'pieces',
    extraShapes: marks.shapes,
  });
  const said =
    drill.kind === 'count'
      ? ` ${countSaid(verdict.truth)}`
      : drill.kind === 'pins'
        ? pinsJudged(verdict)
        : '';
  $('#train-verdict').textContent = `${verdict.correct ? 'Right!' : 'Not quite.'}${said}`;
  $('#train-verdict').dataset.correct = String(verdict.correct);
  $('#train-explanation').textContent = verdict.explanation;
  $('#train-result').hidden = false;
  $('#train-streak').textContent = String(session.streak());
  $('#train-rating').textContent = `rating ${ratingOf(drill.kind)}`;
}

/** "White 2, black 1; Black wins the exchange." for a count's truth. */
function countSaid(truth) {
  const winner = { win: drill.turn, lose: other(drill.turn) }[truth.exchange];
  const exchange = winner
    ? `; ${capitalized(winner)} wins the exchange`
    : truth.exchange === 'even'
      ? '; the exchange is even'
      : '';
  return `White ${truth.white}, black ${truth.black}${exchange}.`;
}

/** " Missed: c6 → e8. Wrong: c6 → d8." for the pin pairs of a pins verdict. */
function pinsJudged(verdict) {
  const listed = (pairs) => pairs.map(([pinned, target]) => `${pinned} → ${target}`).join(', ');
  const missed = verdict.missed_targets ?? [];
  const wrong = verdict.wrong_targets ?? [];
  return (
    (missed.length ? ` Missed: ${listed(missed)}.` : '') +
    (wrong.length ? ` Wrong: ${listed(wrong)}.` : '')
  );
}

const capitalized = (word) => word[0].toUpperCase() + word.slice(1);

function showSummary() {
  const summary = session.summary();
  $('#summary-line').textContent =
    `${summary.done} drill${summary.done === 1 ? '' : 's'}, ${summary.right} right ` +
    `(${summary.accuracy} %), ${summary.seconds.toFixed(1)} s per drill, best streak ${session.best()}`;
  const rows = summary.byKind.map((entry) => {
    const row = document.createElement('tr');
    for (const text of [
      KIND_NAMES[entry.kind],
      String(entry.done),
      String(entry.right),
      `${entry.seconds.toFixed(1)} s`,
    ]) {
      row.append(Object.assign(document.createElement('td'), { textContent: text }));
    }
    return row;
  });
  $('#summary-kinds tbody').replaceChildren(...rows);
  $('#summary-kinds').hidden = rows.length === 0;
  graph.show(dayHistory());
}

function showError(message) {
  $('#train-error').textContent = message;
  if (page.dataset.state === 'loading') setState('error');
}

function setState(state) {
  page.dataset.state = state;
  $('#train-submit').hidden = state === 'judged';
  $('#train-clear').hidden = state === 'judged';
  $('#train-next').hidden = state !== 'judged' && state !== 'error';
}

function chooseKind(newKind) {
  kind = newKind;
  for (const button of document.querySelectorAll('.train-kinds button')) {
    button.setAttribute('aria-pressed', String(button.dataset.kind === kind));
  }
  nextDrill();
}

function bind() {
  for (const button of document.querySelectorAll('.train-kinds button')) {
    button.addEventListener('click', () => chooseKind(button.dataset.kind));
  }
  for (const key of document.querySelectorAll('.count-key')) {
    key.addEventListener('click', () => {
      if (verdict) return;
      answer.count[key.dataset.color] = Number(key.dataset.count);
      for (const same of document.querySelectorAll(`.count-key[data-color=${key.dataset.color}]`)) {
        same.setAttribute('aria-pressed', String(same === key));
      }
    });
  }
  for (const key of document.querySelectorAll('.exchange-key')) {
    key.addEventListener('click', () => {
      if (verdict) return;
      // The buttons name the winner; the API asks what the side to move gets.
      const winner = key.dataset.winner;
      answer.count.exchange = winner === 'even' ? 'even' : winner === drill.turn ? 'win' : 'lose';
      for (const same of document.querySelectorAll('.exchange-key')) {
        same.setAttribute('aria-pressed', String(same === key));
      }
    });
  }
  for (const button of document.querySelectorAll('.train-yesno button')) {
    button.addEventListener('click', () => {
      if (verdict) return;
      answer.safe = button.dataset.safe === 'true';
      for (const same of document.querySelectorAll('.train-yesno button')) {
        same.setAttribute('aria-pressed', String(same === button));
      }
      submit();
    });
  }
  $('#train-submit').addEventListener('click', submit);
  $('#train-clear').addEventListener('click', () => {
    if (!drill || verdict) return;
    answer = freshAnswer();
    showDrill();
  });
  $('#train-next').addEventListener('click', nextDrill);
  document.addEventListener('keydown', onKey);
}

function onKey(event) {
  if (event.target.closest('input, textarea, select')) return;
  const judged = page.dataset.state === 'judged';
  if (judged && (event.key === 'n' || event.key === 'Enter' || event.key === ' ')) {
    event.preventDefault();
    nextDrill();
  } else if (!judged && event.key === 'Enter') {
    event.preventDefault();
    submit();
  }
}

bind();
chooseKind(kind in KIND_NAMES ? kind : 'hanging');
graph.show(dayHistory());
window.trainPage = { drill: () => drill, verdict: () => verdict, session };
