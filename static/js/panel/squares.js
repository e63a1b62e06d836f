// @ts-check
/**
 * The board's squares for the keyboard and screen readers: 64 buttons laid over the board
 * (the pointer goes through them to chessground). One cell is in the tab order at a
 * time (a roving focus); the arrow keys, Home and End move it. When a cell gets the focus,
 * the server's words for that square (`describe`, see docs/protocol.md) become its
 * description, for the position on view.
 */
import { squaresInReadingOrder } from '../geometry.js';
import { refusalText } from '../client.js';

/** @type {Record<string, [number, number]>} */
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/**
 * `describe(square)` resolves with the server's reply ({ok, text}).
 * @param {HTMLElement} layer
 * @param {HTMLElement} description
 * @param {(square: string) => Promise<import('../client.js').Reply>} describe
 */
export function createSquareFocus(layer, description, describe) {
  /** @type {Map<string, HTMLButtonElement>} */
  const cells = new Map();
  /** @type {string | null} */
  let orientation = null;
  let current = 'e2';

  for (const square of squaresInReadingOrder('white')) {
    const cell = document.createElement('button');
    cell.type = 'button';
    cell.className = 'square-cell';
    cell.dataset.square = square;
    cell.setAttribute('aria-label', square);
    cell.setAttribute('aria-describedby', description.id);
    cell.tabIndex = square === current ? 0 : -1;
    cell.addEventListener('focus', () => explain(square));
    cell.addEventListener('keydown', (event) => move(event, square));
    cells.set(square, cell);
  }

  /** @param {string} square */
  async function explain(square) {
    current = square;
    for (const [name, cell] of cells) cell.tabIndex = name === square ? 0 : -1;
    description.textContent = '';
    const cell = /** @type {HTMLButtonElement} */ (cells.get(square));
    delete cell.dataset.description;
    const reply = await describe(square);
    if (current !== square) return; // the focus moved on meanwhile
    const text = reply.ok ? reply.text : `${square}: ${refusalText(reply)}`;
    description.textContent = text;
    cell.dataset.description = text;
  }

  /**
   * @param {KeyboardEvent} event
   * @param {string} square
   */
  function move(event, square) {
    /** @type {string | null} */
    let next = null;
    if (event.key in STEPS) {
      // Arrows follow the screen: on a board seen from black, right is towards the a-file.
      const flip = orientation === 'black' ? -1 : 1;
      const [files, ranks] = STEPS[event.key].map((step) => step * flip);
      next = String.fromCharCode(square.charCodeAt(0) + files) + (Number(square[1]) + ranks);
    } else if (event.key === 'Home' || event.key === 'End') {
      next = (event.key === 'Home' ? 'a' : 'h') + square[1];
    }
    const target = next === null ? undefined : cells.get(next);
    if (target) {
      event.preventDefault();
      target.focus();
    }
  }

  return {
    /**
     * Lay the cells out for the board's orientation.
     * @param {string} newOrientation
     */
    layout(newOrientation) {
      if (orientation === newOrientation) return;
      orientation = newOrientation;
      layer.replaceChildren(
        ...squaresInReadingOrder(newOrientation).map(
          (sq) => /** @type {HTMLButtonElement} */ (cells.get(sq)),
        ),
      );
    },
    /** The position on view changed: describe the focused square again. */
    refresh() {
      if (layer.contains(document.activeElement)) explain(current);
    },
  };
}
