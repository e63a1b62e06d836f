// @ts-check
/**
 * A player's page, /@/<name>: the games' end times in the visitor's time zone, and the rating
 * graph, as lichess draws its own: one line per speed, the rating after each rated game against
 * its date. The points come from the page itself (the JSON in
 * #rating-history, `{speed: [[time in ms, rating], ...]}`, written by the server), so the graph
 * needs no request. Chart.js is served under /vendor/chart.js/ (the review's graph uses it too);
 * a linear x axis of times with dates as tick labels spares a date adapter.
 */
import {
  Chart,
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  Legend,
  Tooltip,
} from '/vendor/chart.js/chart.js';
import { pageLanguage, t } from './i18n.js';

/**
 * Each speed as the page's language names it.
 * @type {Record<string, string>}
 */
const SPEED_WORDS = {
  ultraBullet: t('UltraBullet'),
  bullet: t('Bullet'),
  blitz: t('Blitz'),
  rapid: t('Rapid'),
  classical: t('Classical'),
  correspondence: t('Correspondence'),
};

Chart.register(LineController, LineElement, PointElement, LinearScale, Legend, Tooltip);

// One colour per speed, told apart in colour-blind vision (the Okabe-Ito palette).
/** @typedef {Record<string, [number, number][]>} RatingHistory speed -> [[time in ms, rating]] */

/** @type {Record<string, string>} */
const SPEED_COLORS = {
  ultraBullet: '#cc79a7',
  bullet: '#d55e00',
  blitz: '#0072b2',
  rapid: '#009e73',
  classical: '#e69f00',
  correspondence: '#56b4e9',
};

/** @param {number | string} time */
function dateLabel(time) {
  const date = new Date(Number(time));
  return date.toLocaleDateString(pageLanguage(), { year: 'numeric', month: 'short', day: 'numeric' });
}

/**
 * One line per speed, each from the rating it started at (the server writes that point first).
 * The speeds with fewest points are drawn on top (Chart.js draws a lower `order` last), so a
 * speed of one or two games is not hidden behind a long one; short lines get bigger points.
 * @param {RatingHistory} history
 */
function datasets(history) {
  return Object.entries(history).map(([speed, points]) => ({
    label: SPEED_WORDS[speed] ?? speed[0].toUpperCase() + speed.slice(1),
    data: points.map(([time, rating]) => ({ x: time, y: rating })),
    borderColor: SPEED_COLORS[speed] ?? '#444',
    backgroundColor: SPEED_COLORS[speed] ?? '#444',
    borderWidth: 2,
    pointRadius: points.length > 60 ? 0 : points.length > 10 ? 2 : 4,
    order: points.length,
    tension: 0.2,
  }));
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * The x axis's bounds: the games' span, at least a day either side of a single day's games
 * (Chart.js would otherwise spread one point over years).
 * @param {RatingHistory} history
 */
function timeBounds(history) {
  const times = Object.values(history).flatMap((points) => points.map(([time]) => time));
  const first = Math.min(...times);
  const last = Math.max(...times);
  return last - first < 2 * DAY_MS ? { min: first - DAY_MS, max: last + DAY_MS } : { min: first, max: last };
}

/**
 * Ticks a day apart over a short span (each its own date), else at most six.
 * @param {{min: number, max: number}} bounds
 */
function timeTicks(bounds) {
  const short = bounds.max - bounds.min <= 10 * DAY_MS;
  return { callback: dateLabel, maxTicksLimit: short ? 11 : 6, ...(short ? { stepSize: DAY_MS } : {}) };
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {RatingHistory} history
 */
function drawGraph(canvas, history) {
  const bounds = timeBounds(history);
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: datasets(history) },
    options: {
      animation: false,
      maintainAspectRatio: false,
      parsing: false,
      interaction: { mode: 'nearest', intersect: false },
      scales: {
        x: { type: 'linear', ...bounds, ticks: timeTicks(bounds) },
        y: { type: 'linear', ticks: { precision: 0 } },
      },
      plugins: {
        legend: { position: 'bottom', labels: { boxWidth: 12 } },
        tooltip: {
          callbacks: {
            title: (items) => dateLabel(items[0].parsed.x ?? 0),
            label: (item) => `${item.dataset.label}: ${item.parsed.y}`,
          },
        },
      },
    },
  });
}

/** The games' end times in the visitor's own time zone (the server writes them in UTC). */
function localTimes() {
  const format = new Intl.DateTimeFormat(pageLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
  const times = /** @type {NodeListOf<HTMLTimeElement>} */ (
    document.querySelectorAll('.game-meta time[datetime]')
  );
  for (const time of times) {
    time.title = time.textContent ?? '';
    time.textContent = format.format(new Date(time.dateTime));
  }
}

localTimes();
const source = document.getElementById('rating-history');
const canvas = document.getElementById('rating-chart');
if (source && canvas instanceof HTMLCanvasElement) {
  Object.assign(window, { ratingGraph: drawGraph(canvas, JSON.parse(source.textContent ?? '{}')) });
}
