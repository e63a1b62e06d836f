// @ts-check
/**
 * The wire's values as the pages read them, for the type checker only (no page imports this
 * module when it runs). docs/protocol.md defines them; only the fields the pages lean on are
 * named here, the rest stay open (`any`), so the server's format has one definition.
 */

/** @typedef {'white' | 'black'} Color */

/** A square's name, 'a1' to 'h8' (chessground's `Key`). */
/** @typedef {import('/vendor/chessground/types.js').Key} Square */

/** A shape drawn on the board: a circle (`orig`) or an arrow (`orig` to `dest`). */
/** @typedef {import('/vendor/chessground/draw.js').DrawShape} Shape */

/**
 * A game's state as `join` answers it and `state` pushes it.
 * @typedef {{
 *   ply: number,
 *   version: number,
 *   fen: string,
 *   status: string,
 *   [field: string]: any,
 * }} GameState
 */

/**
 * A position's facts (threats, insight, destinations) as the server sends them.
 * @typedef {{fen: string, [field: string]: any}} Position
 */

/**
 * Any other object of the wire format, its fields as docs/protocol.md gives them.
 * @typedef {{[field: string]: any}} WireObject
 */

export {};
