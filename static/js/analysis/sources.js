// @ts-check
/**
 * Where a tree comes from: text pasted (a FEN or a PGN), a `.pgn` file read in the browser,
 * one game chosen from a file of several, and on opening the page `?fen=`, `/analysis/<id>`
 * (a stored tree) or `/analysis/<game id>` (a game played here). The server parses and
 * judges all of it (`POST /api/analysis`, docs/protocol.md); this module only carries the
 * text there and the tree, the list to choose from or the error back.
 */
import { refusalText, requestJson } from '../client.js';
import { t, tn } from '../i18n.js';

// Pasted text is taken for a FEN when it is one line of eight ranks; anything else is PGN
// (the server says what is wrong with either).
const FEN_SHAPE = /^\s*[^\s/]+(\/[^\s/]+){7}(\s+\S+){0,5}\s*$/;

/** Whether pasted `text` reads as a FEN rather than a PGN. */
export const looksLikeFen = (/** @type {string} */ text) => FEN_SHAPE.test(text) && !text.includes('[');

/**
 * `elements`: {box (the <details> holding them), text, load, file, list, error};
 * `onTree(tree, {atEnd})` receives a loaded tree (`atEnd`: show the end of its main line).
 * Returns {open(root dataset)} for the page's first tree.
 * @param {object} elements
 * @param {HTMLDetailsElement} elements.box
 * @param {HTMLTextAreaElement} elements.text
 * @param {HTMLElement} elements.load
 * @param {HTMLInputElement} elements.file
 * @param {HTMLElement} elements.list
 * @param {HTMLElement} elements.error
 * @param {(tree: any, options?: {atEnd: boolean}) => void} onTree
 */
export function createSources(elements, onTree) {
  /** @type {object | null} */
  let pending = null; // the body of the last multi-game post, to post again with `game`

  /**
   * Say what went wrong where it is seen: the box is opened if it was closed.
   * @param {string} text
   */
  function fail(text) {
    elements.error.textContent = text;
    elements.box.open = true;
  }

  /** @param {object} body */
  async function post(body) {
    elements.error.textContent = '';
    const reply = await requestJson('/api/analysis', { ...body, store: false });
    if (!reply.ok) {
      fail(refusalText(reply));
      return false;
    }
    if (reply.choose) {
      pending = body;
      offerChoice(reply.choose);
      return true;
    }
    closeChoice();
    elements.box.open = false; // loaded: the moves take the room back
    onTree(reply.tree);
    return true;
  }

  /** @param {import('../wire.js').WireObject[]} games */
  function offerChoice(games) {
    const heading = document.createElement('p');
    heading.className = 'choose-title';
    heading.textContent = tn('This file holds {n} game: choose one.', 'This file holds {n} games: choose one.', games.length);
    const list = document.createElement('ol');
    for (const game of games) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'choose-game';
      button.dataset.index = String(game.index);
      const who = `${game.white ?? '?'} – ${game.black ?? '?'}`;
      // PGN writes unknowns as ? and ?.??
      const known = (/** @type {string | undefined} */ text) => text && !/^[?.]*$/.test(text);
      const when = [game.event, game.date].filter(known).join(', ');
      const result = game.result === '*' ? '' : game.result; // '*': no result known
      const title = [who, result].filter(Boolean).join(' ');
      const plies = tn('{n} ply', '{n} plies', game.plies);
      button.textContent = `${title}${when ? ` (${when})` : ''}, ${plies}`;
      button.addEventListener('click', () => post({ ...pending, game: game.index }));
      item.append(button);
      list.append(item);
    }
    elements.list.replaceChildren(heading, list);
    elements.list.hidden = false;
    elements.box.open = true;
  }

  function closeChoice() {
    elements.list.hidden = true;
    elements.list.replaceChildren();
  }

  elements.load.addEventListener('click', () => {
    const text = elements.text.value.trim();
    if (!text) {
      fail(t('Paste a FEN or a PGN first.'));
      return;
    }
    post(looksLikeFen(text) ? { fen: text } : { pgn: text });
  });
  elements.file.addEventListener('change', () => {
    const file = elements.file.files?.[0];
    if (!file) return;
    const reader = new FileReader();
    reader.addEventListener('load', () => post({ pgn: String(reader.result) }));
    reader.addEventListener('error', () => {
      fail(t('Could not read {file}.', { file: file.name }));
    });
    reader.readAsText(file);
    // The same file chosen again is a new choice.
    elements.file.value = '';
  });

  return {
    /**
     * The page's first tree, from the root element's data: a stored tree's id, a game's id,
     * a FEN (or `?fen=`); none: the standard start position.
     * @param {DOMStringMap} data
     */
    async open({ analysisId, gameId, fen }) {
      const queryFen = new URLSearchParams(window.location.search).get('fen');
      let reply;
      if (analysisId) reply = await requestJson(`/api/analysis/${encodeURIComponent(analysisId)}`);
      else if (gameId) reply = await requestJson(`/api/analysis/game/${encodeURIComponent(gameId)}`);
      else if (fen || queryFen) return post({ fen: fen || queryFen });
      else return post({ fen: START_FEN });
      if (!reply.ok) {
        fail(t('Could not open this analysis: {why}', { why: refusalText(reply) }));
        return false;
      }
      // A game opens where it stands, as on lichess; a shared tree at its start.
      onTree({ ...reply.tree, id: reply.id ?? null }, { atEnd: Boolean(gameId) });
      return true;
    },
  };
}

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
