// @ts-check
/**
 * What the last move changed: only the difference the server found (`insight.change`, see
 * docs/protocol.md), drawn as arrows and circles on the board and listed in words in the side
 * panel's legend.
 *
 * New attacks are green arrows, discovered attacks blue, a fork an arrow from the forking
 * piece to each target (a pin created is among the overlay's pin lines), pieces that became
 * hanging a red circle and those no longer hanging a green one. The colours only repeat the
 * words of the legend, so a player who cannot tell them apart reads the list. Nothing here is
 * judged on the page.
 */
import { shownColors } from './threats.js';
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').Shape} Shape */

/** Brushes of the change's arrows (given to chessground by board.js). */
export const CHANGE_BRUSHES = {
  newAttack: { key: 'na', color: '#15781b', opacity: 0.75, lineWidth: 8 },
  discovered: { key: 'da', color: '#003088', opacity: 0.8, lineWidth: 8 },
  fork: { key: 'fk', color: '#882020', opacity: 0.85, lineWidth: 10 },
};

/**
 * The shapes and legend lines for `change` (null before the first move), showing only the
 * facts of the colours the overlay `mode` shows to a viewer looking from `perspective`.
 * @param {import('../wire.js').WireObject | null} change
 * @param {string} mode
 * @param {import('../wire.js').Color} perspective
 * @returns {{shapes: Shape[], lines: string[]}}
 */
export function describeChange(change, mode, perspective) {
  const colors = shownColors(mode, perspective);
  if (!change || colors.length === 0) return { shapes: [], lines: [] };
  /** @type {Shape[]} */
  const shapes = [];
  /** @type {string[]} */
  const lines = [];
  /** @param {{by: import('../wire.js').Color}} fact */
  const byShown = (fact) => colors.includes(fact.by);
  /** @type {{from: string, to: string}[]} */
  const discoveries = change.discovered;
  const discovered = new Set(discoveries.map((a) => `${a.from}${a.to}`));
  for (const attack of change.new_attacks.filter(byShown)) {
    if (discovered.has(`${attack.from}${attack.to}`)) continue;
    shapes.push({ orig: attack.from, dest: attack.to, brush: 'newAttack' });
    lines.push(t('New attack: {from} on {to}', { from: attack.from, to: attack.to }));
  }
  for (const attack of change.discovered.filter(byShown)) {
    shapes.push({ orig: attack.from, dest: attack.to, brush: 'discovered' });
    lines.push(t('Discovered attack: {from} on {to}', { from: attack.from, to: attack.to }));
  }
  for (const fork of change.forks.filter(byShown)) {
    for (const target of fork.targets) {
      shapes.push({ orig: fork.from, dest: target, brush: 'fork' });
    }
    lines.push(t('Fork: {from} attacks {targets}', { from: fork.from, targets: fork.targets.join(t(' and ')) }));
  }
  for (const pin of change.pins_created) {
    // Its line is drawn by the threat overlay with every other pin line.
    lines.push(t('Pin created: {pinner} pins {pinned} to {target}', pin));
  }
  for (const pin of change.pins_released) {
    lines.push(t('Pin released: {pinner} no longer pins {pinned}', pin));
  }
  for (const square of change.became_hanging) {
    shapes.push({ orig: square, brush: 'red' });
    lines.push(t('Now hanging: {square}', { square }));
  }
  for (const square of change.no_longer_hanging) {
    shapes.push({ orig: square, brush: 'green' });
    lines.push(t('No longer hanging: {square}', { square }));
  }
  return { shapes, lines };
}

/**
 * Fill the legend list with `lines` under `title`; hidden when there is nothing to say.
 * @param {HTMLElement} box
 * @param {string} title
 * @param {string[]} lines
 */
export function renderChangeLegend(box, title, lines) {
  box.hidden = lines.length === 0;
  const heading = document.createElement('p');
  heading.className = 'change-title';
  heading.textContent = title;
  const list = document.createElement('ul');
  for (const line of lines) {
    const item = document.createElement('li');
    item.textContent = line;
    list.append(item);
  }
  box.replaceChildren(heading, list);
}
