// @ts-check
/**
 * The game page: wires the connection, the board, the overlays and the side panel together.
 *
 * It holds the page's own state (the latest server state, the role, which ply is on view)
 * and redraws every part from it. The server decides everything about chess: the page shows
 * the positions, destinations, threat maps, insight and results it sends, and a move the
 * server refuses or never acknowledges goes back on the board. While a piece is held over a
 * destination the overlay shows the server's preview of the position after that move. While
 * the opponent is to move the player may queue a premove (premove.js); moves, captures,
 * checks, low time and the end of the game sound (sounds.js) unless muted.
 */
import { connectToGame } from './connection.js';
import { refusalText } from './client.js';
import { createBoard } from './board.js';
import { askPromotion } from './promotion.js';
import { preferences } from './preferences.js';
import { createChat } from './chat.js';
import { createHistory } from './history.js';
import { parseTypedMove } from './notation.js';
import { uciToMove } from '/vendor/chessground/util.js';
import { announce, describeLastMove, describeSanOnly } from './announce.js';
import { rememberGame, findGame } from './storage.js';
import { createThreatOverlay, OVERLAY_BRUSHES } from './overlays/threats.js';
import { createOverlayControl } from './overlays/control.js';
import { CHANGE_BRUSHES, describeChange, renderChangeLegend } from './overlays/change.js';
import { createPreview } from './overlays/preview.js';
import { createSquareFocus } from './panel/squares.js';
import { renderStatus, describeResult, describeOffers } from './panel/status.js';
import { renderMoves, wireStepping } from './panel/moves.js';
import { createClocks } from './panel/clock.js';
import { createStrips } from './panel/strips.js';
import { createSounds, soundFor } from './sounds.js';
import { createPremoves } from './premove.js';
import { createActions } from './panel/actions.js';
import { wireCopyButton, downloadPgn, renderInvite, renderAnalyseLink } from './panel/links.js';
import { createGameReview } from './review/request.js';
import { keptName } from './lobby/name.js';
import { $ } from './dom.js';
import { t, tn } from './i18n.js';

const root = $('main.game');
const gameId = /** @type {string} */ (root.dataset.game); // the template writes it

/** @typedef {import('./wire.js').GameState} GameState */
/** @typedef {import('./wire.js').WireObject} WireObject */
/** @typedef {import('./wire.js').Color} Color */
/** @typedef {import('/vendor/chessground/types.js').Key} Key */
/**
 * A position the page shows: the live state's, or an earlier one from the history.
 * @typedef {{
 *   ply: number,
 *   fen: string,
 *   check?: boolean,
 *   checked_king?: Key | null,
 *   threats: WireObject | null,
 *   insight?: WireObject | null,
 *   preview?: WireObject,
 * }} Shown
 */

// `role` is '' until the server answers the join ('white', 'black' or 'spectator' then).
/**
 * @type {{
 *   state: GameState | null,
 *   role: string,
 *   viewPly: number | null,
 *   oriented: boolean,
 *   connected: boolean,
 *   preview: WireObject | null,
 * }}
 */
const page = {
  state: null,
  role: '',
  viewPly: null,
  oriented: false,
  connected: false,
  preview: null,
};
const history = createHistory(gameId);
/** The state last received: the page acts on the game only once it has one. */
const live = () => /** @type {GameState} */ (page.state);
const board = createBoard($('#board'), {
  onMove: playBoardMove,
  onSelect: markSafety,
  onPremove: (orig, dest) => premoves.changed(orig, dest, page.state?.ply ?? 0),
  brushes: { ...OVERLAY_BRUSHES, ...CHANGE_BRUSHES },
  frame: $('.board-frame'),
});
const overlay = createThreatOverlay($('#threat-grid'), $('#threat-heat'), board);
const overlayControl = createOverlayControl(
  $('#overlay-modes'),
  $('#overlay-density'),
  $('#overlay-note'),
  () => render(),
);
const sounds = createSounds($('#sound'));
const clocks = createClocks({ white: $('#clock-white'), black: $('#clock-black') }, (color) => {
  if (color === page.role) sounds.play('lowtime');
});
const strips = createStrips({ white: $('#strip-white'), black: $('#strip-black') });
const connection = connectToGame(gameId, {
  onStatus: showConnection,
  onJoined: receiveJoin,
  onState: (state) => receiveState(state, true),
  onRematch: goToRematch,
  onPremove: (notice) => premoves.dropped(notice),
  // The name this browser has from the lobby: the server keeps it for an invited friend's
  // seat (once). A friend who never saw the lobby sends none and stays "Black" or "White".
  name: keptName(),
});
const premoves = createPremoves({
  board,
  send: (move) => connection.request('premove', { move }),
  say: (text) => {
    $('#move-error').textContent = text;
  },
  mark: (uci) => {
    root.dataset.premove = uci ?? '';
  },
});
const gameReview = createGameReview(
  { button: $('#request-review'), link: $('#review-link'), feedback: $('#link-feedback') },
  gameId,
);
const actions = createActions($('#actions'), $('#action-error'), connection.request);
const chat = createChat(connection.request);
connection.on('chat', (line) => chat.received(line));
const preview = createPreview($('#board'), {
  board,
  targetOf: previewTarget,
  ask: (uci) => connection.request('preview', { ply: live().ply, uci }),
  show: (found) => {
    page.preview = found;
    redrawOverlay();
  },
  clear: () => {
    if (page.preview === null) return;
    page.preview = null;
    redrawOverlay();
  },
});
const squares = createSquareFocus($('#square-focus'), $('#square-description'), (square) =>
  connection.request('describe', { ply: page.viewPly ?? page.state?.ply ?? 0, square }),
);

// -- receiving ---------------------------------------------------------------------------

/** @param {WireObject} reply */
function receiveJoin(reply) {
  page.role = reply.role;
  premoves.reset(); // the server forgets a seat's premove when it joins again
  chat.joined(page.role);
  overlayControl.setSpectator(page.role === 'spectator');
  if (reply.notice) $('#link-feedback').textContent = reply.notice;
  if (!page.oriented) {
    board.setOrientation(page.role === 'black' ? 'black' : 'white');
    page.oriented = true;
  }
  /** @type {{type: string, san: string, by: string}[]} */
  const missed = reply.missed ?? [];
  const missedMoves = missed.filter((change) => change.type === 'move');
  if (page.state && missedMoves.length > 0) {
    const words = missedMoves.map((change) => describeSanOnly(change, change.by)).join('. ');
    announce($('#announcer'), t('While the connection was lost: {moves}', { moves: words }));
  }
  receiveState(reply.state, false);
  if (page.role !== 'spectator') {
    rememberGame(gameId, {
      color: page.role,
      opponent: live().opponent,
      over: live().status !== 'playing',
    });
  }
}

/**
 * @param {GameState} state
 * @param {boolean} speak
 */
function receiveState(state, speak) {
  const previous = page.state;
  if (previous && state.version < previous.version) return;
  page.state = state;
  page.preview = null;
  preview.reset();
  board.markSquares({});
  connection.seenVersion(state.version);
  history.record(state);
  clocks.update(state.clock);
  if (speak && previous) {
    announceChange(previous, state);
    const sound = soundFor(previous, state);
    if (sound) sounds.play(sound);
  }
  premoves.received(state);
  if (state.status !== 'playing' && page.role !== 'spectator') rememberGame(gameId, { over: true });
  render();
}

/**
 * @param {GameState} previous
 * @param {GameState} state
 */
function announceChange(previous, state) {
  /** @type {string[]} */
  const sentences = [];
  if (state.ply === previous.ply + 1 && state.last_move) {
    sentences.push(describeLastMove(state));
  } else if (state.ply < previous.ply) {
    const taken = previous.ply - state.ply;
    sentences.push(tn('Takeback: one move taken back', 'Takeback: {n} moves taken back', taken));
  }
  if (state.status !== previous.status) sentences.push(describeResult(state));
  const offersBefore = describeOffers(previous, page.role);
  sentences.push(
    ...describeOffers(state, page.role).filter((text) => !offersBefore.includes(text)),
  );
  if (sentences.length > 0) announce($('#announcer'), sentences.join('. '));
}

/** @param {WireObject} data */
function goToRematch(data) {
  rememberGame(data.rematch, { color: data.color, opponent: page.state?.opponent });
  window.location.href = `/game/${data.rematch}?seat=${encodeURIComponent(data.seat)}`;
}

/** @type {Record<string, string>} */
const CONNECTION_TEXT = {
  connecting: t('Connecting…'),
  joining: t('Joining the game…'),
  connected: t('Connected'),
  reconnecting: t('Connection lost: reconnecting…'),
};

/**
 * @param {string} status
 * @param {string} [detail]
 */
function showConnection(status, detail) {
  const element = $('#connection');
  element.dataset.state = status;
  element.textContent = CONNECTION_TEXT[status] ?? t('Error: {detail}', { detail: detail ?? '' });
  const connected = status === 'connected';
  if (connected !== page.connected) {
    // No moves offered while the server cannot hear them; a move in flight goes back.
    page.connected = connected;
    render();
  }
}

// -- drawing -----------------------------------------------------------------------------

/**
 * The position on view: the live one, or an earlier one while stepping through the game.
 * @returns {Shown | null}
 */
function viewedPosition() {
  const { viewPly } = page;
  if (viewPly === null) {
    const { ply, fen, check, checked_king, threats, insight } = live();
    return { ply, fen, check, checked_king, threats, insight };
  }
  return /** @type {Shown | null} */ (history.get(viewPly));
}

function render() {
  const { state, role } = page;
  if (!state) return;
  const position = viewedPosition();
  if (!position) {
    fetchEarlier(/** @type {number} */ (page.viewPly));
    return;
  }
  const live = page.viewPly === null;
  const lastUci = position.ply > 0 ? state.moves[position.ply - 1]?.uci : null;
  const acting = live && page.connected && isPlaying(state, role);
  board.show({
    fen: position.fen,
    turn: position.fen.split(' ')[1] === 'b' ? 'black' : 'white',
    lastMove: /** @type {[Key, Key] | undefined} */ (uciToMove(lastUci)) ?? null,
    check: position.check,
    dests: acting && state.turn === role ? state.dests : null,
    player: acting ? /** @type {Color} */ (role) : null,
  });
  strips.render(state, role, board.orientation(), position.fen);
  renderOverlay(overlaidPosition(position));
  squares.layout(board.orientation());
  renderPanel(position, live);
  squares.refresh();
}

/**
 * Whether `role` is a seat of the game in play (not a spectator, not after the end).
 * @param {GameState} state
 * @param {string} role
 */
function isPlaying(state, role) {
  return (role === 'white' || role === 'black') && state.status === 'playing';
}

/** Only the overlay, not the board: chessground is in the middle of a drag. */
function redrawOverlay() {
  const position = page.state && viewedPosition();
  if (position) renderOverlay(overlaidPosition(position));
}

/**
 * What the overlay shows: the position on view, or while a piece is held over a destination
 * of the live position, the server's preview of the position after that move (it has no
 * x-rays; its pins and change take the place of the insight's).
 */
/**
 * @param {Shown} position
 * @returns {Shown}
 */
function overlaidPosition(position) {
  const found = page.viewPly === null ? page.preview : null;
  if (!found) return position;
  const insight = { xrays: null, pins: found.pins, change: found.change };
  return {
    ply: position.ply,
    fen: found.fen,
    checked_king: found.checked_king,
    threats: found.threats,
    insight,
    preview: found,
  };
}

/** @param {Shown} position */
function renderOverlay(position) {
  const mode = overlayControl.mode();
  const perspective = overlayPerspective();
  const change = describeChange(position.insight?.change ?? null, mode, perspective);
  overlay.render({
    threats: position.threats,
    xrays: position.insight?.xrays ?? null,
    pins: position.insight?.pins ?? null,
    fen: position.fen,
    checkedKing: position.checked_king ?? null,
    perspective,
    orientation: board.orientation(),
    mode,
    density: overlayControl.density(),
    extraShapes: change.shapes,
  });
  const found = position.preview;
  const title = found
    ? t('If you play {move} ({safety}): the position after it', {
        move: found.move,
        safety: found.safety,
      })
    : t('What the last move changed');
  renderChangeLegend($('#change-legend'), title, change.lines);
  root.dataset.preview = found ? found.move : '';
}

/**
 * Mark each destination of the piece on `square` safe, contested or losing (from `safety`).
 * @param {string} square
 */
function markSafety(square) {
  const labels = page.viewPly === null ? page.state?.safety?.[square] : null;
  /** @type {Record<string, string>} */
  const classes = {};
  for (const [target, label] of Object.entries(labels ?? {})) classes[target] = `safety-${label}`;
  board.markSquares(classes);
}

/**
 * The UCI to preview when the piece on `from` is held over `square`, or null.
 * @param {string} from
 * @param {string | null} square
 */
function previewTarget(from, square) {
  const { state } = page;
  // Nothing to show with the overlay off: then the server is not asked either.
  if (!state?.dests || page.viewPly !== null || !square || overlayControl.mode() === 'off') {
    return null;
  }
  if (!(state.dests[from] ?? []).includes(square)) return null;
  const promotes = (state.promotions?.[from] ?? []).includes(square);
  return `${from}${square}${promotes ? 'q' : ''}`;
}

/** Whose threats are "mine": the player's colour; for a spectator White's, so that the
 * buttons named "White's threats" and "Black's threats" keep their meaning when flipped. */
function overlayPerspective() {
  if (page.role === 'white' || page.role === 'black') return page.role;
  return 'white';
}

/**
 * @param {Shown} position
 * @param {boolean} live
 */
function renderPanel(position, live) {
  const { role } = page;
  const state = /** @type {GameState} */ (page.state);
  renderStatus(root, state, role);
  renderMoves($('#moves'), state.moves, state.start_fen, position.ply, stepTo);
  actions.render(state, role);
  $('#typed-move').hidden = role === 'spectator' || state.status !== 'playing';
  renderAssisted(state, role);
  renderInvite($('#invite-row'), $('#invite-link'), inviteUrl(), state, role);
  renderAnalyseLink($('#analyse-link'), state, role);
  gameReview.render(state);
  const note = $('#history-note');
  note.hidden = live && position.threats !== null;
  const viewing =
    position.ply === 0
      ? t('Viewing the start position.')
      : t('Viewing the position after {move}.', { move: state.moves[position.ply - 1].san });
  const back = isPlaying(state, role)
    ? t('Touch the board or press » to return to the game and move.')
    : t('Press » to return to the game.');
  note.textContent = live ? '' : `${viewing} ${back}`;
  if (!position.threats) {
    note.textContent += ` ${t('The threat map of this position is not available.')}`;
  }
  root.dataset.viewPly = String(position.ply);
  Object.assign(root.dataset, {
    ply: state.ply,
    version: state.version,
    status: state.status,
    role,
  });
  root.dataset.fen = position.fen;
}

/** @param {number} ply */
async function fetchEarlier(ply) {
  const position = await history.fetch(ply);
  if (page.viewPly !== ply) return;
  if (position) {
    render();
  } else {
    $('#history-note').hidden = false;
    const san = live().moves[ply - 1]?.san;
    $('#history-note').textContent = san
      ? t('The position after {move} is not available from the server.', { move: san })
      : t('The start position is not available from the server.');
  }
}

/**
 * Whether the game is assisted (or rated, never assisted), for everyone; an unassisted game's
 * players get no overlays.
 * @param {GameState} state
 * @param {string} role
 */
function renderAssisted(state, role) {
  if (state.rated) {
    $('#assisted').textContent = t(
      'Rated game: no threat overlays for anyone until it has ended.',
    );
  } else {
    $('#assisted').textContent = state.assisted
      ? t('Assisted game: threat overlays are allowed for the players.')
      : t('Unassisted game: no threat overlays for the players.');
  }
  root.dataset.assisted = String(state.assisted);
  const player = role === 'white' || role === 'black';
  overlayControl.disable(
    player && !state.assisted
      ? t('Threat overlays are off for the players of an unassisted game (spectators have them).')
      : null,
  );
}

function inviteUrl() {
  const invite = findGame(gameId)?.invite;
  return invite ? new URL(invite, window.location.origin).href : null;
}

// -- acting ------------------------------------------------------------------------------

/**
 * @param {string} orig
 * @param {string} dest
 */
async function playBoardMove(orig, dest) {
  const { state, role } = page;
  if (!state || !state.dests || page.viewPly !== null) {
    board.restore();
    return;
  }
  let uci = `${orig}${dest}`;
  if ((state.promotions?.[orig] ?? []).includes(dest)) {
    // "Promote to a queen without asking", the player's preference (preferences.js).
    const piece = preferences().auto_queen ? 'q' : await askPromotion($('#promotion'), role);
    if (!piece) {
      board.restore();
      return;
    }
    uci += piece;
  }
  await sendMove(uci);
}

/**
 * Send `uci`; a refusal or a missing answer puts the position back and says why.
 * @param {string} uci
 */
async function sendMove(uci) {
  $('#move-error').textContent = '';
  return settleMove(await connection.request('move', { ply: live().ply, uci }));
}

/**
 * After the server's answer to a move: back to the live position, or the move goes back.
 * @param {import('./client.js').Reply} reply
 */
function settleMove(reply) {
  if (reply.ok && page.viewPly !== null) stepTo(live().ply);
  if (!reply.ok) {
    $('#move-error').textContent =
      reply.code === 'timeout'
        ? t(
            'The server did not answer the move in time; the board shows the last position it confirmed.',
          )
        : refusalText(reply);
    board.restore();
  }
  return reply.ok;
}

/**
 * A typed move: UCI goes as `uci`, SAN as `san`; the server reads and judges both.
 * @param {string} text
 */
async function playTypedMove(text) {
  $('#move-error').textContent = '';
  const parsed = parseTypedMove(text);
  if (parsed.error) {
    $('#move-error').textContent = parsed.error;
    return false;
  }
  if (parsed.uci) return sendMove(parsed.uci);
  return settleMove(await connection.request('move', { ply: live().ply, san: parsed.san }));
}

/** @param {number} ply */
function stepTo(ply) {
  page.viewPly = ply >= live().ply ? null : Math.max(0, ply);
  render();
}

/** @param {string} where */
function step(where) {
  if (!page.state) return;
  const current = page.viewPly ?? live().ply;
  /** @type {Record<string, number>} */
  const targets = { first: 0, previous: current - 1, next: current + 1, last: live().ply };
  const target = targets[where];
  stepTo(target);
}

$('#typed-move').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('#typed-move-input', HTMLInputElement);
  if (await playTypedMove(input.value)) input.value = '';
});

// A player who touches the board while looking at an earlier position wants to move: back to
// the game (and the same touch picks up the piece, as the board is live again when
// chessground reads it). Capture phase: before chessground's own handler.
for (const type of ['mousedown', 'touchstart']) {
  $('#board').addEventListener(
    type,
    () => {
      const { state, role } = page;
      if (!state || page.viewPly === null || !isPlaying(state, role)) return;
      stepTo(state.ply);
      $('#move-error').textContent = t(
        'Back to the game: you were looking at an earlier position.',
      );
    },
    { capture: true, passive: true },
  );
}

$('#flip').addEventListener('click', () => {
  board.flip();
  render();
});
wireStepping(document, step);
$('#watch-link', HTMLInputElement).value = new URL(`/game/${gameId}`, window.location.origin).href;
wireCopyButton($('#copy-watch'), () => $('#watch-link', HTMLInputElement).value, $('#link-feedback'));
wireCopyButton($('#copy-invite'), () => $('#invite-link', HTMLInputElement).value, $('#link-feedback'));
wireCopyButton($('#copy-fen'), () => root.dataset.fen ?? '', $('#link-feedback'));
$('#download-pgn').addEventListener('click', () => downloadPgn(gameId, $('#link-feedback')));
$('#download-annotated-pgn').addEventListener('click', () =>
  downloadPgn(gameId, $('#link-feedback'), true),
);
for (const type of ['mouseup', 'touchend']) {
  // A piece put back or dropped: its destinations' safety marks go with it. chessground
  // settles the drop on these same events, hence the wait for its handler.
  document.addEventListener(type, () => {
    window.setTimeout(() => {
      if (!board.selected()) board.markSquares({});
    }, 0);
  });
}
