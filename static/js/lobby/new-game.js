// @ts-check
/**
 * Play a friend or the computer: a colour, an optional clock, computer level, start position
 * and whether the players may use the threat overlays. The server creates the game
 * (`POST /api/games`), sets the seat cookie and checks the FEN; the page then opens the game,
 * which shows the invitation and watch links.
 */
import { Chessground } from '/vendor/chessground/chessground.min.js';
import { refusalText, requestJson } from '../client.js';
import { rememberGame } from '../storage.js';
import { $ } from '../dom.js';
import { t } from '../i18n.js';

// "Review the game when it ends", remembered by the browser between games.
const REVIEW_KEY = 'chess.reviewComputerGames';

/**
 * @param {string} selector
 * @returns {() => HTMLElement} the button pressed
 */
function wireToggleGroup(selector) {
  const buttons = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(selector)]);
  for (const button of buttons) {
    button.addEventListener('click', () => {
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
    });
  }
  const pressed = () => buttons.find((button) => button.getAttribute('aria-pressed') === 'true');
  return () => /** @type {HTMLElement} */ (pressed());
}

/** @param {() => string} currentName */
export function wireNewGameForm(currentName) {
  const chosenColor = wireToggleGroup('.color-choice');
  const chosenClock = wireToggleGroup('.clock-choice');
  /** @type {import('/vendor/chessground/api.js').Api | null} */
  let preview = null;

  /** @param {'friend' | 'computer'} opponent */
  function makeRequest(opponent) {
    /** @type {{[field: string]: unknown}} */
    const body = {
      opponent,
      color: chosenColor().dataset.color,
      assisted: $('#assisted', HTMLInputElement).checked,
    };
    const clock = chosenClock().dataset.clock;
    if (clock) {
      const [minutes, increment] = clock.split('+').map(Number);
      body.clock = { minutes, increment };
    }
    const fen = $('#start-fen', HTMLInputElement).value.trim();
    if (fen) body.fen = fen;
    if (opponent === 'computer') body.level = Number($('#level', HTMLSelectElement).value);
    // Only sent when asked for: the game page then shows the review as soon as the game ends.
    if (opponent === 'computer' && $('#review-after', HTMLInputElement).checked) body.review = true;
    body.name = currentName();
    return body;
  }

  /** @param {'friend' | 'computer'} opponent */
  async function startGame(opponent) {
    $('#lobby-error').textContent = '';
    const body = makeRequest(opponent);
    const reply = await requestJson('/api/games', body);
    if (!reply.ok) {
      $('#lobby-error').textContent = t('The game was not created: {why}', {
        why: refusalText(reply),
      });
      return;
    }
    rememberGame(reply.game, {
      color: reply.color,
      opponent,
      invite: reply.links.invite,
      over: false,
      review: body.review === true,
    });
    window.location.href = reply.links.watch;
  }

  $('#review-after', HTMLInputElement).checked = localStorage.getItem(REVIEW_KEY) === 'true';
  $('#review-after').addEventListener('change', (event) => {
    localStorage.setItem(REVIEW_KEY, String(/** @type {HTMLInputElement} */ (event.target).checked));
  });
  $('#play-friend').addEventListener('click', () => startGame('friend'));
  $('#play-computer').addEventListener('click', () => startGame('computer'));
  $('#start-fen').addEventListener('input', (event) => {
    // Only a preview: the server checks the FEN when the game is created.
    const fen = /** @type {HTMLInputElement} */ (event.target).value.trim();
    $('#fen-preview').hidden = !fen.includes('/');
    if (fen.includes('/')) {
      preview ??= Chessground($('#board'), { viewOnly: true, coordinates: true });
      preview.set({ fen });
    }
  });
}
