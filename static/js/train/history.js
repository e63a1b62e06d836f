// @ts-check
/**
 * The history graph: drills answered per day (bars) and the accuracy of the day (a line, in
 * percent), drawn by Chart.js as the review's evaluation graph is (static/js/review/graph.js:
 * the ES module build under /vendor/chart.js/, only the parts used registered). The data
 * come from the browser's record (progress.js).
 */
import { t } from '../i18n.js';
import {
  Chart,
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
} from '/vendor/chart.js/chart.js';

Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
);

// The days shown: the last month the trainee trained on.
const SHOWN_DAYS = 30;

/** @param {HTMLCanvasElement} canvas */
export function createHistoryGraph(canvas) {
  /** @type {Chart} */
  const chart = new Chart(canvas, {
    data: { labels: [], datasets: [] },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        drills: { type: 'linear', position: 'left', beginAtZero: true, ticks: { precision: 0 } },
        accuracy: { type: 'linear', position: 'right', min: 0, max: 100, grid: { display: false } },
      },
      plugins: { tooltip: { mode: 'index', intersect: false } },
    },
  });
  return {
    /**
     * Draw `days` ([{day, done, right}], oldest first).
     * @param {{day: string, done: number, right: number}[]} days
     */
    show(days) {
      const shown = days.slice(-SHOWN_DAYS);
      chart.data.labels = shown.map((entry) => entry.day.slice(5));
      chart.data.datasets = [
        {
          type: 'bar',
          label: t('Drills'),
          yAxisID: 'drills',
          data: shown.map((entry) => entry.done),
          backgroundColor: 'rgba(47, 111, 176, 0.55)',
          maxBarThickness: 28,
        },
        {
          type: 'line',
          label: t('Accuracy %'),
          yAxisID: 'accuracy',
          data: shown.map((entry) => Math.round((100 * entry.right) / entry.done)),
          borderColor: '#15781b',
          backgroundColor: '#15781b',
        },
      ];
      chart.update();
    },
  };
}
