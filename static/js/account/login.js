/** The sign-in page, by password or passkey: on success, back to the lobby. */

import { hasPasskeys, onSubmit, post, showError, signInWithPasskey } from './api.js';

const error = document.getElementById('login-error');

onSubmit(document.getElementById('login-form'), async () => {
  const reply = await post('/api/account/login', {
    name: document.getElementById('login-name').value.trim(),
    password: document.getElementById('login-password').value,
  });
  showError(error, reply);
  if (reply.ok) {
    window.location.assign('/');
  }
});

const passkey = document.getElementById('passkey-login');
passkey.hidden = !hasPasskeys();
passkey.addEventListener('click', async () => {
  passkey.disabled = true;
  const reply = await signInWithPasskey();
  passkey.disabled = false;
  showError(document.getElementById('passkey-error'), reply);
  if (reply.ok) {
    window.location.assign('/');
  }
});
