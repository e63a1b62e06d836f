// @ts-check
/**
 * The account's settings: sign out, change the password, add a passkey, claim this browser's
 * games, delete.
 */

import { requestJson } from '../client.js';
import { addPasskey, hasPasskeys, onSubmit, post, setUpClaim, showError } from './api.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';

byId('logout').addEventListener('click', async () => {
  const reply = await post('/api/account/logout');
  showError(byId('logout-error'), reply);
  if (reply.ok) {
    window.location.assign('/');
  }
});

const passwordError = byId('password-error');
const passwordStatus = byId('password-status');
onSubmit(byId('password-form', HTMLFormElement), async () => {
  const current = byId('password-current', HTMLInputElement);
  const fresh = byId('password-new', HTMLInputElement);
  const reply = await post('/api/account/password', { current: current.value, new: fresh.value });
  showError(passwordError, reply);
  passwordStatus.textContent = reply.ok ? t('Password changed.') : '';
  if (reply.ok) {
    current.value = '';
    fresh.value = '';
  }
});

const passkey = byId('add-passkey', HTMLButtonElement);
const passkeyPassword = byId('passkey-password', HTMLInputElement);
if (!hasPasskeys()) {
  passkey.disabled = true;
  passkeyPassword.disabled = true;
  byId('passkey-status').textContent =
    t('This browser cannot use passkeys on this address (it needs https or localhost).');
}
byId('passkey-form', HTMLFormElement).addEventListener('submit', async (event) => {
  event.preventDefault();
  passkey.disabled = true;
  const reply = await addPasskey(passkeyPassword.value);
  passkey.disabled = false;
  showError(byId('passkey-error'), reply);
  byId('passkey-status').textContent = reply.ok ? t('Passkey added.') : '';
  if (reply.ok) passkeyPassword.value = '';
  showPasskeys();
});

/** The account's passkeys, each with a button that removes it. */
async function showPasskeys() {
  const list = byId('passkey-list');
  const reply = await requestJson('/api/account/passkeys');
  if (!reply.ok) return;
  list.replaceChildren(
    .../** @type {string[]} */ (reply.passkeys).map((id, index) => {
      const item = document.createElement('li');
      item.textContent = `${t('Passkey {number} ({id}…)', { number: index + 1, id: id.slice(0, 8) })} `;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = t('Remove');
      remove.setAttribute('aria-label', t('Remove passkey {number}', { number: index + 1 }));
      remove.addEventListener('click', async () => {
        const gone = await post('/api/account/passkeys/delete', { id });
        showError(byId('passkey-error'), gone);
        byId('passkey-status').textContent = gone.ok ? t('Passkey removed.') : '';
        showPasskeys();
      });
      item.append(remove);
      return item;
    }),
  );
}
showPasskeys();

setUpClaim({ text: 'claim-text', button: 'claim-games', status: 'claim-status', error: 'claim-error' });

// Deleting asks once more, in the page, before anything is sent: the form's button only opens
// the question, whose "Yes" sends the password.
const deleteConfirm = byId('delete-confirm');
onSubmit(byId('delete-form', HTMLFormElement), async () => {
  deleteConfirm.hidden = false;
  byId('delete-no').focus();
});
byId('delete-no').addEventListener('click', () => {
  deleteConfirm.hidden = true;
  byId('delete-submit').focus();
});
byId('delete-yes').addEventListener('click', async () => {
  const reply = await post('/api/account/delete', {
    password: byId('delete-password', HTMLInputElement).value,
  });
  deleteConfirm.hidden = true;
  showError(byId('delete-error'), reply);
  if (reply.ok) {
    window.location.assign('/');
  }
});
