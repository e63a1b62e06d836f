/**
 * Play a friend or the computer: a colour, an optional clock, computer level, start position
 * and whether the players may use the threat overlays. The server creates the game
 * (`POST /api/games`), sets the seat cookie and checks the FEN; the page then opens the game,
 * which shows the invitation and watch links.
 */
import { Chessground } from '/vendor/chessground/chessground.min.js';
import { refusalText, requestJson } from '../client.js';
import { rememberGame } from '../storage.js';

const $ = (selector) => document.querySelector(selector);
// "Review the game when it ends", remembered by the browser between games.
const REVIEW_KEY = 'chess.reviewComputerGames';

function wireToggleGroup(selector) {
  const buttons = [...document.querySelectorAll(selector)];
  for (const button of buttons) {
    button.addEventListener('click', () => {
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
    });
  }
  return () => buttons.find((button) => button.getAttribute('aria-pressed') === 'true');
}

export function wireNewGameForm(currentName) {
  const chosenColor = wireToggleGroup('.color-choice');
  const chosenClock = wireToggleGroup('.clock-choice');
  let preview = null;

  function makeRequest(opponent) {
    const body = { opponent, color: chosenColor().dataset.color, assisted: $('#assisted').checked };
    const clock = chosenClock().dataset.clock;
    if (clock) {
      const [minutes, increment] = clock.split('+').map(Number);
      body.clock = { minutes, increment };
    }
    const fen = $('#start-fen').value.trim();
    if (fen) body.fen = fen;
    if (opponent === 'computer') body.level = Number($('#level').value);
    // Only sent when asked for: the game page then shows the review as soon as the game ends.
    if (opponent === 'computer' && $('#review-after').checked) body.review = true;
    body.name = currentName();
    return body;
  }

  async function startGame(opponent) {
    $('#lobby-error').textContent = '';
    const body = makeRequest(opponent);
    const reply = await requestJson('/api/games', body);
    if (!reply.ok) {
      $('#lobby-error').textContent = `The game was not created: ${refusalText(reply)}`;
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

  $('#review-after').checked = localStorage.getItem(REVIEW_KEY) === 'true';
  $('#review-after').addEventListener('change', (event) => {
    localStorage.setItem(REVIEW_KEY, String(event.target.checked));
  });
  $('#play-friend').addEventListener('click', () => startGame('friend'));
  $('#play-computer').addEventListener('click', () => startGame('computer'));
  $('#start-fen').addEventListener('input', (event) => {
    // Only a preview: the server checks the FEN when the game is created.
    const fen = event.target.value.trim();
    $('#fen-preview').hidden = !fen.includes('/');
    if (fen.includes('/')) {
      preview ??= Chessground($('#board'), { viewOnly: true, coordinates: true });
      preview.set({ fen });
    }
  });
}
