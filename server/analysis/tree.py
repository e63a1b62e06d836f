"""The move tree of the analysis board as the wire carries it: a flat table of nodes.

A tree travels as `{"fen": root FEN, "nodes": [...]}` where `nodes[0]` is the root (no move) and
every other node names its `parent` by index, its move in UCI (and SAN, the FEN after it, its
ply from the root), the comment, NAGs, clock and evaluation a PGN gave it, and its `children`
by index: `children[0]` continues the line, the others are its variations in order. Flat, not
nested, because a 600-ply game nested as children would be 1,200 JSON levels deep, past what
any JSON limit here accepts. In chesscore the same tree is an `ImportedGame` whose nodes carry
their alternatives (`chesscore.rules.pgn_import.Node.variations`), the form PGN is read into
and written from (`chesscore.rules.pgn_export`); `make_tree` and `parse_tree` convert between
the two without recursion and without a board per node, every move replayed, so a tree from
a client is refused, naming the node, at its first illegal move.
"""

from __future__ import annotations

import re
from typing import Any

from chesscore import Board, ChessError, Move
from chesscore.rules.pgn_import import ImportedGame, Node
from chesscore.words import say
from server.shared.display import display_headers
from server.shared.errors import N_, RequestError, refusal, spoken

MAX_NODES = 5_000
MAX_PATH = 1_000  # moves from the root to a node
MAX_VARIATION_DEPTH = 64  # variations inside variations
MAX_COMMENT = 2_000  # characters
MAX_NAGS = 8
EVALUATION = re.compile(r"(#)?([+-]?\d+(?:\.\d+)?)")

IMPOSSIBLE_NOTICE = N_(
    "this position cannot arise in a game (its checks could not have been given); analysis only"
)


def parse_root(fen: Any) -> tuple[Board, str | None]:
    """The root board of an analysis and its notice: a position that cannot arise in a game
    but has legal moves (checks no move could give) is accepted for analysis, as python-chess
    and Stockfish accept it, with a notice; anything else is refused (`bad_fen`)."""
    if not isinstance(fen, str):
        raise RequestError("bad_fen", "'fen' must be a FEN string")
    try:
        return Board.from_fen(fen), None
    except ChessError as strict_error:
        try:
            board = Board.from_fen(fen, allow_impossible_checks=True)
        except ChessError:
            raise refusal("bad_fen", strict_error) from strict_error
        return board, IMPOSSIBLE_NOTICE


def say_notice(notice: str | None) -> str | None:
    """A root's notice in the language of the request it goes to: trees and boards are made
    in English (in the work pool, where no request is), and the notice said as they are sent."""
    return None if notice is None else spoken(say(notice))


def replay_path(fen: str, moves: list[str]) -> tuple[Board, str | None]:
    """The board at the end of a path (root FEN, UCI moves; the last one may be SAN; the
    transport has checked their form and number) and the root's notice; `illegal_move` names
    the first move that cannot be played and its index."""
    board, notice = parse_root(fen)
    for index, text in enumerate(moves):
        play_path_move(board, text, index, last=index == len(moves) - 1)
    return board, notice


def play_path_move(board: Board, text: str, index: int, last: bool) -> None:
    """Play move `index` of a path on `board` (UCI, or SAN when it is the `last`)."""
    try:
        if last and not looks_like_uci(text):
            board.push_san(text)
        else:
            board.push(board.parse_uci(text))
    except ChessError as error:
        raise RequestError(
            "illegal_move",
            N_("move {number} of the path, {move}: {reason}"),
            number=index + 1,
            move=repr(text),
            reason=error.message,
        ) from error


def looks_like_uci(text: str) -> bool:
    return re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", text) is not None


def make_tree(game: ImportedGame, analysis_id: str | None, notice: str | None) -> dict[str, Any]:
    """The wire form of `game`'s tree (see the module docstring)."""
    board = Board.from_fen(game.start_fen, allow_impossible_checks=True)
    nodes: list[dict[str, Any]] = [_root_json(board, game.comment or None)]
    # Lines still to write: (parent index, the line continuing it). Each node's variations are
    # the parent's further children, so they are queued to be written once the main child is
    # in place; a stack (variations pushed in reverse) keeps their order. A variation is played
    # on a board made from its parent's FEN: a copy of the line's board would carry the whole
    # history along, one per variation waiting on the stack.
    stack: list[tuple[int, tuple[Node, ...]]] = [(0, game.moves)]
    while stack:
        parent, line = stack.pop()
        line_board = board if line is game.moves else _board_at(nodes[parent])
        for node in line:
            stack.extend((parent, variation) for variation in reversed(node.variations))
            line_board.push(node.move)
            child = len(nodes)
            nodes.append(_node_json(child, parent, node, line_board, nodes[parent]["ply"] + 1))
            nodes[parent]["children"].append(child)
            parent = child
    return {
        "id": analysis_id,
        "fen": game.start_fen,
        "headers": display_headers(game.headers),
        "result": game.result,
        "notice": notice,
        "nodes": nodes,
    }


def _board_at(node: dict[str, Any]) -> Board:
    return Board.from_fen(node["fen"], allow_impossible_checks=True)


def _root_json(board: Board, comment: str | None) -> dict[str, Any]:
    return {
        "id": 0,
        "parent": None,
        "uci": None,
        "san": None,
        "fen": board.fen(),
        "ply": 0,
        "comment": comment,
        "nags": [],
        "clock": None,
        "eval": None,
        "children": [],
    }


def _node_json(index: int, parent: int, node: Node, board: Board, ply: int) -> dict[str, Any]:
    return {
        "id": index,
        "parent": parent,
        "uci": node.move.uci(),
        "san": node.san,
        "fen": board.fen(),
        "ply": ply,
        "comment": node.comment or None,
        "nags": list(node.nags),
        "clock": node.clock,
        "eval": evaluation_json(node.evaluation),
        "children": [],
    }


def evaluation_json(evaluation: str | None) -> dict[str, int] | None:
    """`[%eval]` text ("0.17", "-1.5", "#-3") as `{"cp": 17}` or `{"mate": -3}`."""
    match = EVALUATION.fullmatch(evaluation.strip()) if evaluation else None
    if match is None:
        return None
    if match.group(1):
        return {"mate": int(float(match.group(2)))}
    return {"cp": round(float(match.group(2)) * 100)}


def evaluation_text(evaluation: Any) -> str | None:
    """`{"cp": 17}` / `{"mate": -3}` as `[%eval]` writes it ("0.17", "#-3"); None otherwise."""
    if not isinstance(evaluation, dict) or len(evaluation) != 1:
        return None
    kind, value = next(iter(evaluation.items()))
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 100_000:
        return None
    if kind == "mate":
        return f"#{value}"
    if kind == "cp":
        sign = "-" if value < 0 else ""
        return f"{sign}{abs(value) // 100}.{abs(value) % 100:02d}"
    return None


def parse_tree(data: Any) -> tuple[ImportedGame, str | None]:
    """An `ImportedGame` from the wire form of a tree, every move replayed (`bad_tree` naming
    the node on anything wrong), and the root's notice."""
    if not isinstance(data, dict):
        raise RequestError("bad_tree", "'tree' must be an object with 'fen' and 'nodes'")
    root, notice = parse_root(data.get("fen"))
    raw = data.get("nodes")
    if not isinstance(raw, list) or not raw or len(raw) > MAX_NODES:
        raise RequestError(
            "bad_tree", N_("'nodes' must be a list of 1 to {MAX_NODES} nodes"), MAX_NODES=MAX_NODES
        )
    headers = _parse_headers(data.get("headers", {}))
    drafts = _replay_nodes(raw, root)
    children: list[list[int]] = [[] for _ in drafts]
    for index, (parent, *_rest) in enumerate(drafts[1:], start=1):
        children[parent].append(index)
    built = _build_nodes(drafts, children)
    moves = _line_of(children[0][0], built, children) if children[0] else ()
    root_comment = _parse_comment(raw[0], 0)
    result = data.get("result", "*")
    game = ImportedGame(headers, root.fen(), moves, root_comment, _parse_result(result), 1)
    return game, notice


Draft = tuple[int, Move, str, str, tuple[int, ...], float | None, str | None]


def _replay_nodes(raw: list[Any], root: Board) -> list[Draft]:
    """Each node's parent, move, SAN, comment, NAGs, clock and evaluation: the fields checked
    in index order, then every move played on one board, depth first (a board per node would
    copy a history of up to MAX_PATH moves per node)."""
    parents, ucis, notes = _check_nodes(raw)
    children: list[list[int]] = [[] for _ in raw]
    for index, parent in enumerate(parents[1:], start=1):
        children[parent].append(index)
    played: list[tuple[Move, str] | None] = [None] * len(raw)
    board = root.copy()
    stack = [(child, False) for child in reversed(children[0])]
    while stack:
        index, leaving = stack.pop()
        if leaving:
            board.pop()
            continue
        try:
            move = board.parse_uci(ucis[index])
        except ChessError as error:
            raise RequestError(
                "bad_tree", N_("node {index}: {reason}"), index=index, reason=error.message
            ) from error
        played[index] = (move, board.san(move))
        board.push(move)
        stack.append((index, True))
        stack.extend((child, False) for child in reversed(children[index]))
    drafts: list[Draft] = [(-1, Move.from_uci("a1a2"), "", "", (), None, None)]
    for index in range(1, len(raw)):
        move_and_san = played[index]
        assert move_and_san is not None  # every node descends from the root
        drafts.append((parents[index], *move_and_san, *notes[index]))
    return drafts


Notes = tuple[str, tuple[int, ...], float | None, str | None]


def _check_nodes(raw: list[Any]) -> tuple[list[int], list[str], list[Notes]]:
    """Each node's parent (an earlier node), UCI text and notes (comment, NAGs, clock,
    evaluation), checked in index order with the depth and the nesting of variations."""
    parents, ucis = [-1], [""]
    notes: list[Notes] = [("", (), None, None)]
    depth = [0]
    # Variations inside variations, per node: the PGN writer recurses once per level, so a
    # tree nested deeper than MAX_VARIATION_DEPTH is refused here, naming the node.
    nesting = [0]
    has_child = [False]
    for index, node in enumerate(raw[1:], start=1):
        if not isinstance(node, dict):
            raise RequestError("bad_tree", f"node {index} is not an object")
        parent = node.get("parent")
        if not isinstance(parent, int) or isinstance(parent, bool) or not 0 <= parent < index:
            raise RequestError("bad_tree", f"node {index}: 'parent' must name an earlier node")
        if depth[parent] >= MAX_PATH:
            raise RequestError(
                "bad_tree",
                N_("node {index}: deeper than {MAX_PATH} moves"),
                index=index,
                MAX_PATH=MAX_PATH,
            )
        nesting.append(nesting[parent] + has_child[parent])
        has_child[parent] = True
        has_child.append(False)
        if nesting[index] > MAX_VARIATION_DEPTH:
            raise RequestError(
                "bad_tree",
                N_("node {index}: variations nest deeper than {MAX_VARIATION_DEPTH} levels"),
                index=index,
                MAX_VARIATION_DEPTH=MAX_VARIATION_DEPTH,
            )
        uci = node.get("uci")
        if not isinstance(uci, str) or not 4 <= len(uci) <= 5:
            raise RequestError("bad_tree", f"node {index}: 'uci' must be a move in UCI")
        clock = node.get("clock")
        if not isinstance(clock, (int, float)) or isinstance(clock, bool) or not 0 <= clock < 1e7:
            clock = None
        parents.append(parent)
        ucis.append(uci)
        depth.append(depth[parent] + 1)
        notes.append(
            (
                _parse_comment(node, index),
                _parse_nags(node.get("nags", []), index),
                None if clock is None else float(clock),
                evaluation_text(node.get("eval")),
            )
        )
    return parents, ucis, notes


def _build_nodes(drafts: list[Draft], children: list[list[int]]) -> dict[int, Node]:
    """Every node as chesscore's `Node`, built from the last index down: a node's children and
    its later siblings (its variations) come after it, so they are built before it."""
    built: dict[int, Node] = {}
    for index in range(len(drafts) - 1, 0, -1):
        parent, move, san, comment, nags, clock, evaluation = drafts[index]
        siblings = children[parent]
        variations: tuple[tuple[Node, ...], ...] = ()
        if siblings[0] == index:
            variations = tuple(_line_of(other, built, children) for other in siblings[1:])
        built[index] = Node(move, san, comment, nags, clock, evaluation, variations)
    return built


def _line_of(first: int, built: dict[int, Node], children: list[list[int]]) -> tuple[Node, ...]:
    line = [built[first]]
    index = first
    while children[index]:
        index = children[index][0]
        line.append(built[index])
    return tuple(line)


def _parse_comment(node: Any, index: int) -> str:
    comment = node.get("comment") if isinstance(node, dict) else None
    if comment is None:
        return ""
    if not isinstance(comment, str) or len(comment) > MAX_COMMENT:
        raise RequestError(
            "bad_tree",
            N_("node {index}: 'comment' must be text of at most {MAX_COMMENT} characters"),
            index=index,
            MAX_COMMENT=MAX_COMMENT,
        )
    return comment


def _parse_nags(nags: Any, index: int) -> tuple[int, ...]:
    if not isinstance(nags, list) or len(nags) > MAX_NAGS:
        raise RequestError(
            "bad_tree", N_("node {index}: 'nags' must be a list of NAG numbers"), index=index
        )
    for nag in nags:
        if not isinstance(nag, int) or isinstance(nag, bool) or not 0 < nag < 256:
            raise RequestError(
                "bad_tree",
                N_("node {index}: NAG {nag} is not a number 1-255"),
                index=index,
                nag=repr(nag),
            )
    return tuple(nags)


def _parse_headers(headers: Any) -> dict[str, str]:
    if not isinstance(headers, dict) or len(headers) > 50:
        raise RequestError(
            "bad_tree", N_("'headers' must be an object of at most {count} tag pairs"), count=50
        )
    for name, value in headers.items():
        if not re.fullmatch(r"[A-Za-z0-9_]{1,40}", name) or not isinstance(value, str):
            raise RequestError(
                "bad_tree", N_("header {name} must be a tag name with text"), name=repr(name[:40])
            )
        if len(value) > 200:
            raise RequestError(
                "bad_tree",
                N_("header {name} is longer than {count} characters"),
                name=repr(name),
                count=200,
            )
    return dict(headers)


def _parse_result(result: Any) -> str:
    if result not in ("1-0", "0-1", "1/2-1/2", "*"):
        raise RequestError("bad_tree", "'result' must be 1-0, 0-1, 1/2-1/2 or *")
    return str(result)
