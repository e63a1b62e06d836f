/**
 * The threat overlay: per-square attacker/defender counts, a heat colour for who controls the
 * square, hanging pieces marked, and checks and pins drawn as arrows from the attacker.
 *
 * Everything drawn here is read from the server's threat map (`state.threats`, see
 * docs/protocol.md); the page computes no chess. Counts are written as numbers on the square,
 * a white badge for white and a black badge for black, so the overlay does not depend on
 * telling colours apart; the heat tint (blue for white, orange for black) only repeats it.
 */
import { parsePlacement, squaresInReadingOrder, otherColor } from '../fen.js';

export const MODES = ['off', 'mine', 'theirs', 'both'];

/** Which colours' facts a mode shows, for a viewer looking from `perspective`. */
export function shownColors(mode, perspective) {
  if (mode === 'mine') return [perspective];
  if (mode === 'theirs') return [otherColor(perspective)];
  if (mode === 'both') return ['white', 'black'];
  return [];
}

/**
 * Draws numbers into `grid` (laid over the pieces), the heat tint into `heat` (laid under the
 * pieces, so they keep their colours) and arrows and circles onto `board`.
 */
export function createThreatOverlay(grid, heat, board) {
  const cells = new Map();
  const tints = new Map();
  let orientation = null;

  function layout(newOrientation) {
    if (orientation === newOrientation) return;
    orientation = newOrientation;
    grid.replaceChildren();
    heat.replaceChildren();
    for (const square of squaresInReadingOrder(orientation)) {
      if (!cells.has(square)) {
        cells.set(square, makeCell(square));
        tints.set(square, Object.assign(document.createElement('div'), { className: 'heat-cell' }));
      }
      grid.append(cells.get(square));
      heat.append(tints.get(square));
    }
  }

  return {
    /** view: {threats, fen, perspective, orientation, mode}. */
    render(view) {
      layout(view.orientation);
      const colors = shownColors(view.mode, view.perspective);
      grid.hidden = colors.length === 0 || !view.threats;
      heat.hidden = grid.hidden;
      grid.dataset.mode = view.mode;
      if (grid.hidden) {
        board.setShapes([]);
        return;
      }
      const pieces = parsePlacement(view.fen);
      const hanging = new Set(view.threats.hanging);
      for (const [square, cell] of cells) {
        const attackers = view.threats.squares[square] ?? { white: [], black: [] };
        fillCell(cell, attackers, colors, hangingBy(square, hanging, pieces, colors));
        tints.get(square).dataset.control = cell.dataset.control;
        tints.get(square).style.setProperty('--heat', cell.style.getPropertyValue('--heat'));
      }
      board.setShapes(makeShapes(view.threats, pieces, colors));
    },
  };
}

function makeCell(square) {
  const cell = document.createElement('div');
  cell.className = 'threat-cell';
  cell.dataset.square = square;
  for (const color of ['white', 'black']) {
    const count = document.createElement('span');
    count.className = `threat-count ${color}`;
    count.dataset.color = color;
    cell.append(count);
  }
  return cell;
}

/** Whether the piece on `square` is hanging and one of the shown colours is attacking it. */
function hangingBy(square, hanging, pieces, colors) {
  const piece = pieces.get(square);
  return hanging.has(square) && piece !== undefined && colors.includes(otherColor(piece.color));
}

function fillCell(cell, attackers, colors, isHanging) {
  const white = attackers.white.length;
  const black = attackers.black.length;
  cell.dataset.white = String(white);
  cell.dataset.black = String(black);
  for (const count of cell.querySelectorAll('.threat-count')) {
    const number = count.dataset.color === 'white' ? white : black;
    const shown = colors.includes(count.dataset.color) && number > 0;
    count.textContent = shown ? String(number) : '';
    count.hidden = !shown;
  }
  const lead = (colors.includes('white') ? white : 0) - (colors.includes('black') ? black : 0);
  cell.dataset.control = lead > 0 ? 'white' : lead < 0 ? 'black' : 'none';
  cell.style.setProperty('--heat', String(Math.min(Math.abs(lead), 3) / 3));
  cell.classList.toggle('hanging', isHanging);
}

/** Arrows from each checker and pinner of a shown colour; a circle on each hanging piece. */
function makeShapes(threats, pieces, colors) {
  const shapes = [];
  const colorOf = (square) => pieces.get(square)?.color;
  for (const checker of threats.checkers) {
    const king = findKing(pieces, otherColor(colorOf(checker)));
    if (colors.includes(colorOf(checker)) && king) {
      shapes.push({ orig: checker, dest: king, brush: 'red' });
    }
  }
  for (const pin of threats.pins) {
    if (colors.includes(colorOf(pin.pinner))) {
      shapes.push({ orig: pin.pinner, dest: pin.pinned, brush: 'yellow' });
    }
  }
  for (const square of threats.hanging) {
    if (colors.includes(otherColor(colorOf(square)))) {
      shapes.push({ orig: square, brush: 'red' });
    }
  }
  return shapes;
}

function findKing(pieces, color) {
  for (const [square, piece] of pieces) {
    if (piece.role === 'king' && piece.color === color) return square;
  }
  return null;
}
