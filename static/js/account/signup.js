/**
 * The sign-up page: the form, then the recovery codes (shown once, with an "I saved them"
 * step before going on), then the offer to add this browser's earlier games.
 */

import { onSubmit, post, setUpClaim, showError } from './api.js';

const form = document.getElementById('signup-form');
const error = document.getElementById('signup-error');

onSubmit(form, async () => {
  const reply = await post('/api/account/signup', {
    name: document.getElementById('signup-name').value.trim(),
    password: document.getElementById('signup-password').value,
  });
  showError(error, reply);
  if (reply.ok) {
    showCodes(reply.account.name, reply.recovery_codes);
  }
});

function showCodes(name, codes) {
  document.getElementById('signup-step').hidden = true;
  document.getElementById('codes-step').hidden = false;
  const list = document.getElementById('recovery-codes');
  list.replaceChildren(
    ...codes.map((code) => {
      const item = document.createElement('li');
      item.textContent = code;
      return item;
    }),
  );
  // The header as templates/base.html draws it for a signed-in player: the name leads to the
  // player's page, a gear beside it to the settings.
  const nav = document.getElementById('nav-account');
  nav.textContent = name;
  nav.href = `/@/${encodeURIComponent(name)}`;
  const gear = Object.assign(document.createElement('a'), {
    href: '/account',
    className: 'nav-settings',
    id: 'nav-settings',
    title: 'Settings',
    textContent: '\u2699',
  });
  gear.setAttribute('aria-label', 'Settings');
  nav.after(gear);
  const saved = document.getElementById('codes-saved');
  const done = document.getElementById('codes-done');
  saved.addEventListener('change', () => {
    done.disabled = !saved.checked;
  });
  document.getElementById('copy-codes').addEventListener('click', async () => {
    const status = document.getElementById('copy-status');
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      status.textContent = 'Copied.';
    } catch {
      status.textContent = 'Copying is not allowed here: select the codes and copy them.';
    }
  });
  done.addEventListener('click', () => {
    list.replaceChildren(); // the codes leave the page once saved
    document.getElementById('codes-step').hidden = true;
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
    document.getElementById('claim-step').hidden = false;
    document.getElementById('claim-skip').textContent = 'Go to the lobby';
  });
  document.getElementById('codes-title').focus?.();
}
