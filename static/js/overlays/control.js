// @ts-check
/**
 * The overlay controls: which threats to show (off, mine, the opponent's, both; for a
 * spectator White's and Black's) and how densely to write the counts (on contested squares,
 * on pieces, on every square). One button of each group is pressed. The mode each page opens
 * with is the player's "threat overlay" preference (preferences.js); the density is remembered
 * by the browser between games. The calm density, contested squares, is the default: counts on
 * every square cover the board and the pieces' corners.
 */
import { MODES, DENSITIES } from './threats.js';
import { preferences } from '../preferences.js';
import { t } from '../i18n.js';

/** @type {Record<string, string>} */
const PLAYER_LABELS = {
  off: t('Off'),
  mine: t('My threats'),
  theirs: t("Opponent's threats"),
  both: t('Both'),
};
// A spectator's "mine" is White's (overlayPerspective in game.js): named by colour.
/** @type {Record<string, string>} */
const SPECTATOR_LABELS = {
  off: t('Off'),
  mine: t("White's threats"),
  theirs: t("Black's threats"),
  both: t('Both'),
};
/** @type {Record<string, string>} */
const DENSITY_LABELS = {
  contested: t('Contested squares'),
  pieces: t('On pieces'),
  all: t('Every square'),
};
const DENSITY_KEY = 'chess.overlayDensity';

/** @typedef {ReturnType<typeof createOverlayControl>} OverlayControl */

/**
 * A group of toggle buttons in `container`, one per name; `choose(name)` on a click.
 * @param {HTMLElement} container
 * @param {string[]} names
 * @param {Record<string, string>} labels
 * @param {string} chosen
 * @param {(name: string) => void} onChoose
 */
function makeGroup(container, names, labels, chosen, onChoose) {
  const buttons = names.map((name) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.value = name;
    button.textContent = labels[name];
    button.addEventListener('click', () => onChoose(name));
    container.append(button);
    return button;
  });
  const press = (/** @type {string} */ value) => {
    for (const button of buttons) {
      button.setAttribute('aria-pressed', String(button.dataset.value === value));
    }
  };
  press(chosen);
  return { buttons, press };
}

/**
 * @param {string} key
 * @param {string[]} allowed
 * @param {string} fallback
 */
function remembered(key, allowed, fallback) {
  const value = localStorage.getItem(key);
  return value !== null && allowed.includes(value) ? value : fallback;
}

/**
 * Build the groups in `modes` and `densities`; `onChange()` runs on every choice. Returns
 * {mode(), density(), disable(reason), setSpectator(bool)}: `disable` with a reason turns the
 * buttons off and says why in `note`; with null turns them back on.
 * @param {HTMLElement} modes
 * @param {HTMLElement} densities
 * @param {HTMLElement} note
 * @param {() => void} onChange
 */
export function createOverlayControl(modes, densities, note, onChange) {
  let mode = MODES.includes(preferences().threats) ? preferences().threats : 'off';
  let density = remembered(DENSITY_KEY, DENSITIES, 'contested');
  const modeGroup = makeGroup(modes, MODES, PLAYER_LABELS, mode, (name) => {
    mode = name;
    modeGroup.press(name);
    onChange();
  });
  const densityGroup = makeGroup(densities, DENSITIES, DENSITY_LABELS, density, (name) => {
    density = name;
    localStorage.setItem(DENSITY_KEY, name);
    densityGroup.press(name);
    onChange();
  });
  /** @type {string | null} */
  let disabledReason = null;
  return {
    mode: () => (disabledReason ? 'off' : mode),
    density: () => density,
    /** @param {string | null} reason */
    disable(reason) {
      disabledReason = reason;
      for (const button of [...modeGroup.buttons, ...densityGroup.buttons]) {
        button.disabled = Boolean(reason);
      }
      note.hidden = !reason;
      note.textContent = reason ?? '';
    },
    /**
     * Name the modes for a spectator (by colour) or a player (mine, the opponent's).
     * @param {boolean} spectator
     */
    setSpectator(spectator) {
      const labels = spectator ? SPECTATOR_LABELS : PLAYER_LABELS;
      for (const button of modeGroup.buttons) {
        button.textContent = labels[button.dataset.value ?? 'off'];
      }
    },
  };
}
