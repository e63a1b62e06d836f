// @ts-check
/**
 * The page's own elements, found by id: the templates always have them, so a missing one is a
 * bug of the page, thrown at once instead of a null met later. The kind asked for (an input, a
 * button) is checked too, and so known to the type checker.
 */

/**
 * The element `id` of this page, of kind `kind` (HTMLElement when not given).
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{new (): T, prototype: T}} [kind]
 * @returns {T}
 */
export function byId(id, kind) {
  const element = document.getElementById(id);
  const wanted = kind ?? HTMLElement;
  if (!(element instanceof wanted)) {
    throw new Error(`the page has no ${wanted.name} #${id}`);
  }
  return /** @type {T} */ (element);
}

/**
 * The element under `parent` that `selector` names, of kind `kind` (HTMLElement when not
 * given).
 * @template {HTMLElement} [T=HTMLElement]
 * @param {ParentNode} parent
 * @param {string} selector
 * @param {{new (): T, prototype: T}} [kind]
 * @returns {T}
 */
export function find(parent, selector, kind) {
  const element = parent.querySelector(selector);
  const wanted = kind ?? HTMLElement;
  if (!(element instanceof wanted)) {
    throw new Error(`the page has no ${wanted.name} ${selector}`);
  }
  return /** @type {T} */ (element);
}

/**
 * The element of this page's template that `selector` names, as `document.querySelector`
 * finds it (null where the template lacks it, as before), typed as `_kind` (HTMLElement when
 * not given) for the type checker; the kind is not checked when the page runs.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} selector
 * @param {{new (): T, prototype: T}} [_kind]
 * @returns {T}
 */
export function $(selector, _kind) {
  return /** @type {T} */ (document.querySelector(selector));
}

/**
 * The elements under `parent` (the document when not given) that `selector` names, in
 * document order.
 * @param {string} selector
 * @param {ParentNode} [parent]
 * @returns {HTMLElement[]}
 */
export function all(selector, parent = document) {
  return /** @type {HTMLElement[]} */ ([...parent.querySelectorAll(selector)]);
}
