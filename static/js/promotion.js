// @ts-check
/**
 * The promotion picker: four real buttons (queen, rook, bishop, knight) and a cancel button
 * (Escape cancels too).
 *
 * It only asks; which targets are promotions comes from the server's `promotions` field.
 */
import { t } from './i18n.js';

/** @type {Record<string, string>} */
const ROLE_WORDS = { queen: t('queen'), rook: t('rook'), bishop: t('bishop'), knight: t('knight') };
const CHOICES = [
  ['q', 'queen'],
  ['r', 'rook'],
  ['b', 'bishop'],
  ['n', 'knight'],
];

/**
 * Ask which piece `color` promotes to; resolves with 'q'/'r'/'b'/'n', or null if cancelled.
 * @param {HTMLElement} dialog
 * @param {string} color
 * @returns {Promise<string | null>}
 */
export function askPromotion(dialog, color) {
  dialog.replaceChildren();
  const title = document.createElement('p');
  title.textContent = t('Promote to:');
  dialog.append(title);
  return new Promise((resolve) => {
    /** @param {KeyboardEvent} event */
    const onKey = (event) => {
      if (event.key === 'Escape') finish(null);
    };
    /** @param {string | null} letter */
    const finish = (letter) => {
      dialog.hidden = true;
      dialog.replaceChildren();
      dialog.removeEventListener('keydown', onKey);
      resolve(letter);
    };
    dialog.addEventListener('keydown', onKey);
    for (const [letter, role] of CHOICES) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'promotion-choice';
      button.dataset.piece = letter;
      button.setAttribute('aria-label', t('Promote to {piece}', { piece: ROLE_WORDS[role] }));
      button.title = ROLE_WORDS[role];
      // chessground's piece images are styled for <piece> inside .cg-wrap (the dialog is one).
      const image = document.createElement('piece');
      image.className = `${color} ${role}`;
      button.append(image);
      button.addEventListener('click', () => finish(letter));
      dialog.append(button);
    }
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'promotion-cancel';
    cancel.textContent = t('Cancel');
    cancel.addEventListener('click', () => finish(null));
    dialog.append(cancel);
    dialog.hidden = false;
    dialog.querySelector('button')?.focus();
  });
}
