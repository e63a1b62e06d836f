// @ts-check
/**
 * "Learn from your mistakes": each mistake and blunder of one side replayed as a puzzle, as on
 * lichess. The position before the mistake, oriented for the mover, "Find a better move for
 * White"; the squares a piece may go to come from the server (`analysis_position`, the
 * analysis board's event), and the move goes to the server (`review_try`), which accepts it
 * when it loses less than an inaccuracy against the best move. Hints: first the threat overlay
 * of the position (the game page's overlay, fed the position's facts), then the piece to move.
 * "View the solution" plays the best move. What was done with each puzzle is kept by the
 * browser (solved.js).
 */
import { uciToMove } from '/vendor/chessground/util.js';
import { askPromotion } from '../promotion.js';
import { CLASS_NAMES, CLASS_SYMBOLS, fenBefore, mistakesOf, movesBefore } from './model.js';
import { adviceWords } from './advice.js';
import { moveNumber } from './graph.js';
import { loadProgress, saveProgress } from './solved.js';
import { refusalText } from '../client.js';
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').WireObject} Review */
/** @typedef {import('../wire.js').WireObject} PlyItem */
/** @typedef {import('../wire.js').Position} Position */
/** @typedef {import('/vendor/chessground/types.js').Key} Key */
/**
 * @typedef {object} PuzzleElements
 * @property {HTMLElement} box
 * @property {HTMLElement} head
 * @property {HTMLElement} prompt
 * @property {HTMLElement} text
 * @property {HTMLElement} progress
 * @property {HTMLButtonElement} hint
 * @property {HTMLButtonElement} solution
 * @property {HTMLElement} next
 * @property {HTMLElement} close
 * @property {HTMLElement} promotion
 */

/** @type {Record<string, string>} */
const FIND = {
  white: t('Find a better move for White'),
  black: t('Find a better move for Black'),
};

/**
 * `parts`: {elements: {box, head, prompt, text, progress, hint, solution, next, close,
 * promotion}, board, overlay (createThreatOverlay's), request(event, payload), reviewId,
 * onExit()}. Returns {start(review, color), active(), redraw()}.
 * @param {object} parts
 * @param {PuzzleElements} parts.elements
 * @param {import('../board.js').Board} parts.board
 * @param {import('../overlays/threats.js').ThreatOverlay} parts.overlay
 * @param {(event: string, payload?: object) => Promise<import('../client.js').Reply>} parts.request
 * @param {string} parts.reviewId
 * @param {() => void} parts.onExit
 */
export function createPuzzles({ elements, board, overlay, request, reviewId, onExit }) {
  /**
   * @type {{
   *   review: Review | null,
   *   color: string | null,
   *   list: PlyItem[],
   *   index: number,
   *   position: Position | null,
   *   hints: number,
   *   finished: boolean,
   *   active: boolean,
   *   token: number,
   * }}
   */
  const state = {
    review: null,
    color: null,
    list: [],
    index: 0,
    position: null, // the server's facts of the puzzle's position
    hints: 0, // 0 none, 1 the threat overlay, 2 and the piece to move
    finished: false, // this puzzle answered (accepted or solution shown)
    active: false,
    token: 0, // bumped on every new puzzle: answers for an old one are dropped
  };
  const root = elements.box;

  /** The review practised: puzzles run only once `start` gave one. */
  const reviewOf = () => /** @type {Review} */ (state.review);

  /**
   * @param {string} prompt
   * @param {string} [text]
   */
  function say(prompt, text = '') {
    elements.prompt.textContent = prompt;
    elements.text.textContent = text;
  }

  function renderProgress() {
    const progress = loadProgress(reviewId);
    const statuses = state.list.map((/** @type {PlyItem} */ item) => progress[item.ply]);
    const solved = statuses.filter((status) => status === 'solved').length;
    const failed = statuses.filter((status) => status === 'failed').length;
    const skipped = statuses.filter((status) => status === 'skipped').length;
    elements.progress.textContent =
      t('{solved} of {total} solved', { solved, total: state.list.length }) +
      (failed ? t(', {n} failed', { n: failed }) : '') +
      (skipped ? t(', {n} skipped', { n: skipped }) : '');
    root.dataset.solved = String(solved);
  }

  function current() {
    return state.list[state.index];
  }

  /** @param {string[]} [extra] moves after the puzzle's position */
  function path(extra = []) {
    const item = current();
    return {
      fen: reviewOf().start_fen,
      moves: [...movesBefore(reviewOf(), item.ply), ...extra],
    };
  }

  /** @param {number} index */
  async function show(index) {
    state.index = index;
    state.hints = 0;
    state.finished = false;
    state.position = null;
    const token = ++state.token;
    const item = current();
    const number = moveNumber(reviewOf().start_fen, item.ply);
    const dots = item.color === 'white' ? '.' : '…';
    const played = `${number}${dots} ${item.san}${CLASS_SYMBOLS[item.class]}`;
    elements.head.textContent = t('Mistake {number} of {total}', { number: index + 1, total: state.list.length });
    say(FIND[item.color], t('{move} was played here.', { move: played }));
    root.dataset.ply = String(item.ply);
    root.dataset.result = '';
    root.dataset.ready = 'false';
    elements.hint.disabled = false;
    elements.hint.textContent = t('Get a hint');
    elements.solution.disabled = false;
    board.setOrientation(item.color);
    const previous = item.ply > 1 ? reviewOf().plies[item.ply - 2].uci : null;
    board.show({
      fen: fenBefore(reviewOf(), item.ply),
      turn: item.color,
      lastMove: previous ? /** @type {[Key, Key]} */ (uciToMove(previous)) : null,
      check: false,
      dests: null,
    });
    drawOverlay();
    renderProgress();
    const reply = await request('analysis_position', path());
    if (token !== state.token) return;
    if (!reply.ok) {
      say(t('Could not load the position: {why}', { why: refusalText(reply) }));
      return;
    }
    state.position = reply.position;
    root.dataset.ready = 'true';
    root.dataset.fen = reply.position.fen;
    showPosition();
  }

  /** The puzzle's position with its destinations (the player's pieces may move). */
  function showPosition() {
    const item = current();
    const position = /** @type {Position} */ (state.position);
    const previous = item.ply > 1 ? reviewOf().plies[item.ply - 2].uci : null;
    board.show({
      fen: position.fen,
      turn: position.turn,
      lastMove: previous ? /** @type {[Key, Key]} */ (uciToMove(previous)) : null,
      check: position.check,
      dests: state.finished ? null : position.dests,
    });
    drawOverlay();
  }

  /**
   * The hints on the board: the threat overlay (hint 1), the piece to move (hint 2).
   * @param {import('../wire.js').Shape[]} [extra]
   */
  function drawOverlay(extra = []) {
    const item = current();
    const position = state.position;
    const shown = state.hints >= 1 && position && !state.finished;
    const from = item.best.uci.slice(0, 2);
    const pieceHint = state.hints >= 2 && !state.finished ? [{ orig: from, brush: 'green' }] : [];
    overlay.render({
      threats: shown ? position.threats : null,
      xrays: position?.insight?.xrays ?? null,
      pins: position?.insight?.pins ?? null,
      fen: position?.fen ?? fenBefore(reviewOf(), item.ply),
      checkedKing: position?.checked_king ?? null,
      perspective: item.color,
      orientation: board.orientation(),
      mode: shown ? 'both' : 'off',
      density: 'pieces',
      extraShapes: [...pieceHint, ...extra],
    });
    if (!shown) board.setShapes([...pieceHint, ...extra]);
    board.markSquares(pieceHint.length ? { [pieceHint[0].orig]: 'review-hint' } : {});
    root.dataset.hints = String(state.hints);
  }

  /**
   * @param {string} orig
   * @param {string} dest
   */
  async function tryMove(orig, dest) {
    if (!state.active || state.finished || !state.position) {
      board.restore();
      return;
    }
    const item = current();
    let uci = `${orig}${dest}`;
    if ((state.position.promotions?.[orig] ?? []).includes(dest)) {
      const piece = await askPromotion(elements.promotion, item.color);
      if (!piece) {
        board.restore();
        return;
      }
      uci += piece;
    }
    const token = state.token;
    say(t('Checking your move…'), elements.text.textContent);
    const reply = await request('review_try', { id: reviewId, ply: item.ply, uci });
    if (token !== state.token) return;
    if (!reply.ok) {
      board.restore();
      say(t('The move was not checked: {why}', { why: refusalText(reply) }));
      return;
    }
    if (!reply.accepted) {
      saveProgress(reviewId, item.ply, 'failed');
      renderProgress();
      root.dataset.result = 'wrong';
      say(
        t('Try again: that is not better than the move played.'),
        t('{move} was played here.', { move: item.san }),
      );
      board.restore();
      return;
    }
    saveProgress(reviewId, item.ply, 'solved');
    root.dataset.result = 'solved';
    await finish(uci, t('Good move!'));
  }

  /**
   * The puzzle answered with `uci` (the player's or the best move): show the move and why.
   * @param {string} uci
   * @param {string} prompt
   */
  async function finish(uci, prompt) {
    const item = current();
    const token = state.token;
    state.finished = true;
    elements.hint.disabled = true;
    elements.solution.disabled = true;
    const words = adviceWords(item);
    const played = `${item.san}${CLASS_SYMBOLS[item.class]}`;
    // The explanation names the move played itself ("Nf6?? leaves the queen ...").
    const text = words.text || t('{move} was a {judgement}.', { move: played, judgement: CLASS_NAMES[item.class]?.toLowerCase() ?? item.class });
    say(prompt, item.best.uci === uci ? text : `${text} ${words.best}`.trim());
    renderProgress();
    const reply = await request('analysis_position', path([uci]));
    if (token !== state.token || !reply.ok) return;
    root.dataset.fen = reply.position.fen;
    board.show({
      fen: reply.position.fen,
      turn: reply.position.turn,
      lastMove: /** @type {[Key, Key]} */ (uciToMove(uci)),
      check: reply.position.check,
      dests: null,
    });
    drawOverlay();
  }

  elements.hint.addEventListener('click', () => {
    if (!state.active || state.finished) return;
    state.hints = Math.min(2, state.hints + 1);
    elements.hint.textContent = state.hints === 1 ? t('Show the piece to move') : t('Get a hint');
    elements.hint.disabled = state.hints >= 2;
    const words = ['', t('Hint: the threats on the board'), t('Hint: move the marked piece')];
    const prompt = `${FIND[current().color]}. ${words[state.hints]}.`;
    say(prompt, elements.text.textContent);
    drawOverlay();
  });
  elements.solution.addEventListener('click', () => {
    if (!state.active || state.finished) return;
    const item = current();
    saveProgress(reviewId, item.ply, 'failed');
    root.dataset.result = 'solution';
    finish(item.best.uci, t('The solution: {move}', { move: item.best.san }));
  });
  elements.next.addEventListener('click', () => {
    if (!state.active) return;
    const item = current();
    if (!state.finished && !loadProgress(reviewId)[item.ply]) {
      saveProgress(reviewId, item.ply, 'skipped');
    }
    if (state.index + 1 < state.list.length) show(state.index + 1);
    else done();
  });
  elements.close.addEventListener('click', () => stop());

  /**
   * @param {string} [head]
   * @param {string} [words]
   */
  function done(head = t('All done'), words = t('You have been through every mistake of this side.')) {
    state.token += 1;
    state.finished = true;
    elements.head.textContent = head;
    say(words);
    elements.hint.disabled = true;
    elements.solution.disabled = true;
    renderProgress();
    root.dataset.result = 'done';
  }

  function stop() {
    state.active = false;
    state.token += 1;
    root.hidden = true;
    board.markSquares({});
    onExit();
  }

  return {
    /**
     * Begin with `color`'s first puzzle not yet answered (all answered: the first).
     * @param {Review} review
     * @param {import('../wire.js').Color} color
     */
    start(review, color) {
      state.review = review;
      state.color = color;
      state.list = mistakesOf(review, color);
      state.active = true;
      root.hidden = false;
      root.dataset.color = color;
      if (state.list.length === 0) {
        done(
          t('No mistakes to learn from'),
          color === 'white' ? t('White made no mistake or blunder.') : t('Black made no mistake or blunder.'),
        );
        return;
      }
      const progress = loadProgress(reviewId);
      const open = state.list.findIndex((/** @type {PlyItem} */ item) => !progress[item.ply]);
      show(open === -1 ? 0 : open);
    },
    active: () => state.active,
    onMove: tryMove,
    stop,
  };
}
