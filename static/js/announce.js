/**
 * Moves in words for screen readers, written into an aria-live region.
 *
 * The sentence is the server's (`insight.announcement`, "White knight from g1 to f3"). The
 * players of a game that is not assisted get no insight, so for them the page puts one
 * together from what it was sent: the colour and piece from the FEN before the move (read by
 * chessground), the squares from the UCI, capture, castling, promotion and check from the SAN
 * the server wrote. No rule is worked out here.
 */
import { read as readPieces } from '/vendor/chessground/fen.js';
import { uciToMove } from '/vendor/chessground/util.js';

const PIECE_NAMES = { n: 'knight', b: 'bishop', r: 'rook', q: 'queen' };

/** The sentence for the move of `state` (its `last_move`), played in the position `fenBefore`. */
export function describeLastMove(fenBefore, state) {
  return state.insight?.announcement ?? describeMove(fenBefore, state.last_move);
}

/** A sentence for `move` ({uci, san}) played in the position `fenBefore`. */
function describeMove(fenBefore, move) {
  const [from, to] = uciToMove(move.uci);
  const piece = readPieces(fenBefore).get(from);
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
