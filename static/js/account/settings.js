/**
 * The account's settings: sign out, change the password, add a passkey, claim this browser's
 * games, delete.
 */

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
});

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
