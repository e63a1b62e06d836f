// @ts-check
/**
 * Open challenges: the list everyone in the lobby sees, kept by id from the server's
 * `seek_added` / `seeks_removed` messages, and the form that creates one. Every name is put
 * on the page as text (textContent), never as markup. A signed-in player's seek shows the
 * rating in the control's speed (`1500?` while provisional), and whether it is rated and for
 * which ratings (`Rated · 1400–1800`). A challenge whose range leaves out the visitor's own
 * rating in its speed (the page lists a signed-in player's ratings, #my-ratings; a visitor has
 * none) is greyed, its Join switched off and the reason said beside it: the server would refuse
 * it anyway.
 */
import { $ } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').WireObject} Seek a seek as the server lists it */

/**
 * The visitor's own rating in `speed`, from the page (null when signed out).
 * @param {string} speed
 * @returns {number | null}
 */
function ownRating(speed) {
  const shown = document.querySelector(`#my-ratings [data-speed="${CSS.escape(speed)}"]`);
  return shown instanceof HTMLElement ? Number(shown.dataset.rating) : null;
}

/**
 * Why the visitor may not join `seek` (its rating range leaves the visitor out), or null.
 * @param {Seek} seek
 * @returns {string | null}
 */
export function outOfRange(seek) {
  if (!seek.rating_range) return null;
  const [low, high] = seek.rating_range;
  const rating = ownRating(seek.speed);
  if (rating === null) return t('For ratings {low}–{high}: sign in to join', { low, high });
  if (rating < low || rating > high) return t('For ratings {low}–{high}: yours is {rating}', { low, high, rating });
  return null;
}

/** @type {Record<string, string>} */
const SIDES = { white: t('White'), black: t('Black'), random: t('Random') };

/**
 * @param {object} hooks
 * @param {(seek: Seek, button: HTMLButtonElement) => void} hooks.onJoin
 * @param {(seek: Seek) => void} hooks.onCancel
 */
export function makeSeekList({ onJoin, onCancel }) {
  /** @type {Map<string, Seek>} */
  const seeks = new Map();
  /** @type {string | null} */
  let ownId = null;

  function render() {
    const body = $('#seek-list');
    body.replaceChildren();
    for (const seek of seeks.values()) body.append(makeRow(seek));
    $('#no-seeks').hidden = seeks.size > 0;
  }

  /** @param {Seek} seek */
  function makeRow(seek) {
    const row = document.createElement('tr');
    row.dataset.seek = seek.id;
    const own = seek.id === ownId;
    const cells = [
      seek.name,
      seek.control ?? t('No clock'),
      formatMode(seek),
      SIDES[seek.color] + (seek.assisted || seek.rated ? '' : ' · unassisted'),
    ];
    for (const text of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    row.cells[0].className = 'seek-name';
    const rating = formatRating(seek);
    if (rating) {
      const shown = document.createElement('span');
      shown.className = 'seek-rating';
      shown.textContent = rating;
      row.cells[0].append(' ', shown);
    }
    const action = document.createElement('td');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = own ? t('Cancel') : t('Join');
    button.setAttribute(
      'aria-label',
      own ? t('Cancel your challenge') : t('Join the challenge of {name}', { name: seek.name }),
    );
    button.addEventListener('click', () => (own ? onCancel(seek) : onJoin(seek, button)));
    action.append(button);
    const barred = own ? null : outOfRange(seek);
    if (barred) {
      row.classList.add('out-of-range');
      button.disabled = true;
      button.setAttribute('aria-label', t('Join the challenge of {name}: {reason}', { name: seek.name, reason: barred }));
      const reason = document.createElement('span');
      reason.className = 'seek-barred';
      reason.textContent = barred;
      action.append(reason);
    }
    row.append(action);
    if (own) row.classList.add('own');
    return row;
  }

  return {
    /** @param {Seek[]} list */
    reset(list) {
      seeks.clear();
      for (const seek of list) seeks.set(seek.id, seek);
      render();
    },
    /** @param {Seek} seek */
    add(seek) {
      seeks.set(seek.id, seek);
      render();
    },
    /** @param {string[]} ids */
    remove(ids) {
      for (const id of ids) seeks.delete(id);
      if (ownId !== null && ids.includes(ownId)) ownId = null;
      render();
    },
    /** @param {string | null} id */
    setOwn(id) {
      ownId = id;
      render();
    },
    get ownId() {
      return ownId;
    },
  };
}

/** @param {Seek} seek */
export function formatRating(seek) {
  return seek.rating === null || seek.rating === undefined ? '' : `${seek.rating}${seek.provisional ? '?' : ''}`;
}

/** @param {Seek} seek */
function formatMode(seek) {
  const mode = seek.rated ? t('Rated') : t('Casual');
  return seek.rating_range ? `${mode} · ${seek.rating_range[0]}–${seek.rating_range[1]}` : mode;
}

/**
 * The seek request the form describes (a range with one end left empty is open there).
 * @param {string} name
 */
export function readSeekForm(name) {
  const control = $('#seek-control', HTMLSelectElement).value;
  const rated = $('#seek-rated', HTMLInputElement).checked;
  /** @type {{[field: string]: unknown}} */
  const request = {
    control: control || null,
    color: $('#seek-color', HTMLSelectElement).value,
    assisted: $('#seek-assisted', HTMLInputElement).checked && !rated,
    name,
    rated,
  };
  const low = $('#seek-range-low', HTMLInputElement).value;
  const high = $('#seek-range-high', HTMLInputElement).value;
  if (low || high) request.rating_range = [Number(low || 400), Number(high || 4000)];
  return request;
}
