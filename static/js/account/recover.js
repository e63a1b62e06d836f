// @ts-check
/** The recovery page: a recovery code sets a new password and signs in. */

import { onSubmit, post, showError } from './api.js';
import { byId } from '../dom.js';

const error = byId('recover-error');

onSubmit(byId('recover-form', HTMLFormElement), async () => {
  const reply = await post('/api/account/recover', {
    name: byId('recover-name', HTMLInputElement).value.trim(),
    code: byId('recover-code', HTMLInputElement).value,
    password: byId('recover-password', HTMLInputElement).value,
  });
  showError(error, reply);
  if (reply.ok) {
    window.location.assign('/account');
  }
});
