// @ts-check
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

/**
 * A node of the tree: the server's description of a move (the root: of the start position).
 * @typedef {object} TreeNode
 * @property {string} id the page's name for it
 * @property {string | null} uci
 * @property {string | null} san
 * @property {string} fen
 * @property {string | null} comment
 * @property {number[]} nags
 * @property {unknown} [clock]
 * @property {unknown} eval
 * @property {TreeNode[]} children
 */

/**
 * A node in the server's flat form: its children named by index.
 * @typedef {{
 *   uci?: string,
 *   san?: string,
 *   fen?: string,
 *   comment?: string | null,
 *   nags?: number[],
 *   clock?: unknown,
 *   eval?: unknown,
 *   children?: number[],
 *   parent?: number | null,
 * }} FlatNode
 */

/** @typedef {ReturnType<typeof createTree>} AnalysisTree */

/**
 * A tree from the server's flat form (`{fen, headers, result, nodes}`, `nodes[0]` the root,
 * each node naming its `children` by index: `POST /api/analysis`, `GET /api/analysis/<id>`),
 * or a bare root `{fen}` (a position from the editor).
 * @param {object} data
 * @param {string} data.fen
 * @param {string | null} [data.comment]
 * @param {Record<string, string>} [data.headers]
 * @param {string} [data.result]
 * @param {FlatNode[]} [data.nodes]
 */
export function createTree(data) {
  let counter = 0;
  /** @type {Map<string, string>} */
  const parents = new Map();
  /** @type {Map<string, TreeNode>} */
  const nodes = new Map();
  const flat = data.nodes ?? [{ comment: data.comment ?? null, children: [] }];
  /** @type {TreeNode} */
  const root = {
    id: ROOT,
    uci: null,
    san: null,
    fen: data.fen,
    comment: flat[0].comment ?? null,
    nags: [],
    eval: null,
    children: [],
  };
  nodes.set(ROOT, root);
  const headers = { ...(data.headers ?? {}) };
  const result = data.result ?? '*';

  /**
   * @param {TreeNode} parent
   * @param {FlatNode} raw
   * @returns {TreeNode}
   */
  function adopt(parent, raw) {
    counter += 1;
    const node = {
      id: `n${counter}`,
      uci: raw.uci ?? null,
      san: raw.san ?? null,
      fen: raw.fen ?? '',
      comment: raw.comment ?? null,
      nags: raw.nags ?? [],
      clock: raw.clock ?? null,
      eval: raw.eval ?? null,
      children: [],
    };
    nodes.set(node.id, node);
    parents.set(node.id, parent.id);
    parent.children.push(node);
    return node;
  }
  // Breadth first, without recursion: a long game is a chain a thousand nodes deep.
  /** @type {[TreeNode, FlatNode][]} */
  const queue = [[root, flat[0]]];
  for (let at = 0; at < queue.length; at += 1) {
    const [parent, raw] = queue[at];
    for (const index of raw.children ?? []) queue.push([adopt(parent, flat[index]), flat[index]]);
  }

  /** @param {string | null | undefined} id */
  const get = (id) => (id == null ? null : nodes.get(id) ?? null);
  /** @param {string} id */
  const parentOf = (id) => get(parents.get(id));
  /**
   * The node `id`, which the caller knows is in the tree.
   * @param {string} id
   */
  function must(id) {
    const node = nodes.get(id);
    if (!node) throw new Error(`no node ${id} in the analysis tree`);
    return node;
  }

  /**
   * The nodes from the root down to `id`, both included.
   * @param {string} id
   */
  function line(id) {
    const found = [];
    for (let node = get(id); node; node = parentOf(node.id)) found.push(node);
    return found.reverse();
  }

  /**
   * The first node of the variation `id` lies in (itself or an ancestor not a main child).
   * @param {string} id
   * @returns {TreeNode | null}
   */
  function variationStart(id) {
    for (let node = get(id); node && node.id !== ROOT; node = parentOf(node.id)) {
      if (parentOf(node.id)?.children[0] !== node) return node;
    }
    return null;
  }

  /** @param {TreeNode} node */
  function forget(node) {
    nodes.delete(node.id);
    parents.delete(node.id);
    for (const child of node.children) forget(child);
  }

  return {
    root,
    headers,
    result,
    get,
    /** The node `id`, which the caller knows is in the tree (else an error says so). */
    node: must,
    parentOf,
    line,
    /**
     * The server's path to `id`: {fen: root FEN, moves: [uci...]}.
     * @param {string} id
     */
    path: (id) => ({
      fen: root.fen,
      moves: line(id)
        .slice(1)
        .map((node) => /** @type {string} */ (node.uci)), // every node below the root has one
    }),
    /**
     * How many moves below the root `id` is.
     * @param {string} id
     */
    depth: (id) => line(id).length - 1,
    /**
     * Add the server's `raw` node under `parentId`, or follow the child that already plays
     * its move. A new child goes last: the main line when it is the first, else a variation.
     * @param {string} parentId
     * @param {FlatNode} raw
     */
    addChild(parentId, raw) {
      const parent = must(parentId);
      const existing = parent.children.find((child) => child.uci === raw.uci);
      return existing ?? adopt(parent, raw);
    },
    /**
     * Make the variation `id` is in the main line at its branch point; false if it is one.
     * @param {string} id
     */
    promote(id) {
      const start = variationStart(id);
      if (!start) return false;
      const siblings = must(/** @type {string} */ (parents.get(start.id))).children;
      siblings.splice(siblings.indexOf(start), 1);
      siblings.unshift(start);
      return true;
    },
    /**
     * Delete `id` and everything after it; returns its parent's id (null for the root).
     * @param {string} id
     */
    remove(id) {
      const node = get(id);
      const parent = parentOf(id);
      if (!node || !parent) return null;
      parent.children.splice(parent.children.indexOf(node), 1);
      forget(node);
      return parent.id;
    },
    variationStart,
    /**
     * Whether `id` is on the main line (the root's first children all the way).
     * @param {string} id
     */
    isMainline: (id) => variationStart(id) === null,
    /**
     * The last node of the line through `id`, following first children.
     * @param {string} id
     */
    end(id) {
      let node = must(id);
      while (node.children.length > 0) [node] = node.children;
      return node.id;
    },
    /**
     * The child `choice` of `id` (the main line by default), or null at the end of a line.
     * @param {string} id
     * @param {number} [choice]
     */
    next(id, choice = 0) {
      const children = must(id).children;
      return (children[choice] ?? children[0])?.id ?? null;
    },
    /**
     * Out of the variation `id` is in: to the node it branches from (lichess's shift+←).
     * @param {string} id
     */
    exitVariation(id) {
      const start = variationStart(id);
      return start ? parents.get(start.id) ?? null : null;
    },
    /**
     * Into the first variation at `id` (lichess's shift+→), or null where there is none.
     * @param {string} id
     */
    enterVariation: (id) => must(id).children[1]?.id ?? null,
    /** The tree in the server's flat form, as `POST /api/analysis/export` reads it. */
    toExport() {
      /** @type {(FlatNode & {children: number[]})[]} */
      const flatNodes = [{ parent: null, comment: root.comment, nags: [], children: [] }];
      /** @type {[TreeNode, number][]} */
      const queue = [[root, 0]];
      for (let at = 0; at < queue.length; at += 1) {
        const [node, index] = queue[at];
        for (const child of node.children) {
          const childIndex = flatNodes.length;
          flatNodes.push({
            parent: index,
            uci: child.uci ?? undefined,
            comment: child.comment,
            nags: child.nags,
            clock: child.clock,
            eval: child.eval,
            children: [],
          });
          flatNodes[index].children.push(childIndex);
          queue.push([child, childIndex]);
        }
      }
      return { fen: root.fen, headers, result, nodes: flatNodes };
    },
  };
}
