// @ts-check
/**
 * "Your games" for a signed-in player, on any browser: the games in play whose seats the
 * account took (from GET /api/account/games; opening one joins it in that seat, the server
 * knows the account from the session cookie), added to those this browser remembers, and the
 * latest finished games with a link to the player's page, where all of them are. Asked only
 * when the page says someone is signed in; a session ended meanwhile (401) leaves the list as
 * it was.
 */
import { requestJson } from '../client.js';
import { t, tn } from '../i18n.js';

/**
 * @param {string} href
 * @param {string} text
 * @param {string} detail
 */
function gameItem(href, text, detail) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = href;
  link.textContent = text;
  item.append(link, detail);
  return item;
}

/** @param {import('../wire.js').WireObject} game */
function describePlaying(game) {
  const control = game.control ?? t('no clock');
  const moves = tn('{n} move', '{n} moves', Math.ceil(game.plies / 2));
  return ` · ${control}${game.rated ? ` · ${t('rated')}` : ''} · ${moves}`;
}

/** @type {Record<string, string>} */
const RESULTS = {
  win: t('won against {name}'),
  draw: t('drawn against {name}'),
  loss: t('lost against {name}'),
};

/**
 * Fill `list` (the <ul> of this browser's games, whose ids are `listed`) and `section` with the
 * account's games; `onShown(count)` with how many games the list now has.
 * @param {HTMLElement} list
 * @param {HTMLElement} section
 * @param {Set<string>} listed
 * @param {(count: number) => void} onShown
 */
export async function listAccountGames(list, section, listed, onShown) {
  const reply = await requestJson('/api/account/games');
  if (!reply.ok) return; // offline, no server or signed out: this browser's games are still listed
  /** @type {import('../wire.js').WireObject[]} */
  const playing = reply.playing;
  for (const game of playing.filter((game) => !listed.has(game.id))) {
    list.append(gameItem(
        `/game/${game.id}`,
        game.color === 'black'
          ? t('black against {name}', { name: game.opponent })
          : t('white against {name}', { name: game.opponent }),
        describePlaying(game),
      ));
  }
  onShown(list.children.length);
  const finished = document.createElement('div');
  finished.className = 'account-games';
  const heading = document.createElement('h3');
  heading.textContent = t('Finished');
  const recent = document.createElement('ul');
  recent.id = 'account-finished';
  for (const game of reply.finished) {
    const review = game.review ? ` · ${t('reviewed')}` : '';
    recent.append(gameItem(`/game/${game.id}`, RESULTS[game.result].replace('{name}', game.opponent), ` · ${game.control} · ${game.speed}${review}`));
  }
  const all = document.createElement('p');
  const profile = document.createElement('a');
  profile.id = 'my-profile';
  profile.href = reply.profile;
  profile.textContent = t('All your games and ratings ({name})', { name: reply.name });
  all.append(profile);
  if (reply.finished.length) finished.append(heading, recent);
  finished.append(all);
  section.append(finished);
}
