/**
 * The game page: wires the connection, the board, the overlays and the side panel together.
 *
 * It holds the page's own state (the latest server state, the role, which ply is on view)
 * and redraws every part from it. The server decides everything about chess: the page shows
 * the positions, destinations, threat maps and results it sends, and a move the server
 * refuses or never acknowledges goes back on the board.
 */
import { connectToGame } from './connection.js';
import { createBoard } from './board.js';
import { askPromotion } from './promotion.js';
import { createHistory } from './history.js';
import { parseTypedMove } from './notation.js';
import { announce, describeMove, describeSanOnly } from './announce.js';
import { rememberGame, findGame } from './storage.js';
import { createThreatOverlay } from './overlays/threats.js';
import { createOverlayControl } from './overlays/control.js';
import { renderStatus, describeResult, describeOffers } from './panel/status.js';
import { renderMoves, wireStepping } from './panel/moves.js';
import { createClocks } from './panel/clock.js';
import { createActions } from './panel/actions.js';
import { wireCopyButton, downloadPgn, renderInvite } from './panel/links.js';

const $ = (selector) => document.querySelector(selector);
const root = $('main.game');
const gameId = root.dataset.game;

const page = {
  state: null,
  role: null,
  viewPly: null,
  oriented: false,
  connected: false,
  serverParsesSan: null,
};
const history = createHistory(gameId);
const board = createBoard($('#board'), { onMove: playBoardMove });
const overlay = createThreatOverlay($('#threat-grid'), $('#threat-heat'), board);
const overlayControl = createOverlayControl($('#overlay-modes'), () => render());
const clocks = createClocks({
  white: $('#clock-white'),
  black: $('#clock-black'),
  box: $('#clocks'),
});
const connection = connectToGame(gameId, {
  onStatus: showConnection,
  onJoined: receiveJoin,
  onState: (state) => receiveState(state, true),
  onRematch: goToRematch,
});
const actions = createActions($('#actions'), $('#action-error'), connection.request);

// -- receiving ---------------------------------------------------------------------------

function receiveJoin(reply) {
  page.role = reply.role;
  if (reply.notice) $('#link-feedback').textContent = reply.notice;
  if (!page.oriented) {
    board.setOrientation(page.role === 'black' ? 'black' : 'white');
    page.oriented = true;
  }
  const missedMoves = (reply.missed ?? []).filter((change) => change.type === 'move');
  if (page.state && missedMoves.length > 0) {
    const words = missedMoves.map((change) => describeSanOnly(change, change.by)).join('. ');
    announce($('#announcer'), `While the connection was lost: ${words}`);
  }
  receiveState(reply.state, false);
  if (page.role !== 'spectator') {
    rememberGame(gameId, {
      color: page.role,
      opponent: page.state.opponent,
      over: page.state.status !== 'playing',
    });
  }
}

function receiveState(state, speak) {
  const previous = page.state;
  if (previous && state.version < previous.version) return;
  page.state = state;
  connection.seenVersion(state.version);
  history.record(state);
  clocks.update(state.clock);
  if (speak && previous) announceChange(previous, state);
  if (state.status !== 'playing' && page.role !== 'spectator') rememberGame(gameId, { over: true });
  render();
}

function announceChange(previous, state) {
  const sentences = [];
  if (state.ply === previous.ply + 1 && state.last_move) {
    sentences.push(describeMove(previous.fen, state.last_move));
  } else if (state.ply < previous.ply) {
    const taken = previous.ply - state.ply;
    sentences.push(`Takeback: ${taken === 1 ? 'one move' : `${taken} moves`} taken back`);
  }
  if (state.status !== previous.status) sentences.push(describeResult(state));
  const offersBefore = describeOffers(previous, page.role);
  sentences.push(
    ...describeOffers(state, page.role).filter((text) => !offersBefore.includes(text)),
  );
  if (sentences.length > 0) announce($('#announcer'), sentences.join('. '));
}

function goToRematch(data) {
  rememberGame(data.rematch, { color: data.color, opponent: page.state?.opponent });
  window.location.href = `/game/${data.rematch}?seat=${encodeURIComponent(data.seat)}`;
}

const CONNECTION_TEXT = {
  connecting: 'Connecting…',
  joining: 'Joining the game…',
  connected: 'Connected',
  reconnecting: 'Connection lost: reconnecting…',
};

function showConnection(status, detail) {
  const element = $('#connection');
  element.dataset.state = status;
  element.textContent = CONNECTION_TEXT[status] ?? `Error: ${detail}`;
  const connected = status === 'connected';
  if (connected !== page.connected) {
    // No moves offered while the server cannot hear them; a move in flight goes back.
    page.connected = connected;
    render();
  }
}

// -- drawing -----------------------------------------------------------------------------

/** The position on view: the live one, or an earlier one while stepping through the game. */
function viewedPosition() {
  const { state, viewPly } = page;
  if (viewPly === null)
    return { ply: state.ply, fen: state.fen, check: state.check, threats: state.threats };
  return history.get(viewPly);
}

function render() {
  const { state, role } = page;
  if (!state) return;
  const position = viewedPosition();
  if (!position) {
    fetchEarlier(page.viewPly);
    return;
  }
  const live = page.viewPly === null;
  const lastUci = position.ply > 0 ? state.moves[position.ply - 1]?.uci : null;
  board.show({
    fen: position.fen,
    turn: position.fen.split(' ')[1] === 'b' ? 'black' : 'white',
    lastMove: lastUci ? [lastUci.slice(0, 2), lastUci.slice(2, 4)] : null,
    check: position.check,
    dests:
      live && page.connected && state.status === 'playing' && state.turn === role
        ? state.dests
        : null,
  });
  overlay.render({
    threats: position.threats,
    fen: position.fen,
    perspective: overlayPerspective(),
    orientation: board.orientation(),
    mode: overlayControl.mode(),
  });
  renderPanel(position, live);
}

/** Whose threats are "mine": the player's colour; for a spectator, the side at the bottom. */
function overlayPerspective() {
  if (page.role === 'white' || page.role === 'black') return page.role;
  return board.orientation();
}

function renderPanel(position, live) {
  const { state, role } = page;
  renderStatus(root, state, role);
  renderMoves($('#moves'), state.moves, state.start_fen, position.ply, stepTo);
  actions.render(state, role);
  $('#typed-move').hidden = role === 'spectator' || state.status !== 'playing';
  renderInvite($('#invite-row'), $('#invite-link'), inviteUrl(), state, role);
  const note = $('#history-note');
  note.hidden = live && position.threats !== null;
  const after = position.ply === 0 ? 'the start' : state.moves[position.ply - 1].san;
  note.textContent = live
    ? ''
    : `Viewing the position after ${after}. Press » to return to the game.`;
  if (!position.threats) note.textContent += ' The threat map of this position is not available.';
  root.dataset.viewPly = String(position.ply);
  Object.assign(root.dataset, {
    ply: state.ply,
    version: state.version,
    status: state.status,
    role,
  });
  root.dataset.fen = position.fen;
}

async function fetchEarlier(ply) {
  const position = await history.fetch(ply);
  if (page.viewPly !== ply) return;
  if (position) {
    render();
  } else {
    $('#history-note').hidden = false;
    const san = page.state.moves[ply - 1]?.san ?? 'the start';
    $('#history-note').textContent = `The position after ${san} is not available from the server.`;
  }
}

function inviteUrl() {
  const invite = findGame(gameId)?.invite;
  return invite ? new URL(invite, window.location.origin).href : null;
}

// -- acting ------------------------------------------------------------------------------

async function playBoardMove(orig, dest) {
  const { state, role } = page;
  if (!state || !state.dests || page.viewPly !== null) {
    board.restore();
    return;
  }
  let uci = `${orig}${dest}`;
  if ((state.promotions?.[orig] ?? []).includes(dest)) {
    const piece = await askPromotion($('#promotion'), role);
    if (!piece) {
      board.restore();
      return;
    }
    uci += piece;
  }
  await sendMove(uci);
}

/** Send `uci`; a refusal or a missing answer puts the position back and says why. */
async function sendMove(uci) {
  $('#move-error').textContent = '';
  return settleMove(await connection.request('move', { ply: page.state.ply, uci }));
}

/** After the server's answer to a move: back to the live position, or the move goes back. */
function settleMove(reply) {
  if (reply.ok && page.viewPly !== null) stepTo(page.state.ply);
  if (!reply.ok) {
    $('#move-error').textContent =
      reply.code === 'timeout'
        ? 'The server did not answer the move in time; ' +
          'the board shows the last position it confirmed.'
        : reply.error;
    board.restore();
  }
  return reply.ok;
}

/**
 * A typed move. SAN goes to the server as `san` for it to parse; a server without that field
 * answers "unknown field", and from then on the SAN is matched against its listed moves here.
 */
async function playTypedMove(text) {
  $('#move-error').textContent = '';
  const parsed = parseTypedMove(text, page.state);
  if (parsed.san && page.serverParsesSan !== false) {
    const reply = await connection.request('move', { ply: page.state.ply, san: parsed.san });
    page.serverParsesSan = !(reply.code === 'bad_request' && /unknown field/.test(reply.error));
    if (page.serverParsesSan) return settleMove(reply);
  }
  if (parsed.error) {
    $('#move-error').textContent = parsed.error;
    return false;
  }
  return sendMove(parsed.uci);
}

function stepTo(ply) {
  page.viewPly = ply >= page.state.ply ? null : Math.max(0, ply);
  render();
}

function step(where) {
  if (!page.state) return;
  const current = page.viewPly ?? page.state.ply;
  const target = { first: 0, previous: current - 1, next: current + 1, last: page.state.ply }[
    where
  ];
  stepTo(target);
}

$('#typed-move').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('#typed-move-input');
  if (await playTypedMove(input.value)) input.value = '';
});

$('#flip').addEventListener('click', () => {
  board.flip();
  render();
});
wireStepping(document, step);
$('#watch-link').value = new URL(`/game/${gameId}`, window.location.origin).href;
wireCopyButton($('#copy-watch'), () => $('#watch-link').value, $('#link-feedback'));
wireCopyButton($('#copy-invite'), () => $('#invite-link').value, $('#link-feedback'));
wireCopyButton($('#copy-fen'), () => root.dataset.fen ?? '', $('#link-feedback'));
$('#download-pgn').addEventListener('click', () => downloadPgn(gameId, $('#link-feedback')));
