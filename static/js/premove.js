// @ts-check
/**
 * Premoves, as on lichess: while the opponent (or the computer) is to move, the player may
 * queue one move; chessground shows it on the board and offers its squares by its own premove
 * geometry. The move goes to the server at once (`premove`, docs/protocol.md), which plays it
 * the moment the player's turn comes if it is legal then, or drops it and says why. A click
 * elsewhere on the board or a right-click cancels it (chessground's own gestures), and the
 * server is told (`premove` with null).
 *
 * The page takes the premove off the board when it is settled: played (the state two plies on),
 * dropped (the server's notice), or overtaken (a takeback, the game over).
 */
import { refusalText } from './client.js';
import { t } from './i18n.js';

/**
 * `board`: {cancelPremove()}; `send(move)` asks the server to queue `move` (UCI, or null to
 * cancel) and resolves with its reply; `say(text)` shows a notice to the player; `mark(uci)`
 * records the premove the server holds (null: none), for whoever reads the page.
 * @param {object} hooks
 * @param {{cancelPremove: () => void}} hooks.board
 * @param {(move: string | null) => Promise<import('./client.js').Reply>} hooks.send
 * @param {(text: string) => void} hooks.say
 * @param {(uci: string | null) => void} [hooks.mark]
 */
export function createPremoves({ board, send, say, mark = () => {} }) {
  /** @type {{uci: string, ply: number} | null} */
  let queued = null; // {uci, ply}: the premove sent and the ply it was made at

  /** Take the premove off the board without telling the server (it knows already). */
  function forget() {
    queued = null;
    mark(null);
    board.cancelPremove(); // its unset event finds nothing queued: nothing is sent
  }

  return {
    /**
     * chessground set a premove (`orig`, `dest`) or cancelled it (`orig` null).
     * @param {string | null} orig
     * @param {string | undefined} dest
     * @param {number} ply
     */
    async changed(orig, dest, ply) {
      if (orig === null) {
        if (queued === null) return;
        queued = null;
        await send(null);
        if (queued === null) mark(null); // once the server has forgotten it
        return;
      }
      const mine = { uci: `${orig}${dest}`, ply };
      queued = mine;
      const reply = await send(mine.uci);
      if (queued !== mine) return; // replaced or settled meanwhile
      if (!reply.ok) {
        say(t('Premove {move} not kept: {why}', { move: mine.uci, why: refusalText(reply) }));
        forget();
      } else if (reply.played) {
        forget(); // it was the player's turn already: played as a move
      } else {
        mark(mine.uci);
      }
    },
    /**
     * A new state came: settle the premove it played or made pointless.
     * @param {import('./wire.js').GameState} state
     */
    received(state) {
      if (queued === null) return;
      const played = state.ply >= queued.ply + 2;
      const overtaken = state.ply < queued.ply || state.status !== 'playing';
      if (played || overtaken) forget();
    },
    /**
     * The server dropped the premove (`premove` notice): it was not legal on the turn.
     * @param {{dropped: string, reason: string}} notice
     */
    dropped(notice) {
      if (queued === null || notice.dropped !== queued.uci) return;
      // The page's own words: the server's `reason` is English, said once for every reader.
      say(t('Premove {move} not played: it is not legal in the new position', { move: notice.dropped }));
      forget();
    },
    /** Forget the premove (the page joined again: the server forgot it too). */
    reset() {
      if (queued !== null) forget();
    },
    pending: () => queued?.uci ?? null,
  };
}
