// @ts-check
/**
 * Links and exports: the watch link, the invitation link (for the game's creator while the
 * friend's seat is free), copy FEN of the position on view, download the PGN, and the link
 * to the analysis board.
 */
import { refusalText, requestFile } from '../client.js';
import { t } from '../i18n.js';

/**
 * Copy `text`; resolves true when the clipboard took it.
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// How long "Copied: ..." stays; "Copy this by hand" stays until the next message, as the
// text in it is still needed.
const COPIED_MS = 3000;

/**
 * A copy button that writes `getText()` to the clipboard and says so in `feedback`.
 * @param {HTMLElement} button
 * @param {() => string} getText
 * @param {HTMLElement} feedback
 */
export function wireCopyButton(button, getText, feedback) {
  button.addEventListener('click', async () => {
    const text = getText();
    const copied = await copyText(text);
    const message = copied ? t('Copied: {text}', { text }) : t('Copy this by hand: {text}', { text });
    feedback.textContent = message;
    if (copied) {
      window.setTimeout(() => {
        if (feedback.textContent === message) feedback.textContent = '';
      }, COPIED_MS);
    }
  });
}

/**
 * Fetch the game's PGN from the server and hand it to the browser as a file download;
 * `annotated`: with the threat annotations as [%csl]/[%cal] comments.
 * @param {string} gameId
 * @param {HTMLElement} feedback
 * @param {boolean} [annotated]
 */
export async function downloadPgn(gameId, feedback, annotated = false) {
  const query = annotated ? '?annotated=1' : '';
  const reply = await requestFile(`/api/games/${gameId}/pgn${query}`);
  if (!reply.ok) {
    feedback.textContent = t('Could not download the PGN: {why}', { why: refusalText(reply) });
    return;
  }
  const url = URL.createObjectURL(reply.blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `game-${gameId}${annotated ? '-annotated' : ''}.pgn`;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  URL.revokeObjectURL(url);
  feedback.textContent = annotated ? t('Annotated PGN downloaded') : t('PGN downloaded');
}

/**
 * Show the invitation row only while it is useful: the creator's friend seat is still free.
 * @param {HTMLElement} row
 * @param {HTMLInputElement} input
 * @param {string | null | undefined} inviteUrl
 * @param {import('../wire.js').GameState} state
 * @param {string} role
 */
export function renderInvite(row, input, inviteUrl, state, role) {
  const friendSeat = role === 'white' ? 'black' : 'white';
  const open = Boolean(inviteUrl) && role !== 'spectator' && !state.players[friendSeat].seated;
  row.hidden = !open;
  if (open && inviteUrl) input.value = inviteUrl;
}

/**
 * The link to analyse the game: for everyone once it is over, and for spectators during it
 * (the server refuses a player's own game while it is played).
 * @param {HTMLElement} link
 * @param {import('../wire.js').GameState} state
 * @param {string} role
 */
export function renderAnalyseLink(link, state, role) {
  link.hidden = state.status === 'playing' && role !== 'spectator';
}
