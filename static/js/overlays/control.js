/**
 * The overlay mode control: four toggle buttons (off, my threats, opponent's threats, both),
 * one of them pressed. The chosen mode is remembered by the browser between games.
 */
import { MODES } from './threats.js';

const LABELS = {
  off: 'Off',
  mine: 'My threats',
  theirs: "Opponent's threats",
  both: 'Both',
};
const STORAGE_KEY = 'chess.overlayMode';

/**
 * Build the buttons in `container`; `onChange(mode)` runs on every choice. Returns {mode(),
 * disable(reason)}: `disable` with a reason turns the buttons off and says why in `note`;
 * with null turns them back on.
 */
export function createOverlayControl(container, note, onChange) {
  let mode = MODES.includes(localStorage.getItem(STORAGE_KEY))
    ? localStorage.getItem(STORAGE_KEY)
    : 'off';
  const buttons = MODES.map((name) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.mode = name;
    button.textContent = LABELS[name];
    button.addEventListener('click', () => choose(name));
    container.append(button);
    return button;
  });

  function choose(name) {
    mode = name;
    localStorage.setItem(STORAGE_KEY, name);
    for (const button of buttons) {
      button.setAttribute('aria-pressed', String(button.dataset.mode === mode));
    }
    onChange(mode);
  }

  for (const button of buttons) {
    button.setAttribute('aria-pressed', String(button.dataset.mode === mode));
  }
  let disabledReason = null;
  return {
    mode: () => (disabledReason ? 'off' : mode),
    disable(reason) {
      disabledReason = reason;
      for (const button of buttons) button.disabled = Boolean(reason);
      note.hidden = !reason;
      note.textContent = reason ?? '';
    },
  };
}
