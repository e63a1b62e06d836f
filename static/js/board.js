/**
 * Board view: chessground shows the position the page is looking at, and nothing else.
 *
 * It knows no rules: the pieces come from a FEN, the squares a piece may go to come from the
 * server's `dests`, and a move the player makes is handed to `onMove` for the server to judge.
 * Premoves are off because the page must never offer a move the server did not list.
 */
import { Chessground } from '/vendor/chessground/chessground.min.js';

/**
 * `onMove(orig, dest)` is called when the player drops or clicks a piece onto a listed target,
 * `onSelect(square)` when a piece or square is picked up or clicked; `brushes` are the
 * overlays' own arrow colours.
 */
export function createBoard(element, { onMove, onSelect = () => {}, brushes = {} }) {
  const ground = Chessground(element, {
    fen: 'start',
    orientation: 'white',
    coordinates: true,
    movable: { free: false, color: undefined, showDests: true },
    premovable: { enabled: false },
    draggable: { showGhost: true },
    animation: { enabled: true, duration: 220 },
    highlight: { lastMove: true, check: true },
    drawable: { enabled: true, visible: true, brushes },
    events: { move: (orig, dest) => onMove(orig, dest), select: (square) => onSelect(square) },
  });
  let shown = null;

  return {
    /**
     * Show `view`: {fen, turn, lastMove: [from, to] or null, check: bool,
     * dests: {from: [targets]} or null (null: the player cannot move now)}.
     */
    show(view) {
      shown = view;
      ground.set({
        fen: view.fen,
        turnColor: view.turn,
        lastMove: view.lastMove ?? undefined,
        check: view.check ? view.turn : false,
        movable: {
          color: view.dests ? view.turn : undefined,
          dests: new Map(Object.entries(view.dests ?? {})),
        },
      });
    },
    /** Put back the last shown position (a refused or unanswered move goes back). */
    restore() {
      if (shown) this.show(shown);
    },
    orientation: () => ground.state.orientation,
    setOrientation(color) {
      if (ground.state.orientation !== color) ground.toggleOrientation();
    },
    flip() {
      ground.toggleOrientation();
    },
    /** Extra classes on squares: square -> class (the safety of each destination). */
    markSquares(classes) {
      ground.set({ highlight: { custom: new Map(Object.entries(classes)) } });
    },
    /** The square of the piece picked up, or null. */
    selected: () => ground.state.selected ?? null,
    /** The square under the screen point (x, y), or null off the board. */
    squareAt: (x, y) => ground.getKeyAtDomPos([x, y]) ?? null,
    /** Arrows and circles drawn by the page (check, pins, hanging pieces). */
    setShapes(shapes) {
      ground.setAutoShapes(shapes);
    },
    ground,
  };
}
