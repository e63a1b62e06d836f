// @ts-check
/**
 * The clocks: the server sends the time left for each side when it made the state and which
 * clock runs; between states the page counts the running one down locally, for display only
 * (the server alone decides a time forfeit). A clock is marked low under a tenth of the
 * starting time (at most 20 s, at least 5 s), and shows tenths of a second under 10 s.
 */

/** @typedef {import('../wire.js').Color} Color */
/**
 * @typedef {{
 *   initial_ms: number,
 *   white_ms: number,
 *   black_ms: number,
 *   running: Color | null,
 * }} Clock
 */
/** @type {Color[]} */
const COLORS = ['white', 'black'];

/** @param {number} ms */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  const minutes = Math.floor(clamped / 60000);
  const seconds = Math.floor((clamped % 60000) / 1000);
  const text = `${minutes}:${String(seconds).padStart(2, '0')}`;
  return clamped < 10000 ? `${text}.${Math.floor((clamped % 1000) / 100)}` : text;
}

/**
 * Under how many milliseconds a clock that started at `initialMs` counts as low.
 * @param {number} initialMs
 */
export function lowThreshold(initialMs) {
  return Math.min(20000, Math.max(5000, initialMs / 10));
}

/**
 * Clocks drawn into `elements` = {white, black}; `onLow(color)` runs the first time a
 * running clock goes low (once per page, as lichess warns once). Returns {update(clock)}.
 * @param {{white: HTMLElement, black: HTMLElement}} elements
 * @param {(color: Color) => void} [onLow]
 */
export function createClocks(elements, onLow = () => {}) {
  /** @type {Clock | null} */
  let clock = null;
  let receivedAt = 0;
  const warned = new Set();

  function draw() {
    if (!clock) return;
    const low = lowThreshold(clock.initial_ms);
    for (const color of COLORS) {
      const running = clock.running === color;
      const left = clock[`${color}_ms`] - (running ? performance.now() - receivedAt : 0);
      elements[color].textContent = formatClock(left);
      elements[color].classList.toggle('running', running);
      elements[color].classList.toggle('low', left < low);
      if (running && left < low && left > 0 && !warned.has(color)) {
        warned.add(color);
        onLow(color);
      }
    }
  }

  window.setInterval(draw, 100);
  return {
    /** @param {Clock | null} newClock */
    update(newClock) {
      clock = newClock;
      receivedAt = performance.now();
      for (const color of COLORS) elements[color].hidden = clock === null;
      draw();
    },
  };
}
