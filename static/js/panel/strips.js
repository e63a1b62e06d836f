// @ts-check
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
import { find } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').GameState} GameState */
/** @typedef {import('../wire.js').Color} Color */
/** @typedef {{white: Record<string, number>, black: Record<string, number>}} Material */
/** @type {Color[]} */
const COLORS = ['white', 'black'];

const ROLES = ['queen', 'rook', 'bishop', 'knight', 'pawn'];
/** @type {Record<string, number>} */
const VALUES = { queen: 9, rook: 5, bishop: 3, knight: 3, pawn: 1, king: 0 };

/**
 * `strips` = {white, black}: the strip elements; returns {render(state, role, orientation,
 * fen)}, `fen` the position on view (its material is shown).
 * @param {{white: HTMLElement, black: HTMLElement}} strips
 */
export function createStrips(strips) {
  return {
    /**
     * @param {GameState} state
     * @param {string} role
     * @param {Color} orientation
     * @param {string} fen
     */
    render(state, role, orientation, fen) {
      const material = countMaterial(fen);
      for (const color of COLORS) {
        const strip = strips[color];
        strip.dataset.position = color === orientation ? 'bottom' : 'top';
        fillStrip(strip, state, color, role, material);
      }
    },
  };
}

/**
 * The player's name as the strip shows it.
 * @param {GameState} state
 * @param {Color} color
 * @returns {string}
 */
export function playerName(state, color) {
  const player = state.players[color];
  if (player.name) return player.name;
  if (player.kind === 'computer') return t('Computer (level {level})', { level: state.level ?? 1 });
  if (!player.seated) return t('Waiting for a player…');
  return color === 'white' ? t('White') : t('Black');
}

/**
 * @param {HTMLElement} strip
 * @param {GameState} state
 * @param {Color} color
 * @param {string} role
 * @param {Material} material
 */
function fillStrip(strip, state, color, role, material) {
  const player = state.players[color];
  find(strip, '.player-name').textContent = playerName(state, color);
  fillRating(find(strip, '.player-rating'), player.rating);
  find(strip, '.you').hidden = role !== color;
  const dot = find(strip, '.presence');
  const present = player.kind === 'computer' || Boolean(player.connected);
  const waiting = player.kind !== 'computer' && !player.seated;
  dot.dataset.connected = String(present);
  const words = waiting ? t('not joined yet') : present ? t('connected') : t('disconnected');
  dot.title = `${playerName(state, color)}: ${words}`;
  dot.setAttribute('aria-label', dot.title);
  strip.classList.toggle('to-move', state.status === 'playing' && state.turn === color);
  fillMaterial(find(strip, '.material'), material, color);
}

/**
 * "1500?" and, once rated, the change: "1741? +241" (the change coloured by its sign).
 * @param {HTMLElement} box
 * @param {{rating: number, provisional: boolean, diff?: number | null} | null | undefined} rating
 */
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

/**
 * Pieces on the board per colour and role, read from the FEN's placement.
 * @param {string} fen
 * @returns {Material}
 */
export function countMaterial(fen) {
  /** @type {Material} */
  const counts = { white: {}, black: {} };
  for (const piece of readPieces(fen).values()) {
    counts[piece.color][piece.role] = (counts[piece.color][piece.role] ?? 0) + 1;
  }
  return counts;
}

/**
 * What `color` is up: one small piece per extra piece of the opponent's it took, and +N.
 * @param {HTMLElement} box
 * @param {Material} counts
 * @param {Color} color
 */
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
  box.setAttribute('aria-label', score > 0 ? t('up {score} in material', { score }) : '');
  box.dataset.score = String(score);
}
