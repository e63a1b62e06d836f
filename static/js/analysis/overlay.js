// @ts-check
/**
 * The game page's overlays on the analysis board's node: the threat map with its counts,
 * hanging pieces, pins and x-rays, "what the last move changed", the preview of a move while
 * its piece is held over the target, and the safety marks of a piece picked up. The drawing
 * is the game page's own (static/js/overlays/); this module only feeds it the node's facts
 * (`analysis_position`) or the preview (`analysis_preview`), in the forms a game state has.
 */
import { describeChange, renderChangeLegend } from '../overlays/change.js';
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').WireObject} Facts a position's facts, or a preview */

/**
 * `parts`: {board, overlay (createThreatOverlay's), control (createOverlayControl's),
 * legend (the change legend's box), root (which gets `data-preview`)}.
 * @param {object} parts
 * @param {import('../board.js').Board} parts.board
 * @param {import('../overlays/threats.js').ThreatOverlay} parts.overlay
 * @param {import('../overlays/control.js').OverlayControl} parts.control
 * @param {HTMLElement} parts.legend
 * @param {HTMLElement} parts.root
 */
export function createNodeOverlay({ board, overlay, control, legend, root }) {
  return {
    /**
     * Draw the facts `position` of the node (null until they come) whose FEN is `fen`,
     * or with `preview`, the position after the previewed move.
     * @param {Facts | null} position
     * @param {string} fen
     * @param {Facts | null} preview
     */
    draw(position, fen, preview) {
      const shown = preview ? previewPosition(preview) : position;
      const mode = control.mode();
      // Nobody plays here: the buttons name the colours (White's, Black's threats), so they
      // keep their meaning when the board is flipped, as a spectator's do on the game page.
      const perspective = /** @type {const} */ ('white');
      const change = describeChange(shown?.insight?.change ?? null, mode, perspective);
      overlay.render({
        threats: shown?.threats ?? null,
        xrays: shown?.insight?.xrays ?? null,
        pins: shown?.insight?.pins ?? null,
        fen: shown?.fen ?? fen,
        checkedKing: shown?.checked_king ?? null,
        perspective,
        orientation: board.orientation(),
        mode,
        density: control.density(),
        extraShapes: change.shapes,
      });
      const title = preview
        ? t('If you play {move} ({safety}): the position after it', {
            move: preview.move,
            safety: preview.safety,
          })
        : t('What the last move changed');
      renderChangeLegend(legend, title, change.lines);
      root.dataset.preview = preview ? preview.move : '';
    },
    /**
     * Mark the destinations of the piece on `square` safe, contested or losing.
     * @param {Facts | null} position
     * @param {string} square
     */
    markSafety(position, square) {
      /** @type {Record<string, string>} */
      const classes = {};
      for (const [target, label] of Object.entries(position?.safety?.[square] ?? {})) {
        classes[target] = `safety-${label}`;
      }
      board.markSquares(classes);
    },
    /**
     * The UCI to preview with the piece on `from` held over `square`, or null.
     * @param {Facts | null} position
     * @param {string} from
     * @param {string | undefined | null} square
     */
    previewTarget(position, from, square) {
      // Nothing to show with the overlay off: then the server is not asked either.
      if (!position?.dests || !square || control.mode() === 'off') return null;
      if (!(position.dests[from] ?? []).includes(square)) return null;
      const promotes = (position.promotions?.[from] ?? []).includes(square);
      return `${from}${square}${promotes ? 'q' : ''}`;
    },
  };
}

/**
 * The preview in the overlay's form: it has no x-rays; its pins and change stand in.
 * @param {Facts} found
 * @returns {Facts}
 */
function previewPosition(found) {
  return {
    fen: found.fen,
    checked_king: found.checked_king,
    threats: found.threats,
    insight: { xrays: null, pins: found.pins, change: found.change },
  };
}
