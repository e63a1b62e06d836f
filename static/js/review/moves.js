// @ts-check
/**
 * The review's move list, as lichess's computer analysis writes it: the moves in pairs, each
 * with its mark (`?!`, `?`, `??` in the class's colour) and, under a marked move, a line
 * saying what it was and the best move ("Blunder. Best was Qd7."). The ply on view is
 * marked; a click on a move goes there.
 */
import { CLASS_NAMES, CLASS_SYMBOLS } from './model.js';
import { moveNumber } from './graph.js';
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').WireObject} PlyItem */

/**
 * Rebuild `box` from `review`; `ply` is on view; a click calls onSelect(ply).
 * @param {HTMLElement} box
 * @param {import('../wire.js').WireObject} review
 * @param {number} ply
 * @param {(ply: number) => void} onSelect
 */
export function renderMoves(box, review, ply, onSelect) {
  const grid = document.createElement('div');
  grid.className = 'review-grid';
  const blackStarts = review.start_fen.split(' ')[1] === 'b';
  /** @type {HTMLElement | null} */
  let pending = null; // the line under a marked move, written once its row is full
  review.plies.forEach((/** @type {PlyItem} */ item, /** @type {number} */ index) => {
    const isWhite = item.color === 'white';
    if (isWhite || index === 0) {
      if (pending) grid.append(pending);
      pending = null;
      grid.append(numberCell(moveNumber(review.start_fen, item.ply)));
      if (!isWhite || (index === 0 && blackStarts)) grid.append(gap());
    }
    grid.append(moveButton(item, ply, onSelect));
    if (item.class) {
      if (pending) grid.append(pending); // two marked moves in one row: the first goes first
      pending = commentRow(item);
      if (!isWhite) {
        grid.append(pending);
        pending = null;
      }
    }
  });
  if (review.plies.length > 0 && review.plies.at(-1).color === 'white') grid.append(gap());
  if (pending) grid.append(pending);
  if (review.headers?.Result && review.headers.Result !== '*') {
    const result = document.createElement('p');
    result.className = 'review-result';
    result.textContent = review.headers.Result;
    grid.append(result);
  }
  box.replaceChildren(grid);
  const current = box.querySelector('[aria-current="true"]');
  if (current instanceof HTMLElement) scrollWithin(box, current);
}

/** @param {number} number */
function numberCell(number) {
  const cell = document.createElement('span');
  cell.className = 'review-index';
  cell.textContent = String(number);
  return cell;
}

function gap() {
  const cell = document.createElement('span');
  cell.className = 'review-move review-gap';
  cell.textContent = '…';
  return cell;
}

/**
 * @param {PlyItem} item
 * @param {number} ply
 * @param {(ply: number) => void} onSelect
 */
function moveButton(item, ply, onSelect) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'review-move';
  button.dataset.ply = String(item.ply);
  button.append(item.san);
  if (item.class) {
    button.dataset.class = item.class;
    const mark = document.createElement('span');
    mark.className = `mark ${item.class}`;
    mark.textContent = CLASS_SYMBOLS[item.class];
    button.append(mark);
  }
  const words = item.class ? `, ${CLASS_NAMES[item.class].toLowerCase()}` : '';
  const side = item.color === 'black' ? t('black') : t('white');
  button.setAttribute('aria-label', `${side} ${item.san}${words}`);
  if (item.ply === ply) button.setAttribute('aria-current', 'true');
  button.addEventListener('click', () => onSelect(item.ply));
  return button;
}

/**
 * "Mistake. Best was Nf3." under a marked move (the class's name in its colour).
 * @param {PlyItem} item
 */
function commentRow(item) {
  const row = document.createElement('p');
  row.className = 'review-comment';
  row.dataset.ply = String(item.ply);
  const name = document.createElement('span');
  name.className = `mark ${item.class}`;
  name.textContent = `${CLASS_NAMES[item.class]}.`;
  row.append(name);
  if (item.best) row.append(` ${t('Best was {move}.', { move: item.best.san })}`);
  return row;
}

/**
 * Scroll the list (not the page) so that `element` is in view (`box` is positioned, so it
 * is the element's offset parent).
 * @param {HTMLElement} box
 * @param {HTMLElement} element
 */
function scrollWithin(box, element) {
  const top = element.offsetTop;
  if (top < box.scrollTop) box.scrollTop = top - 4;
  else if (top + element.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = top + element.offsetHeight - box.clientHeight + 4;
  }
}
