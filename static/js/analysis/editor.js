// @ts-check
/**
 * The board editor: a chessground board where pieces move freely, spare pieces to drag on
 * (or pick, then click squares), pieces dragged off the board are gone, and the rest of the
 * FEN set by hand: side to move, castling rights, en passant square. The FEN field shows the
 * whole FEN and can be typed into.
 *
 * It knows no rules either: "Analyse" sends the FEN as a path with no moves
 * (`analysis_position`) and the server accepts it, refuses it (its words shown here) or
 * accepts it with a notice (a position that cannot arise in a game).
 */
import { Chessground } from '/vendor/chessground/chessground.min.js';
import { refusalText } from '../client.js';
import { t } from '../i18n.js';

/** @typedef {import('/vendor/chessground/types.js').Role} Role */
/** @typedef {import('/vendor/chessground/types.js').Color} Color */
/** @typedef {import('/vendor/chessground/types.js').Key} Key */
/** @typedef {import('/vendor/chessground/types.js').Piece} Piece */

/**
 * Each spare piece by its colour and role, as a language names it.
 * @type {Record<string, string>}
 */
const PIECE_WORDS = {
  'white king': t('white king'),
  'white queen': t('white queen'),
  'white rook': t('white rook'),
  'white bishop': t('white bishop'),
  'white knight': t('white knight'),
  'white pawn': t('white pawn'),
  'black king': t('black king'),
  'black queen': t('black queen'),
  'black rook': t('black rook'),
  'black bishop': t('black bishop'),
  'black knight': t('black knight'),
  'black pawn': t('black pawn'),
};

/** @type {Role[]} */
const ROLES = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
const EMPTY = '8/8/8/8/8/8/8/8';
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';
/** @type {('K' | 'Q' | 'k' | 'q')[]} */
const CASTLING = ['K', 'Q', 'k', 'q'];
/** @type {Color[]} */
const COLORS = ['white', 'black'];

/**
 * `elements`: {board, spares: {white, black}, turn (select), castling: {K, Q, k, q}
 * (checkboxes), enPassant (input), fen (input), analyse, start, clear, error, trash};
 * `request` the socket's; `onAccept(fen, position)` when the server accepted the FEN.
 * @param {object} elements
 * @param {HTMLElement} elements.board
 * @param {{white: HTMLElement, black: HTMLElement}} elements.spares
 * @param {HTMLSelectElement} elements.turn
 * @param {Record<'K' | 'Q' | 'k' | 'q', HTMLInputElement>} elements.castling
 * @param {HTMLInputElement} elements.enPassant
 * @param {HTMLInputElement} elements.fen
 * @param {HTMLElement} elements.analyse
 * @param {HTMLElement} elements.start
 * @param {HTMLElement} elements.clear
 * @param {HTMLElement} elements.error
 * @param {HTMLElement} elements.trash
 * @param {object} hooks
 * @param {(event: string, payload?: object) => Promise<import('../client.js').Reply>} hooks.request
 * @param {(fen: string, position: import('../wire.js').Position) => void} hooks.onAccept
 */
export function createEditor(elements, { request, onAccept }) {
  /** @type {Piece | 'trash' | null} */
  let placing = null; // a spare piece picked: each square clicked gets one; 'trash' removes
  let counters = '0 1'; // halfmove clock and move number, kept from the FEN opened
  const ground = Chessground(elements.board, {
    fen: START,
    orientation: 'white',
    coordinates: true,
    movable: { free: true, color: 'both', showDests: false },
    premovable: { enabled: false },
    draggable: { showGhost: true, deleteOnDropOff: true },
    animation: { enabled: false },
    highlight: { lastMove: false, check: false },
    events: { change: writeFen },
  });

  for (const type of ['mousedown', 'touchstart']) {
    elements.board.addEventListener(type, placeOn, { capture: true, passive: false });
  }
  for (const color of COLORS) {
    elements.spares[color].replaceChildren(...ROLES.map((role) => spareButton(color, role)));
  }

  /**
   * @param {Color} color
   * @param {Role} role
   */
  function spareButton(color, role) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'spare';
    button.dataset.piece = `${color} ${role}`;
    button.setAttribute('aria-label', t('Place a {piece}', { piece: PIECE_WORDS[`${color} ${role}`] ?? `${color} ${role}` }));
    button.setAttribute('aria-pressed', 'false');
    const image = document.createElement('piece');
    image.className = `${color} ${role}`;
    button.append(image);
    button.addEventListener('mousedown', (event) => drag(event, color, role));
    button.addEventListener('touchstart', (event) => drag(event, color, role), { passive: false });
    button.addEventListener('click', () => pick({ color, role }, button));
    return button;
  }

  /**
   * @param {MouseEvent | TouchEvent} event
   * @param {Color} color
   * @param {Role} role
   */
  function drag(event, color, role) {
    if (event instanceof MouseEvent && event.button !== 0) return;
    event.preventDefault();
    // A drag places one piece by itself: the click-to-place mode ends.
    pick(null, null);
    ground.dragNewPiece({ color, role }, event, true);
  }

  /**
   * A spare piece (or the trash) picked: clicks on squares place it until picked again.
   * @param {Piece | 'trash' | null} piece
   * @param {HTMLElement | null} button
   */
  function pick(piece, button) {
    const same = placing && button?.getAttribute('aria-pressed') === 'true';
    placing = same ? null : piece;
    for (const other of document.querySelectorAll('.spare, #editor-trash')) {
      other.setAttribute('aria-pressed', String(!same && other === button));
    }
  }

  /**
   * In click-to-place mode a press on a square places the picked piece (or removes one), and
   * chessground never sees the press: it would pick up the piece there instead.
   * @param {Event} event
   */
  function placeOn(event) {
    if (!placing) return;
    // Not `instanceof TouchEvent`: desktop Firefox has no such constructor.
    const point =
      'touches' in event ? /** @type {TouchEvent} */ (event).touches[0] : /** @type {MouseEvent} */ (event);
    const square = ground.getKeyAtDomPos([point.clientX, point.clientY]);
    if (!square) return;
    event.preventDefault();
    event.stopPropagation();
    const piece = placing === 'trash' ? undefined : { ...placing };
    ground.setPieces(new Map([[square, piece]]));
    writeFen();
  }

  function castlingText() {
    const rights = CASTLING.filter((letter) => elements.castling[letter].checked).join('');
    return rights || '-';
  }

  function fen() {
    const enPassant = elements.enPassant.value.trim() || '-';
    return `${ground.getFen()} ${elements.turn.value} ${castlingText()} ${enPassant} ${counters}`;
  }

  function writeFen() {
    elements.fen.value = fen();
    elements.error.textContent = '';
  }

  /**
   * Show `text` (a FEN typed or given) on the board and in the fields, as far as it reads.
   * @param {string} text
   */
  function readFen(text) {
    const [placement, side, castling, enPassant, halfmove, fullmove] = text.trim().split(/\s+/);
    counters = /^\d+$/.test(halfmove) && /^\d+$/.test(fullmove) ? `${halfmove} ${fullmove}` : '0 1';
    ground.set({ fen: placement || EMPTY });
    elements.turn.value = side === 'b' ? 'b' : 'w';
    for (const letter of CASTLING) {
      elements.castling[letter].checked = (castling ?? '').includes(letter);
    }
    elements.enPassant.value = enPassant && enPassant !== '-' ? enPassant : '';
  }

  async function analyse() {
    const text = elements.fen.value.trim();
    elements.error.textContent = '';
    const reply = await request('analysis_position', { fen: text, moves: [] });
    if (!reply.ok) {
      elements.error.textContent = t('Not accepted: {why}', { why: refusalText(reply) });
      return;
    }
    onAccept(text, reply.position);
  }

  elements.fen.addEventListener('change', () => readFen(elements.fen.value));
  for (const field of [elements.turn, elements.enPassant, ...Object.values(elements.castling)]) {
    field.addEventListener('change', writeFen);
  }
  elements.analyse.addEventListener('click', analyse);
  elements.start.addEventListener('click', () => {
    readFen(`${START} w KQkq -`);
    writeFen();
  });
  elements.clear.addEventListener('click', () => {
    readFen(`${EMPTY} w - -`);
    writeFen();
  });
  elements.trash.addEventListener('click', () => pick('trash', elements.trash));
  writeFen();

  return {
    /**
     * Open the editor on `text` (the FEN of the node on view).
     * @param {string} text
     */
    load(text) {
      readFen(text);
      writeFen();
      ground.redrawAll();
    },
    fen,
  };
}
