/** The sign-in page: on success, back to the lobby. */

import { onSubmit, post, showError } from './api.js';

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
