// @ts-check
/**
 * "Open in analysis board" for a review of an imported PGN, which has no game here to open:
 * the reviewed moves go to the analysis board as PGN (`POST /api/analysis`, stored under a
 * short id: docs/protocol.md), and the page opens /analysis/<id>. The PGN is only written out
 * of what the review holds (its headers, its start FEN, each ply's SAN as the server wrote it):
 * no rule of chess is needed here, the server reads and checks it.
 */
import { requestJson } from '../client.js';

/** @typedef {import('../wire.js').WireObject} Review */

/**
 * The review's game as PGN text: its headers and its main line.
 * @param {Review} review
 * @returns {string}
 */
export function reviewPgn(review) {
  /** @type {Record<string, string>} */
  const headers = { ...(review.headers ?? {}) };
  const fen = /** @type {string} */ (review.start_fen ?? '');
  const [, turn = 'w', , , , fullmove = '1'] = fen.split(' ');
  const standard = fen.startsWith('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq');
  if (fen && !standard) {
    headers.SetUp = '1';
    headers.FEN = fen;
  }
  const tags = Object.entries(headers).map(
    ([key, value]) => `[${key} "${String(value).replace(/[\\"]/g, '\\$&')}"]`,
  );
  let number = Number(fullmove) || 1;
  let white = turn === 'w';
  /** @type {string[]} */
  const words = [];
  for (const ply of /** @type {{san: string}[]} */ (review.plies ?? [])) {
    if (white) words.push(`${number}.`);
    else if (words.length === 0) words.push(`${number}...`);
    words.push(ply.san);
    if (!white) number += 1;
    white = !white;
  }
  words.push(headers.Result ?? '*');
  return `${tags.join('\n')}\n\n${words.join(' ')}\n`;
}

/**
 * Store the review's game on the analysis board: resolves its page's address, or a refusal.
 * @param {Review} review
 * @returns {Promise<{ok: true, url: string} | import('../client.js').Refusal>}
 */
export async function openInAnalysis(review) {
  const reply = await requestJson('/api/analysis', { pgn: reviewPgn(review) });
  if (!reply.ok) return reply;
  return { ok: true, url: `/analysis/${encodeURIComponent(String(reply.id))}` };
}
