/**
 * Typed moves: turn the text in the move box into a UCI move to send.
 *
 * UCI text goes to the server as it is, and the server judges it. SAN is matched against the
 * moves the server listed (`dests`, `promotions`) and the piece letters of the FEN; nothing
 * here decides legality: a SAN that matches no listed move, or more than one, is reported as
 * such. A server that parses SAN itself (a `san` field in `move`) is asked first: see game.js.
 */
import { parsePlacement } from './fen.js';

const UCI = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/;
const SAN = /^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([NBRQ]))?$/;
const ROLE_OF_LETTER = { N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king' };

/**
 * What to send for `text`: {uci} for UCI text; for SAN text {san} plus, matched against the
 * server's listed moves, {uci} or {error}; {error} for text that is neither.
 */
export function parseTypedMove(text, state) {
  const typed = text.trim();
  if (typed === '') return { error: 'Type a move first, e.g. e4, Nf3 or g1f3' };
  if (UCI.test(typed.toLowerCase())) return { uci: typed.toLowerCase() };
  const san = typed.replace(/[+#!?]+$/, '');
  const isCastling = /^[O0]-[O0](-[O0])?$/.test(san);
  if (!isCastling && !SAN.test(san)) {
    return { error: `'${typed}' is neither SAN (like Nf3) nor UCI (like g1f3)` };
  }
  return { san: typed, ...matchListed(typed, san, isCastling, state) };
}

function matchListed(typed, san, isCastling, state) {
  if (!state.dests) return { error: `It is not your move, so '${typed}' cannot be played now` };
  const candidates = isCastling ? matchCastling(san, state) : matchSan(san, state);
  if (candidates.length === 0) return { error: `'${typed}' is not a legal move in this position` };
  if (candidates.length > 1) {
    return { error: `'${typed}' is ambiguous: it could be ${candidates.join(' or ')}` };
  }
  return { uci: candidates[0] };
}

function listedMoves(state) {
  const moves = [];
  for (const [from, targets] of Object.entries(state.dests)) {
    for (const to of targets) moves.push({ from, to });
  }
  return moves;
}

function matchSan(san, state) {
  const parts = SAN.exec(san);
  const [, letter, file, rank, to, promotion] = parts;
  const role = letter ? ROLE_OF_LETTER[letter] : 'pawn';
  const pieces = parsePlacement(state.fen);
  const found = listedMoves(state).filter(
    (move) =>
      move.to === to &&
      pieces.get(move.from)?.role === role &&
      (!file || move.from[0] === file) &&
      (!rank || move.from[1] === rank),
  );
  return found.map((move) => {
    const promotes = (state.promotions?.[move.from] ?? []).includes(move.to);
    return `${move.from}${move.to}${promotes ? (promotion ?? 'q').toLowerCase() : ''}`;
  });
}

/** O-O: the king's listed move two files towards the h-file; O-O-O towards the a-file. */
function matchCastling(san, state) {
  const pieces = parsePlacement(state.fen);
  const targetFile = san.length > 3 ? 'c' : 'g';
  return listedMoves(state)
    .filter((move) => {
      const piece = pieces.get(move.from);
      return (
        piece?.role === 'king' && move.from[0] === 'e' && move.to === `${targetFile}${move.from[1]}`
      );
    })
    .map((move) => `${move.from}${move.to}`);
}
