// @ts-check
/**
 * The lobby at `/`: find a stranger to play (quick pairing by time control, or open
 * challenges that anyone joins with one click), watch the games in play with the most active
 * one live on TV, or start a game against a friend or the computer; and the games this
 * browser plays, to come back to (and a signed-in player's from any browser). Modules by
 * concern under lobby/: the connection, the name, the challenges, the TV, the friend/computer
 * form, the account's games.
 *
 * A game the lobby makes arrives as a seat (game, colour, seat token: in the reply to the
 * one who completed the pairing, in a private `paired` message to the one who waited); the
 * page then opens `/game/<id>?seat=<token>`, which sets the seat cookie and drops the token
 * from the address.
 */
import { listGames, rememberGame } from './storage.js';
import { refusalText } from './client.js';
import { connectToLobby } from './lobby/socket.js';
import { wireNameField } from './lobby/name.js';
import { makeSeekList, readSeekForm } from './lobby/seeks.js';
import { makeTv } from './lobby/tv.js';
import { wireNewGameForm } from './lobby/new-game.js';
import { listAccountGames } from './lobby/my-games.js';
import { $, all } from './dom.js';
import { t } from './i18n.js';

const currentName = wireNameField($('#visitor-name'), $('#name-error'));
wireNewGameForm(currentName);

/** @type {Record<string, string>} */
const CONNECTION_WORDS = {
  connecting: t('connecting'),
  connected: t('connected'),
  reconnecting: t('reconnecting'),
};

/** @type {string | null} */
let waitingFor = null; // the quick-pairing control this visitor waits for

const lobby = connectToLobby({
  onStatus(state) {
    $('#lobby-connection').dataset.state = state;
    $('#lobby-connection').textContent = CONNECTION_WORDS[state] ?? state;
    if (state !== 'connected') showWaiting(null); // the server dropped what we held
  },
  onEnter(reply) {
    // After a lost connection the server withdrew what the old one held.
    if (!reply.seeks.some((/** @type {{id: string}} */ seek) => seek.id === seekList.ownId)) {
      seekList.setOwn(null);
      $('#seek-status').textContent = '';
    }
    seekList.reset(reply.seeks);
    tv.update(reply, true); // (again) join the game on TV with this connection
  },
  seek_added: (data) => seekList.add(data.seek),
  seeks_removed: (data) => {
    if (data.ids.includes(seekList.ownId)) $('#seek-status').textContent = '';
    seekList.remove(data.ids);
  },
  paired: (seat) => openGame(seat),
  lobby_games: (data) => tv.update(data),
  state: (state) => tv.showState(state),
});

const seekList = makeSeekList({ onJoin: joinSeek, onCancel: cancelSeek });
const tv = makeTv(lobby.request);

/** @param {import('./wire.js').WireObject} seat a seat the server gave: game, color, seat, opponent */
function openGame(seat) {
  rememberGame(seat.game, { color: seat.color, opponent: 'friend', against: seat.opponent, over: false });
  window.location.href = `/game/${seat.game}?seat=${seat.seat}`;
}

/**
 * @param {string} line
 * @param {import('./client.js').Reply} reply
 */
function showError(line, reply) {
  $(line).textContent = reply.ok ? '' : refusalText(reply);
}

// -- quick pairing -------------------------------------------------------------------------

/** @param {string | null} control */
function showWaiting(control) {
  waitingFor = control;
  for (const button of all('.quick-pair')) {
    button.setAttribute('aria-pressed', String(button.dataset.control === control));
  }
  const rated = $('#pair-rated', HTMLInputElement).checked;
  const waiting = rated
    ? t('Waiting for an opponent at {control} (rated)…', { control: control ?? '' })
    : t('Waiting for an opponent at {control}…', { control: control ?? '' });
  $('#pair-status').textContent = control ? waiting : '';
  $('#pair-cancel').hidden = control === null;
}

/** @param {string | null} control */
async function quickPair(control) {
  if (waitingFor === control) return cancelWait();
  const rated = $('#pair-rated', HTMLInputElement).checked;
  const reply = await lobby.request('pair', { control, name: currentName(), rated });
  showError('#pair-error', reply);
  if (!reply.ok) return;
  if (reply.replaced.includes(seekList.ownId)) $('#seek-status').textContent = '';
  if (reply.paired) return openGame(reply);
  showWaiting(control);
}

async function cancelWait() {
  await lobby.request('pair_cancel');
  showWaiting(null);
}

for (const button of all('.quick-pair')) {
  button.setAttribute('aria-pressed', 'false');
  button.addEventListener('click', () => quickPair(button.dataset.control ?? null));
}
$('#pair-cancel').addEventListener('click', cancelWait);

// -- open challenges -----------------------------------------------------------------------

async function createSeek() {
  const reply = await lobby.request('seek', readSeekForm(currentName()));
  showError('#seek-error', reply);
  if (!reply.ok) return;
  showWaiting(null); // a seek replaces a pairing wait (the reply says what it replaced)
  seekList.add(reply.seek);
  seekList.setOwn(reply.seek.id);
  $('#seek-status').textContent = t(
    'Your challenge is listed: the game starts when someone joins.',
  );
}

/** @param {import('./lobby/seeks.js').Seek} seek */
async function cancelSeek(seek) {
  const reply = await lobby.request('seek_cancel', { seek: seek.id });
  showError('#seek-error', reply);
  $('#seek-status').textContent = '';
}

/**
 * @param {import('./lobby/seeks.js').Seek} seek
 * @param {HTMLButtonElement} button
 */
async function joinSeek(seek, button) {
  button.disabled = true;
  const reply = await lobby.request('seek_accept', { seek: seek.id, name: currentName() });
  button.disabled = false;
  showError('#seek-error', reply);
  if (reply.ok) openGame(reply);
}

$('#create-seek').addEventListener('click', createSeek);

// The Rated ticks are remembered by the browser (a rated player keeps playing rated).
for (const id of ['pair-rated', 'seek-rated']) {
  const box = $(`#${id}`, HTMLInputElement);
  const key = `chess.${id}`;
  box.addEventListener('change', () => localStorage.setItem(key, box.checked ? 'yes' : 'no'));
}
// A rated game is never assisted, and always has a clock (docs/ratings.md): the overlay box
// and "No clock" say so while "Rated" is ticked.
$('#seek-rated').addEventListener('change', () => {
  const rated = $('#seek-rated', HTMLInputElement).checked;
  $('#seek-assisted', HTMLInputElement).disabled = rated;
  if (rated) $('#seek-assisted', HTMLInputElement).checked = false;
  const untimed = $('#seek-control option[value=""]', HTMLOptionElement);
  untimed.disabled = rated;
  const control = $('#seek-control', HTMLSelectElement);
  if (rated && control.value === '') control.value = '5+3';
});
for (const id of ['pair-rated', 'seek-rated']) {
  const box = $(`#${id}`, HTMLInputElement);
  if (localStorage.getItem(`chess.${id}`) === 'yes' && !box.checked) box.click();
}

// -- this browser's games ------------------------------------------------------------------

/**
 * "white against the computer" and the like, for this browser's list of games.
 * @param {{[field: string]: any}} game
 */
function describeGame(game) {
  const black = game.color === 'black';
  if (game.opponent === 'computer') {
    return black ? t('black against the computer') : t('white against the computer');
  }
  if (game.against) {
    const said = { name: game.against };
    return black ? t('black against {name}', said) : t('white against {name}', said);
  }
  return black ? t('black against a friend') : t('white against a friend');
}

function listMyGames() {
  const games = listGames().filter((game) => !game.over);
  $('#no-games').hidden = games.length > 0;
  for (const game of games) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `/game/${game.id}`;
    link.textContent = describeGame(game);
    item.append(link, ` · ${new Date(game.created).toLocaleString()}`);
    $('#my-games').append(item);
  }
}

listMyGames();
// A signed-in player's games from any browser join this browser's own (a visitor has none to
// ask for: the page says who is signed in).
if (document.body.dataset.account) listAccountGames(
  $('#my-games'),
  $('.my-games'),
  new Set(listGames().map((game) => game.id)),
  (count) => {
    $('#no-games').hidden = count > 0;
  },
);
