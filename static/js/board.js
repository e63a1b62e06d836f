// @ts-check
/**
 * Board view: chessground shows the position the page is looking at, and nothing else.
 *
 * It knows no rules: the pieces come from a FEN, the squares a piece may go to come from the
 * server's `dests`, and a move the player makes is handed to `onMove` for the server to judge.
 * Premoves, while the opponent is to move, use chessground's own premove geometry (as on
 * lichess) only to offer squares: the premove goes to the server, which plays it on the
 * player's turn if it is legal then. chessground writes the rendered board's size (a multiple
 * of 8 device pixels, so not always the frame's) into `---cg-width` / `---cg-height` on the
 * frame, and the page's layers over the board take that size.
 */
import { preferences } from './preferences.js';
import { Chessground } from '/vendor/chessground/chessground.min.js';

/** @typedef {import('/vendor/chessground/types.js').Key} Key */
/** @typedef {import('/vendor/chessground/types.js').Color} Color */
/**
 * A position to show.
 * @typedef {object} BoardView
 * @property {string} fen
 * @property {Color} turn
 * @property {[Key, Key] | null} [lastMove]
 * @property {boolean} [check]
 * @property {Record<string, Key[]> | null} [dests] null: the player cannot move now
 * @property {Color | null} [player] the colour whose pieces may be picked up
 */
/** @typedef {ReturnType<typeof createBoard>} Board */
/** @typedef {import('/vendor/chessground/draw.js').DrawBrushes} DrawBrushes */

/**
 * `onMove(orig, dest)` is called when the player drops or clicks a piece onto a listed target,
 * `onSelect(square)` when a piece or square is picked up or clicked, `onPremove(orig, dest)`
 * when a premove is set and `onPremove(null)` when chessground cancels it (a click elsewhere,
 * a right-click); `brushes` are the overlays' own arrow colours; `frame` gets the board's
 * rendered size as CSS variables.
 * @param {HTMLElement} element
 * @param {object} hooks
 * @param {(orig: Key, dest: Key) => void} hooks.onMove
 * @param {(square: Key) => void} [hooks.onSelect]
 * @param {(orig: Key | null, dest?: Key) => void} [hooks.onPremove]
 * @param {import('/vendor/chessground/draw.js').DrawBrushes | {}} [hooks.brushes]
 * @param {HTMLElement | null} [hooks.frame]
 */
export function createBoard(
  element,
  { onMove, onSelect = () => {}, onPremove = () => {}, brushes = {}, frame = null },
) {
  const ground = Chessground(element, {
    fen: 'start',
    orientation: 'white',
    coordinates: true,
    addDimensionsCssVarsTo: frame ?? undefined,
    movable: { free: false, color: undefined, showDests: true },
    premovable: {
      enabled: preferences().premoves, // the player's preference (preferences.js)
      showDests: true,
      castle: true,
      events: { set: (orig, dest) => onPremove(orig, dest), unset: () => onPremove(null) },
    },
    draggable: { showGhost: true },
    animation: { enabled: true, duration: 220 },
    highlight: { lastMove: true, check: true },
    drawable: { enabled: true, visible: true, brushes: /** @type {DrawBrushes} */ (brushes) },
    events: { move: (orig, dest) => onMove(orig, dest), select: (square) => onSelect(square) },
  });
  /** @type {BoardView | null} */
  let shown = null;

  return {
    /**
     * Show `view`: {fen, turn, lastMove: [from, to] or null, check: bool,
     * dests: {from: [targets]} or null (null: the player cannot move now), player: the
     * colour whose pieces may be picked up (its premoves while the other side is to move),
     * or null}.
     * @param {BoardView} view
     */
    show(view) {
      shown = view;
      const color = view.player ?? (view.dests ? view.turn : undefined);
      ground.set({
        fen: view.fen,
        turnColor: view.turn,
        lastMove: view.lastMove ?? undefined,
        check: view.check ? view.turn : false,
        movable: {
          color: color ?? undefined,
          dests: /** @type {Map<Key, Key[]>} */ (new Map(Object.entries(view.dests ?? {}))),
        },
      });
    },
    /** The premove shown, as [orig, dest], or null. */
    premove: () => ground.state.premovable.current ?? null,
    /** Take the premove off the board (chessground then calls onPremove(null)). */
    cancelPremove() {
      ground.cancelPremove();
    },
    /** Put back the last shown position (a refused or unanswered move goes back). */
    restore() {
      if (shown) this.show(shown);
    },
    orientation: () => ground.state.orientation,
    /** @param {Color} color */
    setOrientation(color) {
      if (ground.state.orientation !== color) ground.toggleOrientation();
    },
    flip() {
      ground.toggleOrientation();
    },
    /**
     * Extra classes on squares: square -> class (the safety of each destination).
     * @param {Record<string, string>} classes
     */
    markSquares(classes) {
      const custom = /** @type {Map<Key, string>} */ (new Map(Object.entries(classes)));
      ground.set({ highlight: { custom } });
    },
    /** The square of the piece picked up, or null. */
    selected: () => ground.state.selected ?? null,
    /** The square under the screen point (x, y), or null off the board. */
    /** @type {(x: number, y: number) => Key | null} */
    squareAt: (x, y) => ground.getKeyAtDomPos([x, y]) ?? null,
    /**
     * Arrows and circles drawn by the page (check, pins, hanging pieces).
     * @param {import('/vendor/chessground/draw.js').DrawShape[]} shapes
     */
    setShapes(shapes) {
      ground.setAutoShapes(shapes);
    },
    ground,
  };
}
