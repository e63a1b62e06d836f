// @ts-check
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
import { $, all } from '../dom.js';
import { t, tn } from '../i18n.js';

/** @type {Record<string, string>} */
const KIND_NAMES = {
  hanging: t('Hanging'),
  checks: t('Checks'),
  captures: t('Captures'),
  threats: t('Threats'),
  count: t('Count'),
  safe: t('Safe squares'),
  pins: t('Pins'),
  fork: t('Forks'),
  blunder: t('Blunder check'),
};
/** @type {Record<string, string>} */
const HINTS = {
  square: t('Click the squares, again to take one back; then Submit (Enter).'),
  move: t('Play each move on the board (drag or click); again to take it back; then Submit.'),
  pins: t(
    'Click a pinned piece, then the piece it is pinned to; a piece clicked twice is taken back. Then Submit (Enter).',
  ),
  count: t('Choose both numbers, and who wins the exchange when it is asked; then Submit.'),
  blunder: t('Is the move shown safe?'),
};

const page = $('#train');
const board = createBoard($('#board'), {
  onMove: (orig, dest) => toggleMove(orig + dest),
  onSelect: (square) => toggleSquare(square),
  brushes: { ...OVERLAY_BRUSHES, ...TRAIN_BRUSHES },
  frame: /** @type {HTMLElement | null} */ (document.querySelector('.board-frame')),
});
const overlay = createThreatOverlay($('#threat-grid'), $('#threat-heat'), board);
const session = createSession();
const graph = createHistoryGraph($('#history'));

let kind = new URLSearchParams(location.search).get('kind') ?? 'hanging';
/** @typedef {import('../wire.js').WireObject} Drill a drill as the server gives it */
/** @typedef {import('../wire.js').WireObject} Verdict the server's judgement of an answer */
/** @typedef {ReturnType<typeof freshAnswer>} Answer */
/**
 * A count's answer: the attackers of each colour, and what the side to move gets.
 * @typedef {{
 *   white: number | null,
 *   black: number | null,
 *   exchange: string | null,
 *   [color: string]: number | string | null,
 * }} Count
 */
/** @typedef {import('/vendor/chessground/types.js').Key} Key */

/** @type {Drill | null} */
let drill = null;
/** @type {Verdict | null} */
let verdict = null;
/** @type {Answer} */
let answer = freshAnswer();
let started = 0;
/** @type {ReturnType<typeof setInterval> | undefined} */
let timer;

/** The drill asked: the functions below run only once one has come. */
const asked = () => /** @type {Drill} */ (drill);

function freshAnswer() {
  return {
    squares: /** @type {Set<string>} */ (new Set()),
    moves: /** @type {Set<string>} */ (new Set()),
    // pins: pinned square -> the squares of the pieces it is said to be pinned to; `choosing`
    // is the pinned piece whose target the next tap names.
    pins: /** @type {Map<string, Set<string>>} */ (new Map()),
    choosing: /** @type {string | null} */ (null),
    count: /** @type {Count} */ ({ white: null, black: null, exchange: null }),
    safe: /** @type {boolean | null} */ (null),
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
  const blunder = asked().kind === 'blunder';
  const move = asked().move;
  board.setOrientation(asked().turn);
  board.show({
    fen: blunder ? asked().after : asked().fen,
    turn: blunder ? other(asked().turn) : asked().turn,
    lastMove: blunder ? /** @type {[Key, Key]} */ ([move.slice(0, 2), move.slice(2, 4)]) : null,
    check: false,
    dests: isMoveKind(asked().kind) ? asked().dests : null,
  });
  overlay.render({ threats: null, fen: asked().fen, orientation: board.orientation(), mode: 'off' });
  $('#train-question').textContent = asked().question;
  $('#train-hint').textContent = HINTS[hintOf(asked().kind)];
  $('#train-level').textContent = t('{kind} · level {level}', {
    kind: KIND_NAMES[asked().kind],
    level: asked().level,
  });
  $('#train-rating').textContent = t('rating {rating}', { rating: ratingOf(asked().kind) });
  $('#train-count').hidden = asked().kind !== 'count';
  $('#train-exchange').hidden = !asked().asks_exchange;
  $('#train-yesno').hidden = !blunder;
  $('#train-result').hidden = true;
  $('#train-error').textContent = '';
  for (const key of document.querySelectorAll('.count-key, .exchange-key, .train-yesno button')) {
    key.setAttribute('aria-pressed', 'false');
  }
  drawPicks();
}

/** @param {string} drillKind */
function hintOf(drillKind) {
  if (isMoveKind(drillKind)) return 'move';
  if (['count', 'blunder', 'pins'].includes(drillKind)) return drillKind;
  return 'square';
}

/** @type {(color: import('../wire.js').Color) => import('../wire.js').Color} */
const other = (color) => (color === 'white' ? 'black' : 'white');

function tick() {
  $('#train-timer').textContent = ((performance.now() - started) / 1000).toFixed(1);
}

/** @param {string} square */
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
 * @param {string} square
 */
function tapForPins(square) {
  const { pins } = answer;
  const chosen = answer.choosing;
  if (chosen === square) {
    pins.delete(square);
    answer.choosing = null;
  } else if (!board.ground.state.pieces.has(/** @type {Key} */ (square))) {
    answer.choosing = null;
  } else if (chosen !== null) {
    const targets = /** @type {Set<string>} */ (pins.get(chosen));
    if (targets.has(square)) targets.delete(square);
    else targets.add(square);
    answer.choosing = null;
  } else {
    if (!pins.has(square)) pins.set(square, new Set());
    answer.choosing = square;
  }
}

/** @param {string} key */
function toggleMove(key) {
  if (!drill || verdict || !isMoveKind(drill.kind)) return;
  if (answer.moves.has(key)) answer.moves.delete(key);
  else answer.moves.add(key);
  board.restore(); // the position stays as asked: moves are picked, not played
  drawPicks();
}

function drawPicks() {
  $('#train-error').textContent = '';
  const marks = pickedMarks(asked(), answer);
  board.markSquares(marks.classes);
  board.setShapes(marks.shapes);
  const picked = isMoveKind(asked().kind) ? [...answer.moves] : [...answer.squares];
  const shown = hintOf(asked().kind) === 'square' || isMoveKind(asked().kind);
  $('#train-picked').textContent = shown
    ? t('Your answer: {answer}', { answer: picked.sort().join(', ') || t('none') })
    : asked().kind === 'pins'
      ? pinsSaid()
      : '';
}

function pinsSaid() {
  const said = [...answer.pins]
    .map(([pinned, targets]) => `${pinned} → ${[...targets].join(t(' and ')) || '?'}`)
    .sort();
  const asking = answer.choosing
    ? ` ${t('Now tap the piece {square} is pinned to.', { square: answer.choosing })}`
    : '';
  return `${t('Your answer: {answer}.', { answer: said.join(', ') || t('none') })}${asking}`;
}

function answerValue() {
  if (isMoveKind(asked().kind)) return [...answer.moves];
  if (asked().kind === 'pins') return pinPairs(answer);
  if (asked().kind === 'count' && !asked().asks_exchange) {
    return { white: answer.count.white, black: answer.count.black };
  }
  if (asked().kind === 'count') return answer.count;
  if (asked().kind === 'blunder') return answer.safe;
  return [...answer.squares];
}

/** What the answer still lacks, in words, or null when it is whole. */
function missingPart() {
  if (asked().kind === 'count') {
    const { white, black, exchange } = answer.count;
    if (white === null || black === null) return t('Choose how many white and black pieces attack.');
    if (asked().asks_exchange && exchange === null) return t('Choose who wins the exchange.');
  }
  if (asked().kind === 'blunder' && answer.safe === null) return t('Say whether the move is safe.');
  if (asked().kind === 'pins') {
    const bare = [...answer.pins].find(([, targets]) => targets.size === 0);
    if (bare) {
      return t('Tap the piece {square} is pinned to (or {square} again to take it back).', {
        square: bare[0],
      });
    }
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
  const reply = await requestJson('/api/train/answer', { id: asked().id, answer: answerValue() });
  if (!reply.ok) {
    setState('asking');
    return showError(refusalText(reply));
  }
  verdict = reply;
  session.add(asked().kind, verdict.correct, seconds);
  record({ kind: asked().kind, level: asked().level, correct: verdict.correct, seconds });
  showVerdict();
  showSummary();
  setState('judged');
}

function showVerdict() {
  const judgement = /** @type {Verdict} */ (verdict);
  const marks = verdictMarks(asked(), judgement);
  board.markSquares(marks.classes);
  const view = judgement.overlay;
  overlay.render({
    threats: view.threats,
    xrays: view.xrays,
    pins: view.pins,
    checkedKing: view.checked_king,
    fen: asked().kind === 'blunder' ? asked().after : asked().fen,
    perspective: asked().turn,
    orientation: board.orientation(),
    mode: 'both',
    density: asked().kind === 'count' ? 'contested' : 'pieces',
    extraShapes: marks.shapes,
  });
  const said =
    asked().kind === 'count'
      ? ` ${countSaid(judgement.truth)}`
      : asked().kind === 'pins'
        ? pinsJudged(judgement)
        : '';
  $('#train-verdict').textContent = `${judgement.correct ? t('Right!') : t('Not quite.')}${said}`;
  $('#train-verdict').dataset.correct = String(judgement.correct);
  $('#train-explanation').textContent = judgement.explanation;
  $('#train-result').hidden = false;
  $('#train-streak').textContent = String(session.streak());
  $('#train-rating').textContent = t('rating {rating}', { rating: ratingOf(asked().kind) });
}

/**
 * "White 2, black 1; Black wins the exchange." for a count's truth.
 * @param {{white: number, black: number, exchange: string}} truth
 */
function countSaid(truth) {
  /** @type {Record<string, string>} */
  const winners = { win: asked().turn, lose: other(asked().turn) };
  const winner = winners[truth.exchange];
  const counts = { white: truth.white, black: truth.black };
  if (winner === 'white') return t('White {white}, black {black}; White wins the exchange.', counts);
  if (winner === 'black') return t('White {white}, black {black}; Black wins the exchange.', counts);
  if (truth.exchange === 'even') {
    return t('White {white}, black {black}; the exchange is even.', counts);
  }
  return t('White {white}, black {black}.', counts);
}

/**
 * " Missed: c6 → e8. Wrong: c6 → d8." for the pin pairs of a pins verdict.
 * @param {Verdict} verdict
 */
function pinsJudged(verdict) {
  const listed = (/** @type {[string, string][]} */ pairs) =>
    pairs.map(([pinned, target]) => `${pinned} → ${target}`).join(', ');
  const missed = verdict.missed_targets ?? [];
  const wrong = verdict.wrong_targets ?? [];
  return (
    (missed.length ? ` ${t('Missed: {pins}.', { pins: listed(missed) })}` : '') +
    (wrong.length ? ` ${t('Wrong: {pins}.', { pins: listed(wrong) })}` : '')
  );
}

function showSummary() {
  const summary = session.summary();
  $('#summary-line').textContent = tn(
    '{n} drill, {right} right ({accuracy} %), {seconds} s per drill, best streak {streak}',
    '{n} drills, {right} right ({accuracy} %), {seconds} s per drill, best streak {streak}',
    summary.done,
    {
      right: summary.right,
      accuracy: summary.accuracy,
      seconds: summary.seconds.toFixed(1),
      streak: session.best(),
    },
  );
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

/** @param {string} message */
function showError(message) {
  $('#train-error').textContent = message;
  if (page.dataset.state === 'loading') setState('error');
}

/** @param {string} state */
function setState(state) {
  page.dataset.state = state;
  $('#train-submit').hidden = state === 'judged';
  $('#train-clear').hidden = state === 'judged';
  $('#train-next').hidden = state !== 'judged' && state !== 'error';
}

/** @param {string} newKind */
function chooseKind(newKind) {
  kind = newKind;
  for (const button of all('.train-kinds button')) {
    button.setAttribute('aria-pressed', String(button.dataset.kind === kind));
  }
  nextDrill();
}

function bind() {
  for (const button of all('.train-kinds button')) {
    button.addEventListener('click', () => chooseKind(button.dataset.kind ?? 'hanging'));
  }
  for (const key of all('.count-key')) {
    key.addEventListener('click', () => {
      if (verdict) return;
      answer.count[key.dataset.color ?? ''] = Number(key.dataset.count);
      for (const same of document.querySelectorAll(`.count-key[data-color=${key.dataset.color}]`)) {
        same.setAttribute('aria-pressed', String(same === key));
      }
    });
  }
  for (const key of all('.exchange-key')) {
    key.addEventListener('click', () => {
      if (verdict) return;
      // The buttons name the winner; the API asks what the side to move gets.
      const winner = key.dataset.winner;
      answer.count.exchange = winner === 'even' ? 'even' : winner === asked().turn ? 'win' : 'lose';
      for (const same of document.querySelectorAll('.exchange-key')) {
        same.setAttribute('aria-pressed', String(same === key));
      }
    });
  }
  for (const button of all('.train-yesno button')) {
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

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (/** @type {Element} */ (event.target).closest('input, textarea, select')) return;
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
Object.assign(window, { trainPage: { drill: () => drill, verdict: () => verdict, session } });
