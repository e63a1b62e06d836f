// @ts-check
/**
 * Watch: the list of games in play (names, time control, moves) and the "TV", the most active
 * game live on a small view-only board, fed by joining it as a spectator over the lobby's
 * connection (the `join` event, its `state` messages). When the game on TV ends, it stays a
 * moment, then the TV moves to the most active game then; when it goes quiet (the server marks
 * a game without a change for a while: its players may have closed the tab) while another is
 * livelier, the TV moves at once. Names are text, never markup.
 */
import { Chessground } from '/vendor/chessground/chessground.min.js';
import { $ } from '../dom.js';
import { t, tn } from '../i18n.js';

const SWITCH_AFTER_END_MS = 3000;

/** @typedef {import('/vendor/chessground/types.js').Key} Key */

/** @typedef {import('../wire.js').WireObject} WatchedGame */
/**
 * @typedef {{
 *   games: WatchedGame[],
 *   tv: string | null,
 * }} Watched the games to watch, the server's choice for TV
 */

/**
 * @param {{kind?: string, name?: string | null}} player
 * @param {number | null | undefined} level
 */
function playerName(player, level) {
  if (player.kind === 'computer') return t('Computer (level {level})', { level: level ?? 1 });
  return player.name ?? t('Anonymous');
}

/** @param {(event: string, payload?: object) => Promise<import('../client.js').Reply>} request */
export function makeTv(request) {
  const board = Chessground($('#tv-board'), { viewOnly: true, coordinates: false, fen: 'start' });
  /** @type {string | null} */
  let current = null;
  let ended = false;
  /** @type {Watched} */
  let latest = { games: [], tv: null };

  /** @param {WatchedGame[]} games */
  function showWatchList(games) {
    const list = $('#watch-list');
    list.replaceChildren();
    $('#watch-title').hidden = games.length === 0;
    for (const game of games) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `/game/${game.game}`;
      const white = playerName(game.players.white, game.level);
      const black = playerName(game.players.black, game.level);
      link.textContent = `${white} – ${black}`;
      const moves = Math.ceil(game.plies / 2);
      item.append(link, ` · ${game.control ?? t('no clock')} · ${tn('{n} move', '{n} moves', moves)}`);
      item.dataset.game = game.game;
      list.append(item);
    }
  }

  /** @param {import('../wire.js').GameState} state */
  function showState(state) {
    if (state.game !== current) return;
    const last = state.last_move?.uci;
    const lastMove = last ? /** @type {Key[]} */ ([last.slice(0, 2), last.slice(2, 4)]) : undefined;
    board.set({ fen: state.fen, lastMove });
    $('#tv-top').textContent = playerName(state.players.black, state.level);
    $('#tv-bottom').textContent = playerName(state.players.white, state.level);
    $('#tv').dataset.ply = String(state.ply);
    if (state.status !== 'playing' && !ended) {
      ended = true;
      setTimeout(async () => {
        const reply = await request('lobby_games');
        if (reply.ok) update(reply, true);
      }, SWITCH_AFTER_END_MS);
    }
  }

  /** @param {string | null} gameId */
  async function tune(gameId) {
    if (current) request('leave', { game: current });
    current = gameId;
    ended = false;
    $('#tv').hidden = gameId === null;
    $('#no-tv').hidden = gameId !== null;
    if (gameId === null) return;
    $('#tv').dataset.game = gameId;
    $('#tv-link', HTMLAnchorElement).href = `/game/${gameId}`;
    const reply = await request('join', { game: gameId });
    if (reply.ok) showState(reply.state);
  }

  /**
   * A new watch list: switch only if nothing is on, or the game on TV ended, is gone, or went
   * quiet while the server's choice is another game.
   * @param {Watched | import('../client.js').Accepted} watched
   * @param {boolean} [force]
   */
  function update({ games, tv }, force = false) {
    latest = { games, tv };
    showWatchList(games);
    const shown = games.find((/** @type {WatchedGame} */ game) => game.game === current);
    const gone = current !== null && shown === undefined;
    const quiet = shown !== undefined && shown.quiet && tv !== current;
    if (current === null || ended || gone || quiet || force) {
      const next = tv === current && (ended || gone) ? null : tv;
      if (next !== current || force) tune(next);
    }
  }

  return { update, showState, get latest() { return latest; } };
}
