/** The recovery page: a recovery code sets a new password and signs in. */

import { onSubmit, post, showError } from './api.js';

const error = document.getElementById('recover-error');

onSubmit(document.getElementById('recover-form'), async () => {
  const reply = await post('/api/account/recover', {
    name: document.getElementById('recover-name').value.trim(),
    code: document.getElementById('recover-code').value,
    password: document.getElementById('recover-password').value,
  });
  showError(error, reply);
  if (reply.ok) {
    window.location.assign('/account');
  }
});
