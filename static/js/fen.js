/**
 * Reading a FEN's piece placement into plain data: square name -> {color, role}.
 *
 * This is notation, not rules: the page uses it only to name the piece on a square (for the
 * spoken move announcements and the overlay's side filter). Everything about legality,
 * check and attacks comes from the server.
 */

const ROLES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
export const FILES = 'abcdefgh';

/** Map of square name -> {color: 'white'|'black', role: 'pawn'|...} for the FEN's pieces. */
export function parsePlacement(fen) {
  const pieces = new Map();
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, index) => {
    const rank = 8 - index;
    let file = 0;
    for (const char of row) {
      if (char >= '1' && char <= '8') {
        file += Number(char);
        continue;
      }
      const role = ROLES[char.toLowerCase()];
      if (role && file < 8) {
        const color = char === char.toLowerCase() ? 'black' : 'white';
        pieces.set(`${FILES[file]}${rank}`, { color, role });
      }
      file += 1;
    }
  });
  return pieces;
}

/** All 64 square names, a8 first, in reading order for `orientation`. */
export function squaresInReadingOrder(orientation) {
  const squares = [];
  for (let rank = 8; rank >= 1; rank -= 1) {
    for (const file of FILES) squares.push(`${file}${rank}`);
  }
  return orientation === 'white' ? squares : squares.reverse();
}

export function otherColor(color) {
  return color === 'white' ? 'black' : 'white';
}
