// @ts-check
/**
 * The move list in SAN, with the move of the position on view marked, and the buttons that
 * step back and forth through earlier positions without leaving the game.
 *
 * Move numbers start from the start FEN's move number and side to move (notation, not rules).
 */
import { t } from '../i18n.js';

/**
 * Rebuild the list in `list`; `viewPly` is the ply on view; a click calls onSelect(ply).
 * @param {HTMLElement} list
 * @param {{san: string}[]} moves
 * @param {string} startFen
 * @param {number} viewPly
 * @param {(ply: number) => void} onSelect
 */
export function renderMoves(list, moves, startFen, viewPly, onSelect) {
  list.replaceChildren();
  const [, side, , , , fullmove] = startFen.split(' ');
  const blackStarts = side === 'b';
  const firstNumber = Number(fullmove) || 1;
  /** @type {HTMLElement | null} */
  let row = null;
  moves.forEach((move, index) => {
    const slot = index + (blackStarts ? 1 : 0);
    const number = firstNumber + Math.floor(slot / 2);
    const isWhite = slot % 2 === 0;
    if (isWhite || row === null) {
      row = document.createElement('li');
      row.className = 'move-row';
      row.dataset.number = `${number}.`;
      if (!isWhite) row.append(placeholder());
      list.append(row);
    }
    const button = moveButton(move, index + 1, number, isWhite, viewPly, onSelect);
    /** @type {HTMLElement} */ (row).append(button);
  });
  list.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest' });
}

/**
 * @param {{san: string}} move
 * @param {number} ply
 * @param {number} number
 * @param {boolean} isWhite
 * @param {number} viewPly
 * @param {(ply: number) => void} onSelect
 */
function moveButton(move, ply, number, isWhite, viewPly, onSelect) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'move';
  button.textContent = move.san;
  button.dataset.ply = String(ply);
  const said = { number, move: move.san };
  button.setAttribute(
    'aria-label',
    isWhite ? t('Move {number}, white: {move}', said) : t('Move {number}, black: {move}', said),
  );
  if (ply === viewPly) button.setAttribute('aria-current', 'true');
  button.addEventListener('click', () => onSelect(ply));
  return button;
}

function placeholder() {
  const gap = document.createElement('span');
  gap.className = 'move move-gap';
  gap.textContent = '…';
  return gap;
}

/**
 * Wire the first / previous / next / latest buttons and the arrow keys to `step(where)`.
 * @param {ParentNode} root
 * @param {(where: string) => void} step
 */
export function wireStepping(root, step) {
  const actions = { first: 'first', previous: 'previous', next: 'next', last: 'last' };
  for (const [id, where] of Object.entries(actions)) {
    root.querySelector(`#step-${id}`)?.addEventListener('click', () => step(where));
  }
  document.addEventListener('keydown', (event) => {
    if (/** @type {Element} */ (event.target).closest('input, textarea, select')) return;
    /** @type {Record<string, string>} */
    const keys = { ArrowLeft: 'previous', ArrowRight: 'next', Home: 'first', End: 'last' };
    const where = keys[event.key];
    if (where) {
      event.preventDefault();
      step(where);
    }
  });
}
