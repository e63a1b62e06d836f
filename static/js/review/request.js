// @ts-check
/**
 * Asking for a review from the other pages (`POST /api/reviews`, docs/protocol.md): the game
 * page's "Request a computer analysis" once a game is over (at once, as a link, for a game
 * against the computer created with "Review the game when it ends"), and the analysis board's
 * "Review this game", which sends its main line as PGN. The server answers with the review's
 * id (the same id for a game or PGN already reviewed); the page then opens /review/<id>.
 */
import { refusalText, requestJson, requestText } from '../client.js';
import { findGame, rememberGame } from '../storage.js';
import { t } from '../i18n.js';

/** @typedef {import('../client.js').Refusal} Refusal */

/**
 * POST `body` ({game} or {pgn}); resolves {ok: true, id} or a refusal.
 * @param {{game: string} | {pgn: string}} body
 * @returns {Promise<{ok: true, id: string} | Refusal>}
 */
export async function requestReview(body) {
  const reply = await requestJson('/api/reviews', body);
  return reply.ok ? { ok: true, id: reply.id } : reply;
}

/** @param {string} id */
export const reviewUrl = (id) => `/review/${encodeURIComponent(id)}`;

/**
 * The game page's review button and link (`elements`: {button, link, feedback}) for game
 * `gameId`. Returns render(state): nothing while the game is played; after it, the link when
 * the review is known (asked for at once for a game marked `review` in this browser's list
 * of games), else the button.
 * @param {{button: HTMLButtonElement, link: HTMLAnchorElement, feedback: HTMLElement}} elements
 * @param {string} gameId
 */
export function createGameReview(elements, gameId) {
  let asked = false;
  let lookedUp = false;

  /** A game reviewed already (by a player, or anyone): its link, for a spectator too. */
  async function lookUp() {
    lookedUp = true;
    const reply = await requestJson(`/api/reviews/game/${encodeURIComponent(gameId)}`);
    if (reply.ok && typeof reply.id === 'string') showLink(reply.id);
  }

  /** @param {string} id */
  function showLink(id) {
    elements.link.href = reviewUrl(id);
    elements.link.hidden = false;
    elements.button.hidden = true;
  }

  async function ask() {
    asked = true;
    elements.button.disabled = true;
    const reply = await requestReview({ game: gameId });
    elements.button.disabled = false;
    if (!reply.ok) {
      asked = false;
      elements.feedback.textContent = t('Could not request the analysis: {why}', {
        why: refusalText(reply),
      });
      return null;
    }
    rememberGame(gameId, { reviewId: reply.id });
    showLink(reply.id);
    return reply.id;
  }

  elements.button.addEventListener('click', async () => {
    const id = await ask();
    if (id) window.location.href = reviewUrl(id);
  });

  return {
    /** @param {import('../wire.js').GameState} state */
    render(state) {
      const over = state.status !== 'playing';
      const known = findGame(gameId);
      if (!over) {
        elements.button.hidden = true;
        elements.link.hidden = true;
        return;
      }
      if (known?.reviewId) showLink(known.reviewId);
      else if (known?.review && !asked) ask();
      else if (!lookedUp) lookUp().then(() => (elements.button.hidden = !elements.link.hidden));
      else if (elements.link.hidden) elements.button.hidden = false;
    },
  };
}

/**
 * The analysis board's "Review this game": the main line of `tree` (its headers, no
 * variations) as PGN, written by the server (`POST /api/analysis/export`), then reviewed.
 * Resolves {ok: true, id} or a refusal.
 * @param {import('../analysis/tree.js').AnalysisTree} tree
 * @returns {Promise<{ok: true, id: string} | Refusal>}
 */
export async function reviewMainLine(tree) {
  const whole = tree.toExport();
  /** @type {typeof whole.nodes} */
  const nodes = [{ ...whole.nodes[0], children: [] }];
  for (let index = whole.nodes[0].children[0]; index !== undefined; ) {
    const node = whole.nodes[index];
    nodes[nodes.length - 1].children = [nodes.length];
    nodes.push({ ...node, parent: nodes.length - 1, children: [] });
    [index] = node.children;
  }
  if (nodes.length === 1) {
    return { ok: false, code: 'no_moves', message: t('there are no moves to review') };
  }
  const pgn = await requestText('/api/analysis/export', {
    tree: { ...whole, nodes },
    annotations: false,
  });
  if (!pgn.ok) return pgn;
  return requestReview({ pgn: pgn.text });
}
