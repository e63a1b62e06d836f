// @ts-check
/**
 * Each player's accuracy by phase (a small table: White and Black by opening, middlegame and
 * endgame) and the accuracy so far at the ply on the board, both from the review's JSON
 * (`phase_accuracy`, `phases`, `accuracy_so_far`: docs/protocol.md). Nothing is computed here:
 * the phases and the accuracies are the server's (docs/review.md, "Accuracy by phase").
 */
import { t } from '../i18n.js';

const PHASES = /** @type {const} */ (['opening', 'middlegame', 'endgame']);
const PHASE_NAMES = { opening: t('Opening'), middlegame: t('Middlegame'), endgame: t('Endgame') };
const SIDES = /** @type {const} */ (['white', 'black']);
const SIDE_NAMES = { white: t('White'), black: t('Black') };

/** @typedef {{white: number | null, black: number | null}} SidesAccuracy */
/**
 * @typedef {object} PhasedReview
 * @property {{middlegame: number | null, endgame: number | null} | null} [phases]
 * @property {Record<string, Record<string, number | null>> | null} [phase_accuracy]
 * @property {SidesAccuracy[] | null} [accuracy_so_far]
 */

/** @param {number | null | undefined} value */
const percent = (value) =>
  value === null || value === undefined ? '–' : `${Math.round(value)}%`;

/**
 * Fill `box` with the phases' table (once the review is done and has one) and `soFar` with
 * the accuracy up to `ply` (none at the start position).
 * @param {HTMLElement} box
 * @param {HTMLElement} soFar
 * @param {PhasedReview} review
 * @param {number} ply
 */
export function renderPhases(box, soFar, review, ply) {
  const table = review.phase_accuracy;
  box.hidden = !table;
  if (table && box.dataset.built !== 'true') {
    box.dataset.built = 'true';
    box.replaceChildren(phaseTable(table, review.phases ?? null));
  }
  const item = ply > 0 ? review.accuracy_so_far?.[ply - 1] : undefined;
  soFar.hidden = !item;
  if (item) {
    const sides = SIDES.map((side) => `${SIDE_NAMES[side]} ${percent(item[side])}`);
    soFar.textContent = t('Accuracy so far: {sides}', { sides: sides.join(', ') });
    soFar.dataset.white = item.white === null ? '' : String(item.white);
    soFar.dataset.black = item.black === null ? '' : String(item.black);
  }
}

/**
 * @param {Record<string, Record<string, number | null>>} accuracy
 * @param {{middlegame: number | null, endgame: number | null} | null} phases
 */
function phaseTable(accuracy, phases) {
  const table = document.createElement('table');
  table.className = 'phase-table';
  const caption = document.createElement('caption');
  caption.textContent = t('Accuracy by phase');
  const head = document.createElement('tr');
  head.append(cell('th', ''));
  for (const phase of PHASES) {
    const th = cell('th', PHASE_NAMES[phase]);
    th.scope = 'col';
    const first = phase === 'opening' ? 1 : phases?.[phase];
    if (first) th.title = t('From move {number}', { number: Math.ceil(first / 2) });
    head.append(th);
  }
  const body = document.createElement('tbody');
  for (const side of SIDES) {
    const row = document.createElement('tr');
    row.dataset.color = side;
    const th = cell('th', SIDE_NAMES[side]);
    th.scope = 'row';
    row.append(th);
    for (const phase of PHASES) {
      const td = cell('td', percent(accuracy[side]?.[phase]));
      td.dataset.phase = phase;
      row.append(td);
    }
    body.append(row);
  }
  const thead = document.createElement('thead');
  thead.append(head);
  table.append(caption, thead, body);
  return table;
}

/**
 * @param {'th' | 'td'} tag
 * @param {string} text
 */
function cell(tag, text) {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}
