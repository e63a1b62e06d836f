/**
 * The move tree of the analysis board, as plain data: the root position and its nodes, each
 * as the server described it (`uci`, `san`, `fen`, `comment`, `nags`, `clock`, `eval`,
 * `children`, see docs/protocol.md), `children[0]` the main line and the rest variations in
 * order. The page gives every node an `id` and keeps an index from id to parent.
 *
 * It knows no chess: every node it holds came from the server, and a new one is added only
 * after the server answered for its path. A node is named by its id; a path (what the server
 * is asked about) is the root FEN and the UCI moves down to the node.
 */

export const ROOT = 'root';

/** A tree from the server's tree (`POST /api/analysis`, `GET /api/analysis/<id>`). */
export function createTree(data) {
  let counter = 0;
  const parents = new Map();
  const nodes = new Map();
  const root = {
    id: ROOT,
    uci: null,
    san: null,
    fen: data.fen,
    comment: data.comment ?? null,
    nags: [],
    eval: null,
    children: [],
  };
  nodes.set(ROOT, root);

  function adopt(parent, raw) {
    counter += 1;
    const node = {
      id: `n${counter}`,
      uci: raw.uci,
      san: raw.san,
      fen: raw.fen,
      comment: raw.comment ?? null,
      nags: raw.nags ?? [],
      clock: raw.clock ?? null,
      eval: raw.eval ?? null,
      children: [],
    };
    nodes.set(node.id, node);
    parents.set(node.id, parent.id);
    parent.children.push(node);
    for (const child of raw.children ?? []) adopt(node, child);
    return node;
  }
  for (const child of data.children ?? []) adopt(root, child);

  const get = (id) => nodes.get(id) ?? null;
  const parentOf = (id) => get(parents.get(id));

  /** The nodes from the root down to `id`, both included. */
  function line(id) {
    const found = [];
    for (let node = get(id); node; node = parentOf(node.id)) found.push(node);
    return found.reverse();
  }

  /** The first node of the variation `id` lies in (itself or an ancestor not a main child). */
  function variationStart(id) {
    for (let node = get(id); node && node.id !== ROOT; node = parentOf(node.id)) {
      if (parentOf(node.id).children[0] !== node) return node;
    }
    return null;
  }

  function forget(node) {
    nodes.delete(node.id);
    parents.delete(node.id);
    for (const child of node.children) forget(child);
  }

  return {
    root,
    get,
    parentOf,
    line,
    /** The server's path to `id`: {fen: root FEN, moves: [uci...]}. */
    path: (id) => ({
      fen: root.fen,
      moves: line(id)
        .slice(1)
        .map((node) => node.uci),
    }),
    /** How many moves below the root `id` is. */
    depth: (id) => line(id).length - 1,
    /**
     * Add the server's `raw` node under `parentId`, or follow the child that already plays
     * its move. A new child goes last: the main line when it is the first, else a variation.
     */
    addChild(parentId, raw) {
      const parent = get(parentId);
      const existing = parent.children.find((child) => child.uci === raw.uci);
      return existing ?? adopt(parent, { ...raw, children: [] });
    },
    /** Make the variation `id` is in the main line at its branch point; false if it is one. */
    promote(id) {
      const start = variationStart(id);
      if (!start) return false;
      const siblings = parentOf(start.id).children;
      siblings.splice(siblings.indexOf(start), 1);
      siblings.unshift(start);
      return true;
    },
    /** Delete `id` and everything after it; returns its parent's id (null for the root). */
    remove(id) {
      const node = get(id);
      const parent = parentOf(id);
      if (!node || !parent) return null;
      parent.children.splice(parent.children.indexOf(node), 1);
      forget(node);
      return parent.id;
    },
    variationStart,
    /** Whether `id` is on the main line (the root's first children all the way). */
    isMainline: (id) => variationStart(id) === null,
    /** The last node of the line through `id`, following first children. */
    end(id) {
      let node = get(id);
      while (node.children.length > 0) [node] = node.children;
      return node.id;
    },
    /** The child `choice` of `id` (the main line by default), or null at the end of a line. */
    next(id, choice = 0) {
      const children = get(id).children;
      return (children[choice] ?? children[0])?.id ?? null;
    },
    /** Out of the variation `id` is in: to the node it branches from (lichess's shift+←). */
    exitVariation(id) {
      const start = variationStart(id);
      return start ? parents.get(start.id) : null;
    },
    /** Into the first variation at `id` (lichess's shift+→), or null where there is none. */
    enterVariation: (id) => get(id).children[1]?.id ?? null,
    /** The tree in the export form: the root FEN and the nodes' uci/comment/nags/eval. */
    toExport() {
      const strip = (node) => ({
        uci: node.uci,
        comment: node.comment,
        nags: node.nags,
        eval: node.eval,
        children: node.children.map(strip),
      });
      return { fen: root.fen, comment: root.comment, children: root.children.map(strip) };
    },
  };
}
