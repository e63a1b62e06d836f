/**
 * The lobby: start a game against a friend or the computer in two clicks (a colour, then an
 * opponent), with an optional clock, computer level, start position and whether the players
 * may use the threat overlays (an assisted game); and the list of the
 * games this browser plays, to come back to.
 *
 * The server creates the game (`POST /api/games`), sets the seat cookie and checks the FEN;
 * the page then opens the game, which shows the invitation and watch links.
 */
import { Chessground } from '/vendor/chessground/chessground.min.js';
import { postJson } from './connection.js';
import { listGames, rememberGame } from './storage.js';

const $ = (selector) => document.querySelector(selector);
const preview = Chessground($('#board'), { fen: 'start', viewOnly: true, coordinates: true });

function wireToggleGroup(selector) {
  const buttons = [...document.querySelectorAll(selector)];
  for (const button of buttons) {
    button.addEventListener('click', () => {
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
    });
  }
  return () => buttons.find((button) => button.getAttribute('aria-pressed') === 'true');
}

const chosenColor = wireToggleGroup('.color-choice');
const chosenClock = wireToggleGroup('.clock-choice');

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
  return body;
}

async function startGame(opponent) {
  $('#lobby-error').textContent = '';
  const reply = await postJson('/api/games', makeRequest(opponent));
  if (!reply.ok) {
    $('#lobby-error').textContent = `The game was not created: ${reply.error}`;
    return;
  }
  rememberGame(reply.game, {
    color: reply.color,
    opponent,
    invite: reply.links.invite,
    over: false,
  });
  window.location.href = reply.links.watch;
}

$('#play-friend').addEventListener('click', () => startGame('friend'));
$('#play-computer').addEventListener('click', () => startGame('computer'));
$('#start-fen').addEventListener('input', (event) => {
  // Only a preview: the server checks the FEN when the game is created.
  const fen = event.target.value.trim();
  preview.set({ fen: fen.includes('/') ? fen : 'start' });
});

function listMyGames() {
  const games = listGames().filter((game) => !game.over);
  $('#no-games').hidden = games.length > 0;
  for (const game of games) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `/game/${game.id}`;
    const against = game.opponent === 'computer' ? 'the computer' : 'a friend';
    link.textContent = `${game.color ?? '?'} against ${against}${game.over ? ' (finished)' : ''}`;
    item.append(link, ` · ${new Date(game.created).toLocaleString()}`);
    $('#my-games').append(item);
  }
}

listMyGames();
