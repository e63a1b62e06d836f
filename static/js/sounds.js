// @ts-check
/**
 * Sounds of the game: a move, a capture, a check, low time on the player's own clock and the
 * end of the game, with a mute switch that is the player's "sound" preference (preferences.js):
 * switched here, it is switched everywhere.
 *
 * The files are the project's own (tools/make_sounds.py synthesises them into static/sounds/).
 * Each sound is an <audio> element made once; `play` rewinds it so quick moves still sound.
 * Browsers refuse to play before the first user gesture on the page: that refusal is expected
 * and ignored, it is no error.
 */
import { t } from './i18n.js';

import { preferences, savePreferences } from './preferences.js';

const NAMES = ['move', 'capture', 'check', 'lowtime', 'end'];

/**
 * A switch `button` (aria-pressed: sound on); returns {play(name), isMuted()}.
 * @param {HTMLElement} button
 */
export function createSounds(button) {
  const elements = new Map(
    NAMES.map((name) => {
      const audio = new Audio(`/static/sounds/${name}.wav`);
      audio.preload = 'auto';
      audio.dataset.sound = name;
      return [name, audio];
    }),
  );
  let muted = !preferences().sound;

  function show() {
    button.setAttribute('aria-pressed', String(!muted));
    button.textContent = muted ? t('♫ Off') : t('♫ On');
    button.title = muted ? t('Sounds are off: turn them on') : t('Sounds are on: turn them off');
  }
  button.addEventListener('click', () => {
    muted = !muted;
    savePreferences({ sound: !muted });
    show();
  });
  show();

  return {
    /** @param {string} name */
    play(name) {
      const audio = elements.get(name);
      if (muted || !audio) return;
      audio.currentTime = 0;
      audio.play()?.catch?.(() => {}); // no gesture yet, or no audio device: silence is fine
    },
    isMuted: () => muted,
  };
}

/**
 * The sound for going from state `previous` to `state`, or null: the end of the game over
 * everything, then a check, a capture (SAN with an 'x') or a plain move.
 * @param {import('./wire.js').GameState | null} previous
 * @param {import('./wire.js').GameState} state
 */
export function soundFor(previous, state) {
  if (!previous) return null;
  if (previous.status === 'playing' && state.status !== 'playing') return 'end';
  if (state.ply !== previous.ply + 1 || !state.last_move) return null;
  if (state.check) return 'check';
  return state.last_move.san.includes('x') ? 'capture' : 'move';
}
