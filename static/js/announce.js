/**
 * Moves in words for screen readers, written into an aria-live region.
 *
 * "White knight from g1 to f3": the colour and piece are read from the FEN before the move
 * and the squares from its UCI; capture, castling, promotion and check come from the SAN the
 * server wrote. No rule is worked out here.
 */
import { parsePlacement } from './fen.js';

const PIECE_NAMES = { n: 'knight', b: 'bishop', r: 'rook', q: 'queen' };

/** The sentence for `move` ({uci, san}) played in the position `fenBefore`. */
export function describeMove(fenBefore, move) {
  const from = move.uci.slice(0, 2);
  const to = move.uci.slice(2, 4);
  const piece = parsePlacement(fenBefore).get(from);
  const color = piece ? capitalize(piece.color) : '';
  let words;
  if (move.san.startsWith('O-O-O')) words = `${color} castles queenside`;
  else if (move.san.startsWith('O-O')) words = `${color} castles kingside`;
  else words = `${color} ${piece?.role ?? 'piece'} from ${from} to ${to}`;
  if (move.san.includes('x')) words += ', capture';
  if (move.uci.length === 5) words += `, promotes to ${PIECE_NAMES[move.uci[4]]}`;
  if (move.san.endsWith('#')) words += ', checkmate';
  else if (move.san.endsWith('+')) words += ', check';
  return words.trim();
}

/** A sentence for a move whose earlier position the page never saw (only the SAN is known). */
export function describeSanOnly(move, by) {
  return `${capitalize(by)} played ${move.san}`;
}

export function announce(region, text) {
  // Clearing first makes screen readers speak a sentence even when it repeats the last one.
  region.textContent = '';
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}

function capitalize(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}
