// @ts-check
/**
 * The status lines of the side panel: whose move it is, check, and the result with its reason.
 *
 * All of it is read from the server's state (`turn`, `check`, `status`, `outcome`, `opening`,
 * which the server sends spectators, and players once the game is over).
 */
import { find } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').GameState} GameState */

/** @type {Record<string, string>} */
const REASONS = {
  checkmate: t('checkmate'),
  stalemate: t('stalemate'),
  insufficient_material: t('insufficient material'),
  fivefold_repetition: t('fivefold repetition'),
  seventyfive_moves: t('the seventy-five-move rule'),
  threefold_repetition: t('threefold repetition'),
  fifty_moves: t('the fifty-move rule'),
  resignation: t('resignation'),
  agreement: t('agreement'),
  time_forfeit: t('time forfeit'),
  abandoned: t('abandonment'),
};

/** @param {GameState} state */
export function describeResult(state) {
  if (state.status === 'aborted') return t('Game aborted');
  const outcome = state.outcome;
  if (!outcome) return '';
  const reason = REASONS[outcome.termination] ?? outcome.termination;
  const said = { reason, result: outcome.result };
  if (outcome.winner === null) return t('Draw by {reason} ({result})', said);
  return outcome.winner === 'white'
    ? t('White wins by {reason} ({result})', said)
    : t('Black wins by {reason} ({result})', said);
}

/**
 * @param {GameState} state
 * @param {string} role
 */
export function describeTurn(state, role) {
  if (state.status !== 'playing') return t('Game over');
  const yours = role === state.turn;
  if (state.turn === 'white') return yours ? t('White to move (your move)') : t('White to move');
  return yours ? t('Black to move (your move)') : t('Black to move');
}

/**
 * The pending offers made by the other side, in words (for the panel and announcements).
 * @param {GameState} state
 * @param {string} role
 */
export function describeOffers(state, role) {
  /** @type {Record<string, [string, string]>} */
  const offers = {
    draw: [t('White offers a draw'), t('Black offers a draw')],
    takeback: [t('White offers a takeback'), t('Black offers a takeback')],
    rematch: [t('White offers a rematch'), t('Black offers a rematch')],
  };
  return Object.entries(/** @type {Record<string, string | null>} */ (state.offers))
    .filter(([, by]) => by && by !== role)
    .map(([kind, by]) => offers[kind]?.[by === 'white' ? 0 : 1] ?? kind);
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
    : state.turn === 'white'
      ? t('White is in check')
      : t('Black is in check');
  const result = find(root, '#result');
  result.textContent = describeResult(state);
  result.hidden = result.textContent === '';
  find(root, '#role').textContent =
    role === 'spectator' ? t('You are watching') : role === 'white' ? t('You play white') : t('You play black');
  const opening = find(root, '#opening');
  opening.textContent = describeOpening(state);
  opening.hidden = opening.textContent === '';
  const offers = describeOffers(state, role);
  find(root, '#offers').textContent = offers.join('. ');
  find(root, '#offers').hidden = offers.length === 0;
}
