// @ts-check
/**
 * The evaluation graph, drawn by Chart.js (npm, served under /vendor/chart.js/) as lichess
 * draws its own: White's win percent after each ply, the area above 50 % white and below it
 * dark, the points of marked moves coloured by their class, a vertical marker at the ply on
 * view. A click anywhere on the graph goes to the nearest ply.
 *
 * Only the parts used are registered with Chart.js (a line with points, two linear scales,
 * the fill, the tooltip). `window.reviewGraph.point(ply)` gives the screen point of a ply, so
 * the browser tests can click the point itself.
 */
import {
  Chart,
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  Filler,
  Tooltip,
} from '/vendor/chart.js/chart.js';
import { CLASS_NAMES, CLASS_SYMBOLS, formatEval } from './model.js';
import { t } from '../i18n.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, Filler, Tooltip);

// lichess's colours of the marks (ui/analyse: glyph colours), also used by review.css.
/** @type {Record<string, string>} */
export const CLASS_COLORS = { inaccuracy: '#56b4e9', mistake: '#e69f00', blunder: '#df5353' };
const LINE_COLOR = '#d85000';
const WHITE_AREA = 'rgba(255, 255, 255, 0.92)';
const DARK_AREA = 'rgba(38, 36, 33, 0.82)';
const MARKER_COLOR = 'rgba(47, 93, 138, 0.9)';

/**
 * The vertical line at the ply on view (`markedPly()`, none when null), and the dashed 50 %
 * line.
 * @param {() => number | null} markedPly
 * @returns {import('/vendor/chart.js/chart.js').Plugin<'line'>}
 */
const markerPlugin = (markedPly) => ({
  id: 'reviewMarker',
  afterDatasetsDraw(chart) {
    const { ctx, chartArea, scales } = chart;
    const ply = markedPly();
    ctx.save();
    const middle = scales.y.getPixelForValue(50);
    ctx.strokeStyle = 'rgba(128, 128, 128, 0.6)';
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(chartArea.left, middle);
    ctx.lineTo(chartArea.right, middle);
    ctx.stroke();
    if (ply !== null) {
      const x = scales.x.getPixelForValue(ply);
      ctx.setLineDash([]);
      ctx.strokeStyle = MARKER_COLOR;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x, chartArea.top);
      ctx.lineTo(x, chartArea.bottom);
      ctx.stroke();
    }
    ctx.restore();
  },
});

/**
 * A graph in `canvas`; `onSelect(ply)` on a click. Returns {update(review, percents), select(ply)}.
 * @param {HTMLCanvasElement} canvas
 * @param {{onSelect: (ply: number) => void}} hooks
 */
export function createGraph(canvas, { onSelect }) {
  /** @type {import('../wire.js').WireObject | null} */
  let review = null;
  /** @type {number | null} */
  let markedPly = 0;
  /** @type {Chart<'line', {x: number, y: number | null}[]>} */
  const chart = new Chart(canvas, {
    type: 'line',
    data: { datasets: [lineDataset()] },
    options: {
      animation: false,
      maintainAspectRatio: false,
      parsing: false,
      normalized: true,
      spanGaps: false,
      layout: { padding: { top: 6, bottom: 6, left: 4, right: 4 } },
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: { type: 'linear', display: false, min: 0, max: 1 },
        y: { type: 'linear', display: false, min: 0, max: 100 },
      },
      plugins: {
        tooltip: {
          displayColors: false,
          callbacks: { title: () => '', label: (item) => describePoint(review, item.dataIndex) },
        },
      },
      onClick: (_event, elements) => {
        // Data index = ply (the start position is point 0).
        if (elements.length > 0) onSelect(elements[0].index);
      },
    },
    plugins: [markerPlugin(() => markedPly)],
  });

  const reviewGraph = {
    /**
     * The screen point (client coordinates) of ply `ply`'s point.
     * @param {number} ply
     */
    point(ply) {
      const element = chart.getDatasetMeta(0).data[ply];
      const box = canvas.getBoundingClientRect();
      return element ? { x: box.left + element.x, y: box.top + element.y } : null;
    },
  };
  Object.assign(window, { reviewGraph });

  return {
    /**
     * Redraw from `review` and White's win percents at each position (null: not known).
     * @param {import('../wire.js').WireObject} newReview
     * @param {(number | null)[]} percents
     */
    update(newReview, percents) {
      review = newReview;
      const dataset = chart.data.datasets[0];
      dataset.data = percents.map((y, x) => ({ x, y }));
      /** @type {(string | null)[]} */
      /** @type {{class: string | null}[]} */
      const plies = newReview.plies;
      const marks = [null, ...plies.map((ply) => ply.class)];
      dataset.pointRadius = marks.map((mark) => (mark ? 4 : 0));
      dataset.pointHoverRadius = marks.map((mark) => (mark ? 6 : 3));
      dataset.pointBackgroundColor = marks.map((mark) => (mark && CLASS_COLORS[mark]) || LINE_COLOR);
      dataset.pointBorderColor = marks.map((mark) => (mark ? '#fff' : LINE_COLOR));
      const x = chart.options.scales?.x;
      if (x) x.max = Math.max(1, percents.length - 1);
      chart.update('none');
      canvas.dataset.points = String(percents.filter((y) => y !== null).length);
    },
    /**
     * Move the marker to `ply`.
     * @param {number} ply
     */
    select(ply) {
      markedPly = ply;
      chart.update('none');
    },
  };
}

function lineDataset() {
  return {
    data: [],
    borderColor: LINE_COLOR,
    borderWidth: 1.5,
    tension: 0,
    fill: { target: { value: 50 }, above: WHITE_AREA, below: DARK_AREA },
    pointBorderWidth: 1,
    pointHitRadius: 6,
  };
}

/**
 * The tooltip of ply `ply`: "12. Nf6?? +5.3" and the class.
 * @param {import('../wire.js').WireObject | null} review
 * @param {number} ply
 */
function describePoint(review, ply) {
  if (!review) return '';
  if (ply === 0) return t('Start {score}', { score: formatEval(review.initial?.eval) });
  const item = review.plies[ply - 1];
  const number = moveNumber(review.start_fen, ply);
  const dots = item.color === 'white' ? '.' : '…';
  const mark = item.class ? CLASS_SYMBOLS[item.class] : '';
  const words = item.class ? ` (${CLASS_NAMES[item.class]})` : '';
  return `${number}${dots} ${item.san}${mark} ${formatEval(item.eval)}${words}`;
}

/**
 * The move number of ply `ply` (1-based) of a game starting at `startFen`.
 * @param {string} startFen
 * @param {number} ply
 */
export function moveNumber(startFen, ply) {
  const [, side, , , , fullmove] = startFen.split(' ');
  const slot = ply - 1 + (side === 'b' ? 1 : 0);
  return (Number(fullmove) || 1) + Math.floor(slot / 2);
}
