// @ts-check
/**
 * The game's quick phrases (templates/chat_panel.html, docs/protocol.md "Quick phrases"): once
 * the page has joined the game it opens the chat of its audience (`chat_join`: the players' for
 * a seat, the spectators' for anyone else) and shows its recent lines; each button says its
 * phrase (`chat_say`, the phrase's key), and every `chat` line is shown in the reader's words,
 * from the page's own table of the phrases. The player's "chat" preference off: nothing is
 * opened or shown.
 */
import { refusalText } from './client.js';
import { preferences } from './preferences.js';
import { $, all } from './dom.js';
import { t } from './i18n.js';

/** @typedef {{phrase: string, by: string, name: string | null}} ChatLine */

/**
 * @param {(event: string, fields?: object) => Promise<import('./client.js').Reply>} request
 *   the game connection's request (the game's id is added)
 */
export function createChat(request) {
  const panel = $('#chat');
  /** @type {Record<string, string>} */
  const phrases = JSON.parse(panel.dataset.phrases ?? '{}');
  const enabled = preferences().chat;
  /** @type {string | null} */
  let role = null;

  /** @param {ChatLine} line */
  function speaker(line) {
    if (line.by === role) return t('You');
    if (line.by === 'white') return t('White');
    if (line.by === 'black') return t('Black');
    return line.name ?? t('Spectator');
  }

  /** @param {ChatLine} line */
  function show(line) {
    const text = phrases[line.phrase];
    if (!text) return; // a phrase this page does not know (a newer server): nothing to say
    const item = document.createElement('li');
    item.dataset.phrase = line.phrase;
    const who = document.createElement('span');
    who.className = 'chat-by';
    who.textContent = `${speaker(line)}: `;
    item.append(who, text);
    const list = $('#chat-lines');
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  for (const button of all('.chat-phrase')) {
    button.addEventListener('click', async () => {
      const reply = await request('chat_say', { phrase: button.dataset.phrase });
      $('#chat-error').textContent = reply.ok ? '' : refusalText(reply);
    });
  }

  return {
    /**
     * The page (re)joined the game as `joinedRole` ('white', 'black' or 'spectator').
     * @param {string} joinedRole
     */
    async joined(joinedRole) {
      if (!enabled) return;
      role = joinedRole;
      const reply = await request('chat_join');
      if (!reply.ok) return;
      $('#chat-title').textContent = reply.audience === 'players' ? t('Chat') : t("Spectators' chat");
      $('#chat-lines').replaceChildren();
      for (const line of reply.lines) show(line);
      panel.hidden = false;
    },
    /** @param {ChatLine} line a line of the chat this page reads */
    received(line) {
      if (enabled) show(line);
    },
  };
}
