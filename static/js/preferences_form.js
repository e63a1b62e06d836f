// @ts-check
/**
 * The preferences' form (templates/preferences_form.html): every change is applied to the
 * page at once and saved (preferences.js); the status line says when the server has it.
 */
import { preferences, savePreferences } from './preferences.js';
import { refusalText } from './client.js';
import { byId } from './dom.js';
import { t } from './i18n.js';

const form = byId('preferences-form', HTMLFormElement);
const status = byId('preferences-status');
const error = byId('preferences-error');

form.addEventListener('change', async (event) => {
  const input = /** @type {HTMLInputElement} */ (event.target);
  const name = /** @type {keyof import('./preferences.js').Preferences} */ (input.name);
  if (!(name in preferences())) return;
  const value = input.type === 'checkbox' ? input.checked : input.value;
  status.textContent = '';
  error.textContent = '';
  const reply = await savePreferences({ [name]: value });
  if (reply.ok) status.textContent = t('Saved.');
  else error.textContent = t('Not saved: {reason}', { reason: refusalText(reply) });
});
