/**
 * The clocks: the server sends the time left for each side when it made the state and which
 * clock runs; between states the page counts the running one down locally, for display only
 * (the server alone decides a time forfeit).
 */

export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  const minutes = Math.floor(clamped / 60000);
  const seconds = Math.floor((clamped % 60000) / 1000);
  const text = `${minutes}:${String(seconds).padStart(2, '0')}`;
  return clamped < 10000 ? `${text}.${Math.floor((clamped % 1000) / 100)}` : text;
}

/** Clocks drawn into `elements` = {white, black, box}; returns {update(clock)}. */
export function createClocks(elements) {
  let clock = null;
  let receivedAt = 0;

  function draw() {
    if (!clock) return;
    for (const color of ['white', 'black']) {
      const running = clock.running === color;
      const left = clock[`${color}_ms`] - (running ? performance.now() - receivedAt : 0);
      elements[color].textContent = formatClock(left);
      elements[color].classList.toggle('running', running);
      elements[color].classList.toggle('low', left < 20000);
    }
  }

  window.setInterval(draw, 100);
  return {
    update(newClock) {
      clock = newClock;
      receivedAt = performance.now();
      elements.box.hidden = clock === null;
      draw();
    },
  };
}
