// @ts-check
/**
 * Moves in words for screen readers, written into an aria-live region.
 *
 * The sentence is the server's (the state's `announcement`, "White knight from g1 to f3"),
 * sent to every receiver, assisted or not: the page words nothing itself.
 */
import { t } from './i18n.js';

/**
 * The sentence for the move of `state` (its `last_move`).
 * @param {import('./wire.js').GameState} state
 * @returns {string}
 */
export function describeLastMove(state) {
  return state.announcement;
}

/**
 * A sentence for a move whose earlier position the page never saw (only the SAN is known).
 * @param {{san: string}} move
 * @param {string} by
 */
export function describeSanOnly(move, by) {
  return by === 'black'
    ? t('Black played {move}', { move: move.san })
    : t('White played {move}', { move: move.san });
}

/**
 * Speak `text` in the aria-live `region`.
 * @param {HTMLElement} region
 * @param {string} text
 */
export function announce(region, text) {
  // Clearing first makes screen readers speak a sentence even when it repeats the last one.
  region.textContent = '';
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}
