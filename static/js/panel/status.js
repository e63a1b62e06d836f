// @ts-check
/**
 * The status lines of the side panel: whose move it is, check, and the result with its reason.
 *
 * All of it is read from the server's state (`turn`, `check`, `status`, `outcome`, `opening`,
 * which the server sends spectators, and players once the game is over).
 */
import { find } from '../dom.js';

/** @typedef {import('../wire.js').GameState} GameState */

/** @type {Record<string, string>} */
const REASONS = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  insufficient_material: 'insufficient material',
  fivefold_repetition: 'fivefold repetition',
  seventyfive_moves: 'the seventy-five-move rule',
  threefold_repetition: 'threefold repetition',
  fifty_moves: 'the fifty-move rule',
  resignation: 'resignation',
  agreement: 'agreement',
  time_forfeit: 'time forfeit',
  abandoned: 'abandonment',
};

/** @param {GameState} state */
export function describeResult(state) {
  if (state.status === 'aborted') return 'Game aborted';
  const outcome = state.outcome;
  if (!outcome) return '';
  const reason = REASONS[outcome.termination] ?? outcome.termination;
  if (outcome.winner === null) return `Draw by ${reason} (${outcome.result})`;
  const winner = outcome.winner === 'white' ? 'White' : 'Black';
  return `${winner} wins by ${reason} (${outcome.result})`;
}

/**
 * @param {GameState} state
 * @param {string} role
 */
export function describeTurn(state, role) {
  if (state.status !== 'playing') return 'Game over';
  const side = state.turn === 'white' ? 'White' : 'Black';
  const yours = role === state.turn ? ' (your move)' : '';
  return `${side} to move${yours}`;
}

/**
 * The pending offers made by the other side, in words (for the panel and announcements).
 * @param {GameState} state
 * @param {string} role
 */
export function describeOffers(state, role) {
  /** @type {Record<string, string>} */
  const names = { draw: 'a draw', takeback: 'a takeback', rematch: 'a rematch' };
  return Object.entries(/** @type {Record<string, string | null>} */ (state.offers))
    .filter(([, by]) => by && by !== role)
    .map(([kind, by]) => `${capitalize(by)} offers ${names[kind]}`);
}

/** @param {string | null} word */
function capitalize(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : '';
}

/**
 * The opening's ECO code and name, e.g. "C70 Ruy Lopez: Morphy Defense", or ''.
 * @param {GameState} state
 */
export function describeOpening(state) {
  return state.opening ? `${state.opening.eco} ${state.opening.name}` : '';
}

/**
 * Fill the status elements (#role, #opening, #turn, #check, #result, #offers) in `root`; the
 * players' names are in the strips (panel/strips.js).
 * @param {ParentNode} root
 * @param {GameState} state
 * @param {string} role
 */
export function renderStatus(root, state, role) {
  find(root, '#turn').textContent = describeTurn(state, role);
  const check = find(root, '#check');
  check.hidden = !(state.check && state.status === 'playing');
  check.textContent = check.hidden
    ? ''
    : `${state.turn === 'white' ? 'White' : 'Black'} is in check`;
  const result = find(root, '#result');
  result.textContent = describeResult(state);
  result.hidden = result.textContent === '';
  find(root, '#role').textContent =
    role === 'spectator' ? 'You are watching' : `You play ${role}`;
  const opening = find(root, '#opening');
  opening.textContent = describeOpening(state);
  opening.hidden = opening.textContent === '';
  const offers = describeOffers(state, role);
  find(root, '#offers').textContent = offers.join('. ');
  find(root, '#offers').hidden = offers.length === 0;
}
