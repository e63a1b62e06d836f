// Board view: chessground shows what the server sent; it knows no rules.
import { Chessground } from '/vendor/chessground/chessground.js';

export function createBoard(element) {
  const ground = Chessground(element, {
    fen: '8/8/8/8/8/8/8/8',
    viewOnly: true,
    coordinates: true,
  });
  return {
    showPosition(fen) {
      ground.set({ fen });
    },
  };
}
