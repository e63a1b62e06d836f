// @ts-check
/**
 * The move list of the analysis board, drawn as lichess draws it: the main line in pairs
 * (number, White's move, Black's move), and where a main-line move has variations or a
 * comment, a full-width block after it holding the comment and each variation on a line of
 * its own, deeper variations inline in parentheses. NAGs are shown as their glyphs, the
 * node on view is marked (`aria-current`), a click goes to a node, and a right click opens a
 * menu to promote or delete the variation (the buttons under the list do the same for the
 * node on view, on a touch screen too).
 *
 * Move numbers come from the root FEN's move number and side to move: notation, not rules.
 */
import { t } from '../i18n.js';

/** @typedef {import('./tree.js').TreeNode} TreeNode */
/**
 * @typedef {object} TreeActions
 * @property {(id: string) => void} onSelect
 * @property {(id: string, x: number, y: number) => void} onMenu
 */
/**
 * What drawing one tree needs throughout.
 * @typedef {{
 *   tree: import('./tree.js').AnalysisTree,
 *   currentId: string,
 *   actions: TreeActions,
 *   start: number,
 * }} DrawContext
 */

/** @type {Record<number, string>} */
const NAG_GLYPHS = {
  1: '!',
  2: '?',
  3: '!!',
  4: '??',
  5: '!?',
  6: '?!',
  7: '□',
  10: '=',
  13: '∞',
  14: '⩲',
  15: '⩱',
  16: '±',
  17: '∓',
  18: '+−',
  19: '−+',
  22: '⨀',
  32: '⟳',
  36: '→',
  40: '↑',
  132: '⇆',
  138: '⊕',
  146: 'N',
};

/**
 * The glyph of NAG `nag` (`$n` for one without a glyph).
 * @param {number} nag
 */
export const nagGlyph = (nag) => NAG_GLYPHS[nag] ?? `$${nag}`;

/**
 * Plies before the root position, from its FEN: White to move on move 1 is 0.
 * @param {string} fen
 */
export function rootPly(fen) {
  const [, side, , , , fullmove] = fen.split(' ');
  return ((Number(fullmove) || 1) - 1) * 2 + (side === 'b' ? 1 : 0);
}

/**
 * Draw `tree` into `container`, marking `currentId`. `actions`: onSelect(id),
 * onMenu(id, x, y) (a right click on a move).
 * @param {HTMLElement} container
 * @param {import('./tree.js').AnalysisTree} tree
 * @param {string} currentId
 * @param {TreeActions} actions
 */
export function renderTree(container, tree, currentId, actions) {
  const start = rootPly(tree.root.fen);
  const context = { tree, currentId, actions, start };
  const rows = document.createElement('div');
  rows.className = 'tree-main';
  if (tree.root.comment) rows.append(interrupt(context, tree.root, [], start));
  let parent = tree.root;
  let depth = 0;
  let needsIndex = true;
  while (parent.children.length > 0) {
    const [main, ...variations] = parent.children;
    const before = start + depth;
    const white = before % 2 === 0;
    if (white || needsIndex) rows.append(indexCell(before));
    if (!white && needsIndex) rows.append(emptyCell());
    rows.append(moveButton(context, main, before, 'main'));
    needsIndex = false;
    if (variations.length > 0 || main.comment) {
      if (white) rows.append(emptyCell());
      rows.append(interrupt(context, main, variations, before));
      needsIndex = true;
    }
    parent = main;
    depth += 1;
  }
  container.replaceChildren(rows);
  if (tree.root.children.length === 0) {
    const empty = document.createElement('p');
    empty.className = 'note tree-empty';
    empty.textContent = t('No moves yet: play one on the board.');
    container.append(empty);
  }
  const current = container.querySelector('[aria-current="true"]');
  current?.scrollIntoView({ block: 'nearest' });
}

/** @param {number} before */
function indexCell(before) {
  const cell = document.createElement('span');
  cell.className = 'tree-index';
  cell.textContent = String(Math.floor(before / 2) + 1);
  return cell;
}

function emptyCell() {
  const cell = document.createElement('span');
  cell.className = 'tree-empty-move';
  cell.textContent = '…';
  return cell;
}

/**
 * The block after a main-line move: its comment, then each of its variations on a line.
 * @param {DrawContext} context
 * @param {TreeNode} node
 * @param {TreeNode[]} variations
 * @param {number} before
 */
function interrupt(context, node, variations, before) {
  const block = document.createElement('div');
  block.className = 'tree-interrupt';
  if (node.comment) block.append(commentSpan(node.comment));
  for (const variation of variations) {
    const lineBox = document.createElement('div');
    lineBox.className = 'tree-line';
    appendLine(context, lineBox, variation, before);
    block.append(lineBox);
  }
  return block;
}

/**
 * A variation inline from `node` (played at ply `before`) to the end of its line, with
 * deeper variations in parentheses after the move they replace.
 * @param {DrawContext} context
 * @param {HTMLElement} box
 * @param {TreeNode} first
 * @param {number} before
 */
function appendLine(context, box, first, before) {
  let node = first;
  let ply = before;
  let numbered = true;
  /** @type {TreeNode[]} */
  let alternatives = [];
  for (;;) {
    if (ply % 2 === 0 || numbered) box.append(numberSpan(ply));
    box.append(moveButton(context, node, ply, 'variation'));
    numbered = Boolean(node.comment);
    if (node.comment) box.append(commentSpan(node.comment));
    for (const variation of alternatives) {
      const nested = document.createElement('span');
      nested.className = 'tree-nested';
      appendLine(context, nested, variation, ply);
      box.append(nested);
      numbered = true;
    }
    if (node.children.length === 0) return;
    [node, ...alternatives] = node.children;
    ply += 1;
  }
}

/** @param {number} ply */
function numberSpan(ply) {
  const span = document.createElement('span');
  span.className = 'tree-number';
  span.textContent = `${Math.floor(ply / 2) + 1}${ply % 2 === 0 ? '.' : '…'}`;
  return span;
}

/** @param {string} text */
function commentSpan(text) {
  const span = document.createElement('span');
  span.className = 'tree-comment';
  span.textContent = text;
  return span;
}

/**
 * @param {DrawContext} context
 * @param {TreeNode} node
 * @param {number} before
 * @param {string} kind
 */
function moveButton({ currentId, actions }, node, before, kind) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `tree-move ${kind}`;
  button.dataset.id = node.id;
  button.dataset.uci = node.uci ?? '';
  const glyphs = node.nags.map(nagGlyph).join('');
  button.textContent = node.san ?? '';
  if (glyphs) {
    const glyph = document.createElement('span');
    glyph.className = 'tree-glyph';
    glyph.textContent = glyphs;
    button.append(glyph);
  }
  const said = { number: Math.floor(before / 2) + 1, move: `${node.san}${glyphs}` };
  button.setAttribute(
    'aria-label',
    before % 2 === 0 ? t('{number} White: {move}', said) : t('{number} Black: {move}', said),
  );
  // One move in the tab order, the one on view: the keys walk the tree from there.
  button.tabIndex = node.id === currentId ? 0 : -1;
  if (node.id === currentId) button.setAttribute('aria-current', 'true');
  button.addEventListener('click', () => actions.onSelect(node.id));
  button.addEventListener('contextmenu', (event) => {
    event.preventDefault();
    actions.onMenu(node.id, event.clientX, event.clientY);
  });
  return button;
}
