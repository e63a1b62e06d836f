"""The analysis board's flat move tree (server.analysis.tree): `make_tree` and `parse_tree` round
trips; the edits the page makes on the flat form (a variation made, promoted, deleted) exported
as PGN and read back intact, python-chess building the same tree from the same nodes; bad
trees refused with `bad_tree` naming the node."""

from __future__ import annotations

import io
import random
from typing import Any

import chess
import chess.pgn
import pytest

from chesscore import Board
from chesscore.rules.pgn_export import make_tree_pgn
from chesscore.rules.pgn_import import read_games
from server.analysis.tree import (
    IMPOSSIBLE_NOTICE,
    MAX_COMMENT,
    MAX_NODES,
    MAX_VARIATION_DEPTH,
    evaluation_json,
    evaluation_text,
    make_tree,
    parse_tree,
)
from server.shared.errors import RequestError
from tests.random_trees import random_game
from tests.test_pgn_import import LICHESS, oracle_tree

START = Board().fen()
READ_FIELDS = ("parent", "uci", "comment", "nags", "eval", "clock")


def page_form(tree: dict[str, Any]) -> dict[str, Any]:
    """What the page sends back: the root FEN, headers and only the fields the server reads."""
    nodes = [{name: node[name] for name in READ_FIELDS} for node in tree["nodes"]]
    return {"fen": tree["fen"], "headers": tree["headers"], "nodes": nodes}


def python_chess_tree(tree: dict[str, Any]) -> chess.pgn.Game:
    """The flat tree built node by node by python-chess (children in order of appearance)."""
    game = chess.pgn.Game()
    game.setup(chess.Board(tree["fen"]))
    made: list[chess.pgn.GameNode] = [game]
    for node in tree["nodes"][1:]:
        child = made[node["parent"]].add_variation(chess.Move.from_uci(node["uci"]))
        child.comment = node["comment"] or ""
        child.nags = set(node["nags"])
        made.append(child)
    return game


def assert_facts_agree_with_python_chess(tree: dict[str, Any]) -> None:
    """Every node's SAN, FEN after it, ply and children against python-chess's boards."""
    boards = [chess.Board(tree["fen"])]
    for index, node in enumerate(tree["nodes"]):
        assert node["id"] == index
        for child in node["children"]:
            assert tree["nodes"][child]["parent"] == index
        if index == 0:
            assert node["fen"] == boards[0].fen() and node["ply"] == 0
            continue
        board = boards[node["parent"]].copy(stack=False)
        move = chess.Move.from_uci(node["uci"])
        assert node["san"] == board.san(move)
        board.push(move)
        assert node["fen"] == board.fen()
        assert node["ply"] == tree["nodes"][node["parent"]]["ply"] + 1
        boards.append(board)
    children = sum(len(node["children"]) for node in tree["nodes"])
    assert children == len(tree["nodes"]) - 1


@pytest.mark.parametrize("seed", range(8))
def test_make_tree_and_parse_tree_round_trip(seed: int) -> None:
    game = random_game(seed)
    tree = make_tree(game, None, None)
    assert_facts_agree_with_python_chess(tree)
    parsed, notice = parse_tree(page_form(tree))
    assert notice is None
    assert (parsed.moves, parsed.comment, parsed.start_fen) == (
        game.moves,
        game.comment,
        game.start_fen,
    )
    assert make_tree(parsed, None, None) == tree


def test_a_lichess_game_s_tree() -> None:
    (game,) = read_games(LICHESS)
    tree = make_tree(game, "abcdefgh", None)
    assert tree["id"] == "abcdefgh" and tree["result"] == "0-1"
    assert tree["headers"]["White"] == "alice"
    assert_facts_agree_with_python_chess(tree)
    first = tree["nodes"][1]
    assert (first["uci"], first["san"], first["clock"], first["eval"]) == (
        "e2e4",
        "e4",
        180.0,
        {"cp": 36},
    )
    mate = next(node for node in tree["nodes"] if node["eval"] and "mate" in node["eval"])
    assert (mate["san"], mate["eval"], mate["nags"]) == ("Nxe5", {"mate": -3}, [4])
    # 3... Nd4 ?! has the variation 3... Nf6: both children of the node after 3. Bc4.
    bishop = next(node for node in tree["nodes"] if node["san"] == "Bc4")
    assert [tree["nodes"][child]["san"] for child in bishop["children"]] == ["Nd4", "Nf6"]
    assert python_chess_tree(tree).variations[0].san() == "e4"
    text = make_tree_pgn(parse_tree(page_form(tree))[0])
    assert oracle_tree(text) == oracle_tree(LICHESS)


def test_evaluations_between_text_and_json() -> None:
    assert evaluation_json("0.36") == {"cp": 36}
    assert evaluation_json("-1.5") == {"cp": -150}
    assert evaluation_json("#-3") == {"mate": -3}
    assert evaluation_json("junk") is None
    assert [evaluation_text(value) for value in ({"cp": -5}, {"cp": 1234}, {"mate": 2})] == [
        "-0.05",
        "12.34",
        "#2",
    ]
    assert evaluation_text({"cp": True}) is None and evaluation_text("0.3") is None


# -- the page's edits on the flat form ----------------------------------------------------------


def flatten(tree: dict[str, Any], children: dict[int, list[int]]) -> dict[str, Any]:
    """The page's form of `tree` with `children` (old index -> child indices, in order) as
    its shape: nodes written root first, each parent before its children, renumbered."""
    old_nodes = tree["nodes"]
    order: list[int] = []
    stack = [0]
    while stack:
        index = stack.pop()
        order.append(index)
        stack.extend(reversed(children.get(index, [])))
    new_index = {old: new for new, old in enumerate(order)}
    nodes = []
    for old in order:
        node = {name: old_nodes[old][name] for name in READ_FIELDS}
        parent = old_nodes[old]["parent"]
        node["parent"] = None if parent is None else new_index[parent]
        nodes.append(node)
    return {"fen": tree["fen"], "headers": tree["headers"], "nodes": nodes}


def shape(tree: dict[str, Any]) -> dict[int, list[int]]:
    return {node["id"]: list(node["children"]) for node in tree["nodes"]}


def sans_of_line(tree: dict[str, Any], index: int) -> list[str]:
    """SAN of the line from node `index` following first children."""
    line = []
    while True:
        node = tree["nodes"][index]
        line.append(node["san"])
        if not node["children"]:
            return line
        index = node["children"][0]


def assert_survives_export(edited: dict[str, Any]) -> dict[str, Any]:
    """`edited` (page form) parsed, exported as PGN, read again: the same tree, and the same
    as python-chess builds from the same nodes. Returns the server's tree of it."""
    game, _ = parse_tree(edited)
    tree = make_tree(game, None, None)
    assert_facts_agree_with_python_chess(tree)
    text = make_tree_pgn(game)
    (again,) = read_games(text)
    assert make_tree(again, None, None)["nodes"] == tree["nodes"]
    oracle = python_chess_tree(edited)
    assert oracle_tree(text) == oracle_tree(str(oracle))
    assert chess.pgn.read_game(io.StringIO(text)) is not None
    return tree


def base_tree() -> dict[str, Any]:
    (game,) = read_games("1. e4 { open } e5 (1... c5 2. Nf3 d6) 2. Nf3 $1 Nc6 3. Bb5 a6 *")
    return make_tree(game, None, None)


def test_a_variation_made_from_any_node() -> None:
    tree = base_tree()
    edited = page_form(tree)
    knight = next(node["id"] for node in tree["nodes"] if node["san"] == "Nf3")  # 2. Nf3
    edited["nodes"].append(
        {
            "parent": knight,
            "uci": "g8f6",
            "comment": "Petrov",
            "nags": [5],
            "eval": None,
            "clock": None,
        }
    )
    result = assert_survives_export(edited)
    after = result["nodes"][knight]
    assert [result["nodes"][child]["san"] for child in after["children"]] == ["Nc6", "Nf6"]
    new = result["nodes"][after["children"][1]]
    assert (new["comment"], new["nags"], new["fen"]) == (
        "Petrov",
        [5],
        "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    )
    # A variation of a variation, then a move continuing it.
    edited["nodes"].append({"parent": len(edited["nodes"]) - 1, "uci": "f3e5", **_empty()})
    edited["nodes"].append({"parent": len(edited["nodes"]) - 2, "uci": "b1c3", **_empty()})
    result = assert_survives_export(edited)
    text = " ".join(make_tree_pgn(parse_tree(edited)[0]).split())
    assert "Nc6 (2... Nf6 $5 { Petrov } 3. Nxe5 (3. Nc3)) 3. Bb5" in text


def test_a_variation_promoted() -> None:
    tree = base_tree()
    layout = shape(tree)
    e4 = tree["nodes"][0]["children"][0]
    assert [tree["nodes"][child]["san"] for child in layout[e4]] == ["e5", "c5"]
    layout[e4] = list(reversed(layout[e4]))  # 1... c5 becomes the main line
    result = assert_survives_export(flatten(tree, layout))
    assert sans_of_line(result, 0)[1:] == ["e4", "c5", "Nf3", "d6"]
    e4_after = result["nodes"][result["nodes"][0]["children"][0]]
    variation = result["nodes"][e4_after["children"][1]]
    assert variation["san"] == "e5" and sans_of_line(result, variation["id"]) == [
        "e5",
        "Nf3",
        "Nc6",
        "Bb5",
        "a6",
    ]
    assert result["nodes"][e4_after["id"]]["comment"] == "open"
    text = make_tree_pgn(parse_tree(flatten(tree, layout))[0])
    assert "1. e4 { open } 1... c5 (1... e5 2. Nf3 $1 Nc6 3. Bb5 a6) 2. Nf3 d6 *" in text


def test_a_variation_deleted_and_the_rest_renumbered() -> None:
    tree = base_tree()
    layout = shape(tree)
    e4 = tree["nodes"][0]["children"][0]
    layout[e4] = layout[e4][:1]  # 1... c5 and what follows it are gone
    edited = flatten(tree, layout)
    assert len(edited["nodes"]) == len(tree["nodes"]) - 3
    assert [node["parent"] for node in edited["nodes"]] == [None, *range(len(edited["nodes"]) - 1)]
    result = assert_survives_export(edited)
    assert sans_of_line(result, 0)[1:] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    assert all(len(node["children"]) <= 1 for node in result["nodes"])
    # Deleting from the middle of the main line keeps the moves before it.
    layout = shape(result)
    layout[3] = []
    short = assert_survives_export(flatten(result, layout))
    assert sans_of_line(short, 0)[1:] == ["e4", "e5", "Nf3"]


@pytest.mark.parametrize("seed", range(6))
def test_random_edits_survive_export(seed: int) -> None:
    rng = random.Random(seed)
    tree = make_tree(random_game(seed, plies=16), None, None)  # small: python-chess is slow
    for _ in range(8):
        layout = shape(tree)
        branching = [index for index, kids in layout.items() if len(kids) > 1]
        if branching and rng.random() < 0.5:
            index = rng.choice(branching)
            kids = layout[index]
            if rng.random() < 0.5:
                kids.insert(0, kids.pop(rng.randrange(1, len(kids))))  # promote
            else:
                kids.pop(rng.randrange(1, len(kids)))  # delete a variation
            edited = flatten(tree, layout)
        else:
            edited = page_form(tree)
            parent = rng.randrange(len(edited["nodes"]))
            board = Board.from_fen(tree["nodes"][parent]["fen"])
            moves = sorted(move.uci() for move in board.legal_moves())
            taken = {tree["nodes"][child]["uci"] for child in tree["nodes"][parent]["children"]}
            fresh = [uci for uci in moves if uci not in taken]
            if not fresh:
                continue
            edited["nodes"].append({"parent": parent, "uci": rng.choice(fresh), **_empty()})
        tree = assert_survives_export(edited)


def _empty() -> dict[str, Any]:
    return {"comment": None, "nags": [], "eval": None, "clock": None}


# -- bad trees ----------------------------------------------------------------------------------


def two_moves() -> dict[str, Any]:
    return {
        "fen": START,
        "nodes": [
            {"parent": None},
            {"parent": 0, "uci": "e2e4"},
            {"parent": 1, "uci": "e7e5"},
        ],
    }


def broken(path: str, value: Any) -> dict[str, Any]:
    """two_moves() with one field replaced: "2.uci" is node 2's 'uci', "fen" the tree's."""
    tree = two_moves()
    target: Any = tree
    *steps, last = path.split(".")
    for step in steps:
        target = target["nodes"][int(step)] if step.isdigit() else target[step]
    if last.isdigit():
        target["nodes"][int(last)] = value
    else:
        target[last] = value
    return tree


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        (broken("2.uci", "e7e4"), "node 2: illegal move 'e7e4'"),
        (broken("1.uci", "e2e5"), "node 1: illegal move 'e2e5'"),
        (broken("2.uci", 42), "node 2: 'uci' must be a move in UCI"),
        (broken("2.uci", "e7e5e7e5"), "node 2: 'uci' must be a move in UCI"),
        (broken("2.parent", 2), "node 2: 'parent' must name an earlier node"),  # itself: a cycle
        (broken("1.parent", 2), "node 1: 'parent' must name an earlier node"),  # after its child
        (broken("2.parent", -1), "node 2: 'parent' must name an earlier node"),
        (broken("2.parent", True), "node 2: 'parent' must name an earlier node"),
        (broken("2.parent", None), "node 2: 'parent' must name an earlier node"),
        (broken("2", "e7e5"), "node 2 is not an object"),
        (broken("2", ["e7e5"]), "node 2 is not an object"),
        (broken("2.nags", "!!"), "node 2: 'nags' must be a list of NAG numbers"),
        (broken("2.nags", [0]), "node 2: NAG 0 is not a number 1-255"),
        (broken("2.nags", [1.5]), "node 2: NAG 1.5 is not a number 1-255"),
        (broken("2.nags", list(range(1, 20))), "node 2: 'nags' must be a list of NAG numbers"),
        (broken("1.comment", 5), "node 1: 'comment' must be text"),
        (broken("2.comment", "x" * (MAX_COMMENT + 1)), "node 2: 'comment' must be text of at most"),
        (broken("nodes", []), "'nodes' must be a list of 1 to"),
        (broken("nodes", {"0": {}}), "'nodes' must be a list of 1 to"),
        (broken("headers", {"White": 3}), "header 'White' must be a tag name with text"),
        (broken("headers", {"bad name": "x"}), "must be a tag name with text"),
        (broken("headers", ["White"]), "'headers' must be an object"),
        (broken("result", "2-0"), "'result' must be 1-0, 0-1, 1/2-1/2 or *"),
        ([], "'tree' must be an object"),
        ("1. e4", "'tree' must be an object"),
    ],
    ids=lambda value: str(value)[:40] if isinstance(value, str) else None,
)
def test_bad_trees_are_refused_naming_the_node(tree: Any, message: str) -> None:
    with pytest.raises(RequestError) as refused:
        parse_tree(tree)
    assert refused.value.code == "bad_tree"
    assert message in str(refused.value)


@pytest.mark.parametrize(("fen", "code"), [("not a fen", "bad_fen"), (None, "bad_fen")])
def test_a_bad_root_is_refused(fen: Any, code: str) -> None:
    with pytest.raises(RequestError) as refused:
        parse_tree({"fen": fen, "nodes": [{}]})
    assert refused.value.code == code


def shuffles(count: int) -> list[dict[str, Any]]:
    """`count` knight moves to and fro from the start position, each the child of the last."""
    cycle = ("g1f3", "g8f6", "f3g1", "f6g8")
    return [{"parent": index, "uci": cycle[index % 4]} for index in range(count)]


def test_too_many_nodes() -> None:
    nodes: list[dict[str, Any]] = [{"parent": None}]
    nodes += [{"parent": 0, "uci": "e2e4"} for _ in range(MAX_NODES)]
    with pytest.raises(RequestError, match="'nodes' must be a list of 1 to 5000 nodes"):
        parse_tree({"fen": START, "nodes": nodes})
    parse_tree({"fen": START, "nodes": nodes[:MAX_NODES]})  # the limit itself is accepted


def test_a_line_longer_than_a_path() -> None:
    nodes = [{"parent": None}, *shuffles(1001)]
    with pytest.raises(RequestError, match="node 1001: deeper than 1000 moves"):
        parse_tree({"fen": START, "nodes": nodes})
    game, _ = parse_tree({"fen": START, "nodes": nodes[:1001]})
    assert len(game.moves) == 1000


def test_variations_nested_too_deep_are_refused_naming_the_node() -> None:
    game, _ = parse_tree(_legal_nesting(MAX_VARIATION_DEPTH))
    assert ")" * MAX_VARIATION_DEPTH + " *" in make_tree_pgn(game)
    deepest = _legal_nesting(MAX_VARIATION_DEPTH + 1)
    last = len(deepest["nodes"]) - 1
    with pytest.raises(RequestError, match=f"node {last}: variations nest deeper than 64"):
        parse_tree(deepest)
    # Nested as deep as a path may go, it is refused too, not written by a recursion that
    # cannot hold it.
    with pytest.raises(RequestError, match="variations nest deeper than 64"):
        parse_tree(_legal_nesting(999))


def _legal_nesting(levels: int) -> dict[str, Any]:
    """A tree whose variations nest `levels` deep: at each level a rook pawn step continues
    the line (always legal: only the knights move on the way) and a knight move starts a
    variation, on which the next level hangs."""
    knights = ("g1f3", "g8f6", "f3g1", "f6g8")
    steps = ("h2h3", "h7h6")
    nodes: list[dict[str, Any]] = [{"parent": None}]
    parent = 0
    for level in range(levels):
        nodes.append({"parent": parent, "uci": steps[level % 2]})
        nodes.append({"parent": parent, "uci": knights[level % 4]})
        parent = len(nodes) - 1
    return {"fen": START, "nodes": nodes}


def test_an_impossible_root_is_accepted_with_a_notice() -> None:
    fen = "R3k2R/8/8/8/8/8/8/4K3 b - - 0 1"  # two rooks checking from both sides
    assert not chess.Board(fen).is_valid() and any(chess.Board(fen).legal_moves)
    game, notice = parse_tree(
        {"fen": fen, "nodes": [{"parent": None}, {"parent": 0, "uci": "e8e7"}]}
    )
    assert notice == IMPOSSIBLE_NOTICE and game.moves[0].san == "Ke7"
