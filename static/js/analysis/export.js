// @ts-check
/**
 * Out of the analysis board: the PGN of the whole tree (downloaded or copied, with the
 * threat annotations as an option, written by the server from the tree:
 * `POST /api/analysis/export`), the FEN of the node on view, and a link that reopens the
 * same tree (stored by `POST /api/analysis`, reopened at `/analysis/<id>`).
 */
import { refusalText, requestJson, requestText } from '../client.js';
import { copyText } from '../panel/links.js';
import { t } from '../i18n.js';

/**
 * `elements`: {annotations (checkbox), download, copyPgn, pgnText, copyFen, share, linkRow, link,
 * feedback};
 * `tree()` the current tree, `fen()` the FEN on view.
 * @param {object} elements
 * @param {HTMLInputElement} elements.annotations
 * @param {HTMLElement} elements.download
 * @param {HTMLElement} elements.copyPgn
 * @param {HTMLTextAreaElement} elements.pgnText
 * @param {HTMLElement} elements.copyFen
 * @param {HTMLElement} elements.share
 * @param {HTMLElement} elements.linkRow
 * @param {HTMLInputElement} elements.link
 * @param {HTMLElement} elements.feedback
 * @param {{tree: () => import('./tree.js').AnalysisTree, fen: () => string}} sources
 */
export function createExport(elements, { tree, fen }) {
  /** @param {string} text */
  const say = (text) => {
    elements.feedback.textContent = text;
  };

  async function pgn() {
    const annotations = elements.annotations.checked;
    const reply = await requestText('/api/analysis/export', { tree: tree().toExport(), annotations });
    if (!reply.ok) say(t('Could not export the PGN: {why}', { why: refusalText(reply) }));
    return reply.ok ? reply.text : null;
  }

  elements.download.addEventListener('click', async () => {
    const text = await pgn();
    if (text === null) return;
    const url = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = elements.annotations.checked ? 'analysis-annotated.pgn' : 'analysis.pgn';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    URL.revokeObjectURL(url);
    say(t('PGN downloaded'));
  });
  elements.copyPgn.addEventListener('click', async () => {
    const text = await pgn();
    if (text === null) return;
    elements.pgnText.value = text;
    elements.pgnText.hidden = false;
    say((await copyText(text)) ? t('PGN copied') : t('Copy the PGN from the box by hand'));
  });
  elements.copyFen.addEventListener('click', async () => {
    const text = fen();
    say((await copyText(text)) ? t('Copied: {text}', { text }) : t('Copy this by hand: {text}', { text }));
  });
  elements.share.addEventListener('click', async () => {
    const reply = await requestJson('/api/analysis', { tree: tree().toExport() });
    if (!reply.ok) {
      say(t('Could not store the analysis: {why}', { why: refusalText(reply) }));
      return;
    }
    const link = new URL(`/analysis/${reply.id}`, window.location.origin).href;
    elements.link.value = link;
    elements.linkRow.hidden = false;
    say((await copyText(link)) ? t('Link copied: {link}', { link }) : t('Copy the link by hand: {link}', { link }));
  });
}
