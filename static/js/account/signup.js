// @ts-check
/**
 * The sign-up page: the form, then the recovery codes (shown once, with an "I saved them"
 * step before going on), then the offer to add this browser's earlier games.
 */

import { onSubmit, post, setUpClaim, showError } from './api.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';

const form = byId('signup-form', HTMLFormElement);
const error = byId('signup-error');

onSubmit(form, async () => {
  const reply = await post('/api/account/signup', {
    name: byId('signup-name', HTMLInputElement).value.trim(),
    password: byId('signup-password', HTMLInputElement).value,
  });
  showError(error, reply);
  if (reply.ok) {
    showCodes(reply.account.name, reply.recovery_codes);
  }
});

/**
 * @param {string} name the new account's
 * @param {string[]} codes its recovery codes
 */
function showCodes(name, codes) {
  byId('signup-step').hidden = true;
  byId('codes-step').hidden = false;
  const list = byId('recovery-codes');
  list.replaceChildren(
    ...codes.map((code) => {
      const item = document.createElement('li');
      item.textContent = code;
      return item;
    }),
  );
  // The header as templates/base.html draws it for a signed-in player: the name leads to the
  // player's page, a gear beside it to the settings.
  const nav = byId('nav-account', HTMLAnchorElement);
  nav.textContent = name;
  nav.href = `/@/${encodeURIComponent(name)}`;
  const gear = Object.assign(document.createElement('a'), {
    href: '/account',
    className: 'nav-settings',
    id: 'nav-settings',
    title: t('Settings'),
    textContent: '\u2699',
  });
  gear.setAttribute('aria-label', t('Settings'));
  nav.after(gear);
  const saved = byId('codes-saved', HTMLInputElement);
  const done = byId('codes-done', HTMLButtonElement);
  saved.addEventListener('change', () => {
    done.disabled = !saved.checked;
  });
  byId('copy-codes').addEventListener('click', async () => {
    const status = byId('copy-status');
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      status.textContent = t('Copied.');
    } catch {
      status.textContent = t('Copying is not allowed here: select the codes and copy them.');
    }
  });
  done.addEventListener('click', () => {
    list.replaceChildren(); // the codes leave the page once saved
    byId('codes-step').hidden = true;
    const count = setUpClaim({
      text: 'claim-text',
      button: 'claim-games',
      status: 'claim-status',
      error: 'claim-error',
    });
    if (count === 0) {
      window.location.assign('/');
      return;
    }
    byId('claim-step').hidden = false;
    byId('claim-skip').textContent = t('Go to the lobby');
  });
  byId('codes-title').focus();
}
