// @ts-check
/**
 * The board's squares in the order a grid of 64 cells lays them out, for the page's layers
 * over chessground (the threat overlay's numbers and heat, the keyboard's square buttons).
 *
 * Geometry, not rules: square names and rank order come from chessground (`files`,
 * `invRanks`), as do its FEN reader and UCI splitter, which the other modules import from
 * it directly.
 */
import { files } from '/vendor/chessground/types.js';
import { invRanks } from '/vendor/chessground/util.js';

/**
 * All 64 square names, a8 first, in reading order for `orientation`.
 * @param {string} orientation
 * @returns {import('/vendor/chessground/types.js').Key[]}
 */
export function squaresInReadingOrder(orientation) {
  const squares = invRanks.flatMap((rank) =>
    files.map((file) => /** @type {const} */ (`${file}${rank}`)),
  );
  return orientation === 'white' ? squares : squares.reverse();
}
