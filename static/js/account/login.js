// @ts-check
/** The sign-in page, by password or passkey: on success, back to the lobby. */

import { hasPasskeys, onSubmit, post, showError, signInWithPasskey } from './api.js';
import { byId } from '../dom.js';

const error = byId('login-error');

onSubmit(byId('login-form', HTMLFormElement), async () => {
  const reply = await post('/api/account/login', {
    name: byId('login-name', HTMLInputElement).value.trim(),
    password: byId('login-password', HTMLInputElement).value,
  });
  showError(error, reply);
  if (reply.ok) {
    window.location.assign('/');
  }
});

const passkey = byId('passkey-login', HTMLButtonElement);
passkey.hidden = !hasPasskeys();
passkey.addEventListener('click', async () => {
  passkey.disabled = true;
  const reply = await signInWithPasskey();
  passkey.disabled = false;
  showError(byId('passkey-error'), reply);
  if (reply.ok) {
    window.location.assign('/');
  }
});
