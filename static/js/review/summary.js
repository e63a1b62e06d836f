// @ts-check
/**
 * The review's summary: the progress bar while the engine works (from the first second: the
 * review is queued, then running, and each push moves the bar), and per player the name, the
 * accuracy and the count of each mark, as lichess's computer analysis lists them.
 */
import { CLASSES, CLASS_NAMES, CLASS_SYMBOLS, countMarks, percentDone } from './model.js';
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').WireObject} Review */

/** @type {import('../wire.js').Color[]} */
const COLORS = ['white', 'black'];
/** @type {Record<string, string>} */
const PLURALS = { inaccuracy: t('Inaccuracies'), mistake: t('Mistakes'), blunder: t('Blunders') };
/** @type {Record<string, string>} */
const STATUS_WORDS = {
  loading: t('Loading the review…'),
  queued: t('Waiting for the engine (live games go first)…'),
  running: t('The engine is reviewing the game'),
  failed: t('The review failed'),
};

/**
 * The engine that judged the moves and its budget a position, from the review's `engine`
 * ({name, nodes} for Stockfish, {name, seconds, depth} for our own engine; a review stored
 * before engines were named has only `setting`, which was our own engine's).
 * @param {Review} review
 * @returns {string}
 */
export function engineWords(review) {
  const engine = review.engine ?? { name: 'our engine', ...review.setting };
  // The server names our own engine in English (server/review/engines.py): said here.
  const name = engine.name === 'our engine' ? t('our engine') : engine.name;
  if (engine.nodes) {
    return t('{engine}, {nodes} nodes a position', { engine: name, nodes: formatNodes(engine.nodes) });
  }
  if (!engine.seconds) return name;
  const said = { engine: name, seconds: engine.seconds, depth: engine.depth };
  return engine.depth
    ? t('{engine}, {seconds} s a position (depth {depth} at most)', said)
    : t('{engine}, {seconds} s a position', said);
}

/** @param {number} nodes */
function formatNodes(nodes) {
  if (nodes >= 1e6 && nodes % 1e5 === 0) return `${nodes / 1e6}M`;
  if (nodes >= 1e3 && nodes % 1e3 === 0) return `${nodes / 1e3}k`;
  return String(nodes);
}

/**
 * `elements`: {box, label, track, fill}. Shows the bar while the review is not done.
 * @param {{box: HTMLElement, label: HTMLElement, track: HTMLElement, fill: HTMLElement}} elements
 * @param {Review} review
 */
export function renderProgress(elements, review) {
  const working = review.status === 'queued' || review.status === 'running';
  elements.box.hidden = !working;
  const percent = percentDone(review);
  const { done = 0, total = 0 } = review.progress ?? {};
  const counted =
    review.status === 'running' && total > 0 ? t(': {done} of {total} positions', { done, total }) : '';
  elements.label.textContent = `${STATUS_WORDS[review.status] ?? ''}${counted}`;
  elements.track.setAttribute('aria-valuenow', String(percent));
  elements.fill.style.width = `${percent}%`;
  elements.fill.classList.toggle('waiting', review.status === 'queued');
}

/**
 * Fill `box` with a card per player: name, accuracy, and the marks of each class.
 * @param {HTMLElement} box
 * @param {Review} review
 */
export function renderPlayers(box, review) {
  const counts = countMarks(review);
  box.replaceChildren(
    ...COLORS.map((color) => playerCard(review, color, counts[color])),
  );
}

/**
 * @param {Review} review
 * @param {import('../wire.js').Color} color
 * @param {Record<string, number> | undefined} counts
 */
function playerCard(review, color, counts) {
  const card = document.createElement('div');
  card.className = 'player-card';
  card.dataset.color = color;
  const head = document.createElement('p');
  head.className = 'player-head';
  const dot = document.createElement('span');
  dot.className = `side-dot ${color}`;
  dot.setAttribute('aria-hidden', 'true');
  const name = document.createElement('span');
  name.className = 'player-name';
  const fallback = color === 'white' ? t('White') : t('Black');
  name.textContent = review.headers?.[color === 'white' ? 'White' : 'Black'] || fallback;
  head.append(dot, name);
  const accuracy = document.createElement('p');
  accuracy.className = 'accuracy';
  const value = review.accuracy?.[color];
  accuracy.dataset.value = value === null || value === undefined ? '' : String(value);
  accuracy.textContent =
    value === null || value === undefined
      ? t('Accuracy: …')
      : t('{percent}% accuracy', { percent: Math.round(value) });
  const list = document.createElement('ul');
  list.className = 'mark-counts';
  for (const name of CLASSES) {
    const item = document.createElement('li');
    item.dataset.class = name;
    const symbol = document.createElement('span');
    symbol.className = `mark ${name}`;
    symbol.textContent = CLASS_SYMBOLS[name];
    const count = document.createElement('b');
    count.className = 'count';
    count.textContent = String(counts?.[name] ?? 0);
    const words = counts?.[name] === 1 ? CLASS_NAMES[name] : PLURALS[name];
    item.append(count, ` ${words} `, symbol);
    list.append(item);
  }
  card.append(head, accuracy, list);
  return card;
}
