/**
 * The player strips above and below the board, placed by the board's orientation (the side at
 * the bottom has its strip below): each shows the player's name, a dot for whether the player
 * is connected, the material difference (the pieces one side has taken more of, and +N) and
 * the clock (drawn by panel/clock.js into the strip's clock element).
 *
 * In a rated game the name is followed by the rating (`1500?` while provisional) and, once
 * the game has been rated, the change it made (`+8` / `-8`), from `state.players.<colour>.rating`.
 *
 * Names are `state.players.<colour>.name` when the server sends one (set as text, never as
 * markup), else "White"/"Black", "Computer (level N)" for the computer, or "Waiting for a
 * player…" while the seat is free. The material count
 * is arithmetic on the FEN's placement (pieces counted, standard values), not chess rules.
 */
import { read as readPieces } from '/vendor/chessground/fen.js';

const ROLES = ['queen', 'rook', 'bishop', 'knight', 'pawn'];
const VALUES = { queen: 9, rook: 5, bishop: 3, knight: 3, pawn: 1, king: 0 };

/**
 * `strips` = {white, black}: the strip elements; returns {render(state, role, orientation,
 * fen)}, `fen` the position on view (its material is shown).
 */
export function createStrips(strips) {
  return {
    render(state, role, orientation, fen) {
      const material = countMaterial(fen);
      for (const color of ['white', 'black']) {
        const strip = strips[color];
        strip.dataset.position = color === orientation ? 'bottom' : 'top';
        fillStrip(strip, state, color, role, material);
      }
    },
  };
}

/** The player's name as the strip shows it. */
export function playerName(state, color) {
  const player = state.players[color];
  if (player.name) return player.name;
  if (player.kind === 'computer') return `Computer (level ${state.level ?? 1})`;
  if (!player.seated) return 'Waiting for a player…';
  return color === 'white' ? 'White' : 'Black';
}

function fillStrip(strip, state, color, role, material) {
  const player = state.players[color];
  strip.querySelector('.player-name').textContent = playerName(state, color);
  fillRating(strip.querySelector('.player-rating'), player.rating);
  strip.querySelector('.you').hidden = role !== color;
  const dot = strip.querySelector('.presence');
  const present = player.kind === 'computer' || Boolean(player.connected);
  const waiting = player.kind !== 'computer' && !player.seated;
  dot.dataset.connected = String(present);
  const words = waiting ? 'not joined yet' : present ? 'connected' : 'disconnected';
  dot.title = `${playerName(state, color)}: ${words}`;
  dot.setAttribute('aria-label', dot.title);
  strip.classList.toggle('to-move', state.status === 'playing' && state.turn === color);
  fillMaterial(strip.querySelector('.material'), material, color);
}

/** "1500?" and, once rated, the change: "1741? +241" (the change coloured by its sign). */
function fillRating(box, rating) {
  box.hidden = !rating;
  if (!rating) return box.replaceChildren();
  const value = document.createElement('span');
  value.className = 'rating-value';
  value.textContent = `${rating.rating}${rating.provisional ? '?' : ''}`;
  const parts = [value];
  if (rating.diff !== null && rating.diff !== undefined) {
    const diff = document.createElement('span');
    diff.className = 'rating-diff';
    diff.dataset.sign = rating.diff > 0 ? 'up' : rating.diff < 0 ? 'down' : 'same';
    diff.textContent = rating.diff > 0 ? `+${rating.diff}` : rating.diff < 0 ? `−${-rating.diff}` : '±0';
    parts.push(diff);
  }
  box.replaceChildren(...parts);
}

/** Pieces on the board per colour and role, read from the FEN's placement. */
export function countMaterial(fen) {
  const counts = { white: {}, black: {} };
  for (const piece of readPieces(fen).values()) {
    counts[piece.color][piece.role] = (counts[piece.color][piece.role] ?? 0) + 1;
  }
  return counts;
}

/** What `color` is up: one small piece per extra piece of the opponent's it took, and +N. */
function fillMaterial(box, counts, color) {
  const other = color === 'white' ? 'black' : 'white';
  const items = [];
  let score = 0;
  for (const role of ROLES) {
    const mine = counts[color][role] ?? 0;
    const theirs = counts[other][role] ?? 0;
    score += (mine - theirs) * VALUES[role];
    for (let i = 0; i < mine - theirs; i += 1) {
      const piece = document.createElement('piece');
      piece.className = `${other} ${role}`;
      items.push(piece);
    }
  }
  if (score > 0) {
    const plus = document.createElement('span');
    plus.className = 'material-score';
    plus.textContent = `+${score}`;
    items.push(plus);
  }
  box.replaceChildren(...items);
  box.setAttribute('aria-label', score > 0 ? `up ${score} in material` : '');
  box.dataset.score = String(score);
}
