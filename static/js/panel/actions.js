// @ts-check
/**
 * The player's game actions: resign (with a confirmation), abort, draw offer / accept /
 * decline, claim draw, takeback, rematch.
 *
 * Which buttons show is read from the state the server sent (`status`, `offers`,
 * `can_claim_draw`, `ply`); the server still judges each request, and its error, if any, is
 * shown beside the buttons. Spectators get no buttons at all.
 */
import { refusalText } from '../client.js';
import { preferences } from '../preferences.js';
import { t } from '../i18n.js';

/** @typedef {import('../wire.js').GameState} GameState */
/** @typedef {{id: string, label: string, run?: () => void, disabled?: boolean}} ButtonSpec */

/**
 * Each offer's buttons, whole phrases for each language.
 * @type {Record<string, {offer: string, pending: string, accept: string, decline: string}>}
 */
const OFFER_WORDS = {
  draw: {
    offer: t('Offer a draw'),
    pending: t('Draw offered…'),
    accept: t('Accept draw'),
    decline: t('Decline draw'),
  },
  takeback: {
    offer: t('Ask for a takeback'),
    pending: t('Takeback offered…'),
    accept: t('Accept takeback'),
    decline: t('Decline takeback'),
  },
  rematch: {
    offer: t('Offer a rematch'),
    pending: t('Rematch offered…'),
    accept: t('Accept rematch'),
    decline: t('Decline rematch'),
  },
};

/**
 * `send(event, fields)` resolves with the server's reply. Returns {render(state, role)}.
 * @param {HTMLElement} container
 * @param {HTMLElement} message
 * @param {(event: string, fields?: object) => Promise<import('../client.js').Reply>} send
 */
export function createActions(container, message, send) {
  let confirming = false;
  /** @type {{state: GameState, role: string} | null} */
  let last = null;

  /**
   * @param {string} event
   * @param {object} [fields]
   */
  async function act(event, fields = {}) {
    message.textContent = '';
    const reply = await send(event, fields);
    if (!reply.ok) message.textContent = refusalText(reply);
  }

  /**
   * @param {GameState} state
   * @param {string} role
   */
  function render(state, role) {
    last = { state, role };
    container.replaceChildren();
    container.hidden = role === 'spectator';
    if (container.hidden) return;
    const buttons =
      state.status === 'playing' ? playingButtons(state, role) : endedButtons(state, role);
    if (confirming && state.status === 'playing') {
      const question = document.createElement('span');
      question.className = 'confirm-question';
      question.textContent = t('Resign this game?');
      container.append(question);
    }
    for (const spec of buttons) container.append(makeButton(spec));
  }

  /**
   * @param {GameState} state
   * @param {string} role
   * @returns {ButtonSpec[]}
   */
  function playingButtons(state, role) {
    if (confirming) {
      return [
        {
          id: 'confirm-resign',
          label: t('Yes, resign'),
          run: () => {
            confirming = false;
            act('resign');
          },
        },
        {
          id: 'cancel-resign',
          label: t('No, play on'),
          run: () => {
            confirming = false;
            rerender();
          },
        },
      ];
    }
    /** @type {ButtonSpec[]} */
    const buttons = [
      {
        id: 'resign',
        label: t('Resign'),
        run: () => {
          // "Confirm resignation" is the player's preference (preferences.js): on by default.
          if (!preferences().confirm_resign) {
            act('resign');
            return;
          }
          confirming = true;
          rerender();
        },
      },
    ];
    if (state.ply < 2) buttons.push({ id: 'abort', label: t('Abort game'), run: () => act('abort') });
    buttons.push(...offerButtons(state, role, 'draw'));
    if (state.can_claim_draw && state.turn === role) {
      buttons.push({ id: 'claim-draw', label: t('Claim a draw'), run: () => act('claim_draw') });
    }
    if (hasMoved(state, role)) {
      buttons.push(...offerButtons(state, role, 'takeback'));
    }
    return buttons;
  }

  /**
   * @param {GameState} state
   * @param {string} role
   * @returns {ButtonSpec[]}
   */
  function endedButtons(state, role) {
    if (state.rematch) {
      return [
        {
          id: 'open-rematch',
          label: t('Go to the rematch'),
          run: () => {
            window.location.href = `/game/${state.rematch}`;
          },
        },
      ];
    }
    return offerButtons(state, role, 'rematch');
  }

  /**
   * @param {GameState} state
   * @param {string} role
   * @param {string} kind
   * @returns {ButtonSpec[]}
   */
  function offerButtons(state, role, kind) {
    const words = OFFER_WORDS[kind];
    const by = state.offers[kind];
    if (by === role) return [{ id: `${kind}-pending`, label: words.pending, disabled: true }];
    if (by) {
      return [
        { id: `accept-${kind}`, label: words.accept, run: () => act('accept', { kind }) },
        { id: `decline-${kind}`, label: words.decline, run: () => act('decline', { kind }) },
      ];
    }
    return [{ id: `offer-${kind}`, label: words.offer, run: () => act('offer', { kind }) }];
  }

  function rerender() {
    if (last) render(last.state, last.role);
    container.querySelector('button')?.focus();
  }

  return { render };
}

/** @param {ButtonSpec} spec */
function makeButton({ id, label, run, disabled }) {
  const button = document.createElement('button');
  button.type = 'button';
  button.id = id;
  button.textContent = label;
  button.disabled = Boolean(disabled);
  if (run) button.addEventListener('click', run);
  return button;
}

/**
 * Whether `role` has made a move: the first move is by the start FEN's side to move.
 * @param {GameState} state
 * @param {string} role
 */
function hasMoved(state, role) {
  const firstMover = state.start_fen.split(' ')[1] === 'b' ? 'black' : 'white';
  return state.ply >= 2 || (state.ply === 1 && firstMover === role);
}
