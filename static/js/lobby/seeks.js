/**
 * Open challenges: the list everyone in the lobby sees, kept by id from the server's
 * `seek_added` / `seeks_removed` messages, and the form that creates one. Every name is put
 * on the page as text (textContent), never as markup.
 */

const $ = (selector) => document.querySelector(selector);
const SIDES = { white: 'White', black: 'Black', random: 'Random' };

export function makeSeekList({ onJoin, onCancel }) {
  const seeks = new Map();
  let ownId = null;

  function render() {
    const body = $('#seek-list');
    body.replaceChildren();
    for (const seek of seeks.values()) body.append(makeRow(seek));
    $('#no-seeks').hidden = seeks.size > 0;
  }

  function makeRow(seek) {
    const row = document.createElement('tr');
    row.dataset.seek = seek.id;
    const own = seek.id === ownId;
    const cells = [seek.name, seek.control ?? 'No clock', SIDES[seek.color] + (seek.assisted ? '' : ' · unassisted')];
    for (const text of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    row.cells[0].className = 'seek-name';
    const action = document.createElement('td');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = own ? 'Cancel' : 'Join';
    button.setAttribute('aria-label', own ? 'Cancel your challenge' : `Join the challenge of ${seek.name}`);
    button.addEventListener('click', () => (own ? onCancel(seek) : onJoin(seek, button)));
    action.append(button);
    row.append(action);
    if (own) row.classList.add('own');
    return row;
  }

  return {
    reset(list) {
      seeks.clear();
      for (const seek of list) seeks.set(seek.id, seek);
      render();
    },
    add(seek) {
      seeks.set(seek.id, seek);
      render();
    },
    remove(ids) {
      for (const id of ids) seeks.delete(id);
      if (ids.includes(ownId)) ownId = null;
      render();
    },
    setOwn(id) {
      ownId = id;
      render();
    },
    get ownId() {
      return ownId;
    },
  };
}

/** The seek request the form describes. */
export function readSeekForm(name) {
  const control = $('#seek-control').value;
  return {
    control: control || null,
    color: $('#seek-color').value,
    assisted: $('#seek-assisted').checked,
    name,
  };
}
