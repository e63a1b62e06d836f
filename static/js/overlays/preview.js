// @ts-check
/**
 * Preview: while a piece is held over one of its listed destinations (dragged there, or the
 * pointer resting there after the piece was picked up by a click), ask the server what the
 * position would be after that move (`preview`, see docs/protocol.md) and show its overlay.
 *
 * One request goes out per new target square; only the answer to the latest one is shown, so
 * a slow answer for a square the pointer already left never replaces a newer one. The preview
 * ends when the piece is dropped or put back. Each round trip is recorded as a User Timing
 * measure named 'preview', so anyone can read the times with
 * `performance.getEntriesByName('preview')`.
 */

/**
 * `board`: {selected(), squareAt(x, y)}; `targetOf(from, square)` the UCI to preview for that
 * square, or null when it is not a listed destination; `ask(uci)` resolves with the server's
 * reply; `show(preview)` and `clear()` redraw.
 * @param {HTMLElement} element
 * @param {object} hooks
 * @param {{selected: () => string | null, squareAt: (x: number, y: number) => string | null}} hooks.board
 * @param {(from: string, square: string | null) => string | null} hooks.targetOf
 * @param {(uci: string) => Promise<import('../client.js').Reply>} hooks.ask
 * @param {(preview: any) => void} hooks.show
 * @param {() => void} hooks.clear
 */
export function createPreview(element, { board, targetOf, ask, show, clear }) {
  /** @type {string | null} */
  let target = null;
  let asked = 0;

  /** @param {string} uci */
  async function request(uci) {
    asked += 1;
    const number = asked;
    const start = performance.now();
    const reply = await ask(uci);
    performance.measure('preview', { start, end: performance.now() });
    if (number !== asked || target !== uci) return; // a newer square was asked for meanwhile
    if (reply.ok) show(reply.preview);
    else clear();
  }

  /** @param {string | null} uci */
  function aimAt(uci) {
    if (uci === target) return;
    target = uci;
    if (uci) request(uci);
    else clear();
  }

  /** @param {PointerEvent} event */
  function follow(event) {
    const from = board.selected();
    aimAt(from ? targetOf(from, board.squareAt(event.clientX, event.clientY)) : null);
  }

  element.addEventListener('pointermove', follow);
  // A drag goes on outside the board element too; its pointer events reach the document.
  document.addEventListener('pointermove', (event) => {
    if (target !== null && !element.contains(/** @type {Node | null} */ (event.target))) follow(event);
  });
  for (const type of ['mouseup', 'touchend']) {
    // chessground settles the drop or the click on these events; a piece no longer held ends it.
    document.addEventListener(type, () => {
      window.setTimeout(() => {
        if (!board.selected()) aimAt(null);
      }, 0);
    });
  }

  return {
    /** Forget the preview (a new state came: the position it was for is gone). */
    reset() {
      target = null;
      asked += 1;
    },
    active: () => target !== null,
  };
}
