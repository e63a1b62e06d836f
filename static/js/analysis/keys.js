// @ts-check
/**
 * The analysis board's keys, as on lichess: ← / → the previous and next move of the line
 * (→ follows the move chosen at a fork), ↑ / ↓ choose among the next moves at a fork and
 * elsewhere go to the start and the end of the line, Home / End the start and the end,
 * Shift+← out of the variation, Shift+→ into the first variation, f flips the board.
 * Keys typed into a field, or moving the focus over the board's squares, are left alone.
 */

/** @typedef {Record<string, () => void>} Navigation the moves by name: previous, next, first... */

/** @type {Record<string, string>} */
const PLAIN = {
  ArrowLeft: 'previous',
  ArrowRight: 'next',
  ArrowUp: 'forkUp',
  ArrowDown: 'forkDown',
  Home: 'first',
  End: 'last',
  f: 'flip',
};
/** @type {Record<string, string>} */
const SHIFTED = { ArrowLeft: 'exitVariation', ArrowRight: 'enterVariation' };

/**
 * `navigate`: name -> function (the names above); `paused()` true while the editor is open.
 * @param {EventTarget} target
 * @param {Navigation} navigate
 * @param {() => boolean} paused
 */
export function bindKeys(target, navigate, paused) {
  target.addEventListener('keydown', (/** @type {Event} */ keyEvent) => {
    const event = /** @type {KeyboardEvent} */ (keyEvent);
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const field = /** @type {Element} */ (event.target).closest?.(
      'input, textarea, select, .square-focus, [role=menu]',
    );
    if (paused() || field) {
      return;
    }
    const name = (event.shiftKey ? SHIFTED : PLAIN)[event.key];
    if (!name) return;
    event.preventDefault();
    navigate[name]();
  });
}

/**
 * The step buttons under the board (`#step-first` ... `#step-last`), bound to `navigate`.
 * @param {ParentNode} root
 * @param {Navigation} navigate
 */
export function bindStepButtons(root, navigate) {
  for (const [id, where] of [
    ['#step-first', 'first'],
    ['#step-previous', 'previous'],
    ['#step-next', 'next'],
    ['#step-last', 'last'],
  ]) {
    root.querySelector(id)?.addEventListener('click', () => navigate[where]());
  }
}
