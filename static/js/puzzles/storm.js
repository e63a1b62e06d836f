// @ts-check
/**
 * The timed mode, as lichess's Puzzle Storm: three minutes to solve as many puzzles as
 * possible, each solved one asking a harder one, a miss costing `PENALTY` seconds. The clock
 * is shown as m:ss and calls `onOver` once when it runs out.
 */

const SECONDS = 180;
const PENALTY = 10;
const START_RATING = 800;
const STEP = 50;

/**
 * @param {HTMLElement} clock
 * @param {() => void} onOver
 */
export function createStorm(clock, onOver) {
  let ends = 0;
  let solved = 0;
  let misses = 0;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let ticking;

  const left = () => Math.max(0, ends - performance.now());

  function tick() {
    const seconds = Math.ceil(left() / 1000);
    clock.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    if (seconds > 0) return;
    clearInterval(ticking);
    ticking = undefined;
    onOver();
  }

  return {
    start() {
      ends = performance.now() + SECONDS * 1000;
      solved = 0;
      misses = 0;
      clock.hidden = false;
      clearInterval(ticking);
      ticking = setInterval(tick, 250);
      tick();
    },
    stop() {
      clearInterval(ticking);
      ticking = undefined;
      clock.hidden = true;
    },
    /** @param {boolean} win */
    result(win) {
      if (win) solved += 1;
      else {
        misses += 1;
        ends -= PENALTY * 1000;
        tick();
      }
    },
    running: () => ticking !== undefined,
    score: () => solved,
    misses: () => misses,
    rating: () => START_RATING + STEP * solved,
    /** Run the clock out now (the browser tests end a storm without waiting 3 minutes). */
    finish() {
      ends = performance.now();
      tick();
    },
  };
}
