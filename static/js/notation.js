// @ts-check
/**
 * Typed moves: what to send for the text in the move box.
 *
 * UCI text (`g1f3`, `e7e8q`) goes to the server as `uci`; anything else that looks like a move
 * goes as `san`, for the server to read against the game's position (it answers an illegal or
 * ambiguous move with words naming the move). Nothing here knows a rule or a position.
 */
import { t } from './i18n.js';

const UCI = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/;
// Loose on purpose: the server's SAN reader decides; this only spares it obvious typos.
const LOOKS_LIKE_SAN =
  /^([NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=?[NBRQnbrq])?|[O0]-[O0](-[O0])?)[+#!?]*$/;

/**
 * {uci} for UCI text, {san} for SAN-like text, {error} for anything else.
 * @param {string} text
 */
export function parseTypedMove(text) {
  const typed = text.trim();
  if (typed === '') return { error: t('Type a move first, e.g. e4, Nf3 or g1f3') };
  if (UCI.test(typed.toLowerCase())) return { uci: typed.toLowerCase() };
  if (LOOKS_LIKE_SAN.test(typed)) return { san: typed };
  return { error: t("'{typed}' is neither SAN (like Nf3) nor UCI (like g1f3)", { typed }) };
}
