/**
 * The account's settings: sign out, change the password, add a passkey, claim this browser's
 * games, delete.
 */

import { requestJson } from '../client.js';
import { addPasskey, hasPasskeys, onSubmit, post, setUpClaim, showError } from './api.js';

document.getElementById('logout').addEventListener('click', async () => {
  const reply = await post('/api/account/logout');
  showError(document.getElementById('logout-error'), reply);
  if (reply.ok) {
    window.location.assign('/');
  }
});

const passwordError = document.getElementById('password-error');
const passwordStatus = document.getElementById('password-status');
onSubmit(document.getElementById('password-form'), async () => {
  const current = document.getElementById('password-current');
  const fresh = document.getElementById('password-new');
  const reply = await post('/api/account/password', { current: current.value, new: fresh.value });
  showError(passwordError, reply);
  passwordStatus.textContent = reply.ok ? 'Password changed.' : '';
  if (reply.ok) {
    current.value = '';
    fresh.value = '';
  }
});

const passkey = document.getElementById('add-passkey');
const passkeyPassword = document.getElementById('passkey-password');
if (!hasPasskeys()) {
  passkey.disabled = true;
  passkeyPassword.disabled = true;
  document.getElementById('passkey-status').textContent =
    'This browser cannot use passkeys on this address (it needs https or localhost).';
}
document.getElementById('passkey-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  passkey.disabled = true;
  const reply = await addPasskey(passkeyPassword.value);
  passkey.disabled = false;
  showError(document.getElementById('passkey-error'), reply);
  document.getElementById('passkey-status').textContent = reply.ok ? 'Passkey added.' : '';
  if (reply.ok) passkeyPassword.value = '';
  showPasskeys();
});

/** The account's passkeys, each with a button that removes it. */
async function showPasskeys() {
  const list = document.getElementById('passkey-list');
  const reply = await requestJson('/api/account/passkeys');
  if (!reply.ok) return;
  list.replaceChildren(
    ...reply.passkeys.map((id, index) => {
      const item = document.createElement('li');
      item.textContent = `Passkey ${index + 1} (${id.slice(0, 8)}…) `;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', `Remove passkey ${index + 1}`);
      remove.addEventListener('click', async () => {
        const gone = await post('/api/account/passkeys/delete', { id });
        showError(document.getElementById('passkey-error'), gone);
        document.getElementById('passkey-status').textContent = gone.ok ? 'Passkey removed.' : '';
        showPasskeys();
      });
      item.append(remove);
      return item;
    }),
  );
}
showPasskeys();

setUpClaim({ text: 'claim-text', button: 'claim-games', status: 'claim-status', error: 'claim-error' });

onSubmit(document.getElementById('delete-form'), async () => {
  const reply = await post('/api/account/delete', {
    password: document.getElementById('delete-password').value,
  });
  showError(document.getElementById('delete-error'), reply);
  if (reply.ok) {
    window.location.assign('/');
  }
});
