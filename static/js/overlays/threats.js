// @ts-check
/**
 * The threat overlay: per-square attacker/defender counts, a heat colour for who controls the
 * square, hanging pieces marked, and checks and pins drawn as arrows from the attacker.
 *
 * Everything drawn here is read from the server's threat map and insight (`state.threats`,
 * `state.insight`, see docs/protocol.md); the page computes no chess. Counts are written as
 * numbers on the square, a white badge for white and a black badge for black, so the overlay
 * does not depend on telling colours apart; the heat tint (blue for white, orange for black)
 * only repeats it. Attacks through a piece of the same colour (x-rays, batteries) are added
 * apart, as "2+1". Pin lines go pinner -> pinned -> target, solid for an absolute pin and
 * dashed for a relative one. Checks are drawn to the king's square the server names
 * (`checked_king`); whose piece stands where is read from the FEN by chessground's reader.
 */
import { read as readPieces } from '/vendor/chessground/fen.js';
import { opposite as otherColor } from '/vendor/chessground/util.js';
import { squaresInReadingOrder } from '../geometry.js';

/** @typedef {import('/vendor/chessground/types.js').Color} Color */
/** @typedef {import('/vendor/chessground/types.js').Key} Key */
/** @typedef {import('/vendor/chessground/types.js').Pieces} Pieces */
/** @typedef {import('../wire.js').Shape} Shape */
/** @typedef {{white: string[], black: string[]}} Sides squares per colour */
/** @typedef {{pinner: Key, pinned: Key, target: Key, absolute: boolean}} PinLine */
/**
 * What the overlay draws: the server's threat map and insight for one position.
 * @typedef {object} OverlayView
 * @property {import('../wire.js').WireObject | null} threats
 * @property {Record<string, Sides> | null} [xrays]
 * @property {PinLine[] | null} [pins]
 * @property {string} fen
 * @property {Key | null} [checkedKing]
 * @property {Color} [perspective] whose threats are "mine" (needed unless the mode is off)
 * @property {Color} orientation
 * @property {string} mode
 * @property {string} [density]
 * @property {Shape[]} [extraShapes]
 */
/** @typedef {ReturnType<typeof createThreatOverlay>} ThreatOverlay */

export const MODES = ['off', 'mine', 'theirs', 'both'];
// Where counts are written: squares both sides reach (the calm default), squares with a
// piece, or every square any shown side reaches.
export const DENSITIES = ['contested', 'pieces', 'all'];

/**
 * Whether `density` writes counts on a square with these attackers and x-rays.
 * @param {string} density
 * @param {Sides} attackers
 * @param {Sides} xrays
 * @param {boolean} hasPiece
 */
function isCounted(density, attackers, xrays, hasPiece) {
  if (density === 'pieces') return hasPiece;
  if (density === 'contested') {
    const reach = (/** @type {Color} */ color) => attackers[color].length + xrays[color].length > 0;
    return reach('white') && reach('black');
  }
  return true;
}

/**
 * Which colours' facts a mode shows, for a viewer looking from `perspective`.
 * @param {string} mode
 * @param {Color} perspective
 * @returns {Color[]}
 */
export function shownColors(mode, perspective) {
  if (mode === 'mine') return [perspective];
  if (mode === 'theirs') return [otherColor(perspective)];
  if (mode === 'both') return ['white', 'black'];
  return [];
}

/**
 * Draws numbers into `grid` (laid over the pieces), the heat tint into `heat` (laid under the
 * pieces, so they keep their colours) and arrows and circles onto `board`.
 * @param {HTMLElement} grid
 * @param {HTMLElement} heat
 * @param {{setShapes: (shapes: Shape[]) => void}} board
 */
export function createThreatOverlay(grid, heat, board) {
  /** @type {Map<Key, HTMLElement>} */
  const cells = new Map();
  /** @type {Map<Key, HTMLElement>} */
  const tints = new Map();
  /** @type {Color | null} */
  let orientation = null;

  /** @param {Color} newOrientation */
  function layout(newOrientation) {
    if (orientation === newOrientation) return;
    orientation = newOrientation;
    grid.replaceChildren();
    heat.replaceChildren();
    for (const square of squaresInReadingOrder(newOrientation)) {
      const cell = cells.get(square) ?? makeCell(square);
      const tint =
        tints.get(square) ?? Object.assign(document.createElement('div'), { className: 'heat-cell' });
      cells.set(square, cell);
      tints.set(square, tint);
      grid.append(cell);
      heat.append(tint);
    }
  }

  return {
    /**
     * view: {threats, xrays (or null), pins (insight pin lines, or null), fen, checkedKing
     * (the square of the king in check, or null), perspective, orientation, mode, density
     * (DENSITIES; 'all' when absent), extraShapes (drawn with the overlay's own, e.g. the last
     * move's change)}.
     * @param {OverlayView} view
     */
    render(view) {
      layout(view.orientation);
      const colors = shownColors(view.mode, /** @type {Color} */ (view.perspective));
      grid.hidden = colors.length === 0 || !view.threats;
      heat.hidden = grid.hidden;
      grid.dataset.mode = view.mode;
      grid.dataset.density = view.density ?? 'all';
      if (grid.hidden || !view.threats) {
        board.setShapes([]);
        return;
      }
      const pieces = readPieces(view.fen);
      const hanging = new Set(view.threats.hanging);
      for (const [square, cell] of cells) {
        const reach = view.threats.attackers;
        const attackers = { white: reach.white[square] ?? [], black: reach.black[square] ?? [] };
        const xrays = view.xrays?.[square] ?? { white: [], black: [] };
        const counted = isCounted(view.density ?? 'all', attackers, xrays, pieces.has(square));
        const shownHere = counted ? colors : [];
        fillCell(cell, attackers, xrays, shownHere, hangingBy(square, hanging, pieces, colors));
        const tint = /** @type {HTMLElement} */ (tints.get(square));
        tint.dataset.control = cell.dataset.control;
        tint.style.setProperty('--heat', cell.style.getPropertyValue('--heat'));
      }
      const shapes = makeShapes(view.threats, view, pieces, colors);
      board.setShapes([...shapes, ...(view.extraShapes ?? [])]);
    },
  };
}

/** @param {string} square */
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

/**
 * Whether the piece on `square` is hanging and one of the shown colours is attacking it.
 * @param {Key} square
 * @param {Set<string>} hanging
 * @param {Pieces} pieces
 * @param {Color[]} colors
 */
function hangingBy(square, hanging, pieces, colors) {
  const piece = pieces.get(square);
  return hanging.has(square) && piece !== undefined && colors.includes(otherColor(piece.color));
}

/**
 * @param {HTMLElement} cell
 * @param {Sides} attackers
 * @param {Sides} xrays
 * @param {Color[]} colors
 * @param {boolean} isHanging
 */
function fillCell(cell, attackers, xrays, colors, isHanging) {
  const white = attackers.white.length;
  const black = attackers.black.length;
  cell.dataset.white = String(white);
  cell.dataset.black = String(black);
  cell.dataset.xrayWhite = String(xrays.white.length);
  cell.dataset.xrayBlack = String(xrays.black.length);
  for (const count of /** @type {NodeListOf<HTMLElement>} */ (cell.querySelectorAll('.threat-count'))) {
    const color = /** @type {Color} */ (count.dataset.color);
    const number = color === 'white' ? white : black;
    const behind = xrays[color].length;
    const shown = colors.includes(color) && number + behind > 0;
    count.textContent = shown ? (behind > 0 ? `${number}+${behind}` : String(number)) : '';
    count.hidden = !shown;
  }
  const lead = (colors.includes('white') ? white : 0) - (colors.includes('black') ? black : 0);
  cell.dataset.control = lead > 0 ? 'white' : lead < 0 ? 'black' : 'none';
  cell.style.setProperty('--heat', String(Math.min(Math.abs(lead), 3) / 3));
  cell.classList.toggle('hanging', isHanging);
}

/**
 * Arrows from each checker of a shown colour to the king in check; each pin line of a shown
 * colour in two arrows, pinner -> pinned -> target (from the insight; without it, the threat
 * map's absolute pins); a circle on each hanging piece.
 * @param {import('../wire.js').WireObject} threats
 * @param {OverlayView} view
 * @param {Pieces} pieces
 * @param {Color[]} colors
 */
function makeShapes(threats, { pins, checkedKing }, pieces, colors) {
  /** @type {Shape[]} */
  const shapes = [];
  const colorOf = (/** @type {Key} */ square) => /** @type {Color} */ (pieces.get(square)?.color);
  for (const checker of threats.checkers) {
    if (colors.includes(colorOf(checker)) && checkedKing) {
      shapes.push({ orig: checker, dest: checkedKing, brush: 'red' });
    }
  }
  /** @type {{pinner: Key, pinned: Key, king: Key}[]} */
  const absolutePins = threats.pins;
  const lines = pins ?? absolutePins.map((pin) => ({ ...pin, target: pin.king, absolute: true }));
  for (const pin of lines) {
    if (colors.includes(colorOf(pin.pinner))) shapes.push(...pinLine(pin));
  }
  for (const square of threats.hanging) {
    if (colors.includes(otherColor(colorOf(square)))) {
      shapes.push({ orig: square, brush: 'red' });
    }
  }
  return shapes;
}

/** Brushes of the lines this overlay draws (given to chessground by board.js). */
export const OVERLAY_BRUSHES = {
  pinAbsolute: { key: 'pa', color: '#d4a000', opacity: 0.9, lineWidth: 9 },
  // Drawn dashed by app.css, which finds its lines by the arrowhead chessground names after
  // the key ('marker-end: url(#arrowhead-pr)'); the colour differs only so that the two
  // kinds can be told apart in the SVG without the style.
  pinRelative: { key: 'pr', color: '#d4a001', opacity: 0.9, lineWidth: 7 },
};

/**
 * @param {PinLine} pin
 * @returns {Shape[]}
 */
function pinLine(pin) {
  const brush = pin.absolute ? 'pinAbsolute' : 'pinRelative';
  return [
    { orig: pin.pinner, dest: pin.pinned, brush },
    { orig: pin.pinned, dest: pin.target, brush },
  ];
}
