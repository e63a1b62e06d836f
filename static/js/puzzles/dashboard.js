// @ts-check
/**
 * The dashboard: results per theme (solved, failed), most played first, and the rating. An
 * account's come from the server (`/api/puzzles/dashboard`), a visitor's from this browser.
 */

import { t } from '../i18n.js';

/** @typedef {{key: string, name: string, wins: number, losses: number}} Tally */

/**
 * @param {HTMLElement} table
 * @param {HTMLElement} line
 * @param {Tally[]} themes
 * @param {number | null} rating
 */
export function renderDashboard(table, line, themes, rating) {
  const played = [...themes].sort((a, b) => b.wins + b.losses - (a.wins + a.losses));
  const body = /** @type {HTMLElement} */ (table.querySelector('tbody'));
  body.replaceChildren(
    ...played.map((theme) => {
      const row = document.createElement('tr');
      for (const text of [theme.name, String(theme.wins), String(theme.losses)]) {
        row.append(Object.assign(document.createElement('td'), { textContent: text }));
      }
      row.dataset.theme = theme.key;
      return row;
    }),
  );
  table.hidden = played.length === 0;
  line.textContent = played.length
    ? t('Puzzle rating {rating}.', { rating: rating === null ? 1500 : Math.round(rating) })
    : t('No puzzle solved yet.');
}
