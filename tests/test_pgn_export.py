"""Writing move trees as PGN (chesscore.rules.pgn_export): `read_games(make_tree_pgn(g))` is `g`
again for real-format exports and seeded random trees with nested variations; python-chess
reads what is written to the same tree (SAN, comments, NAGs, evaluations, clocks) and the
threat annotations as its arrows and squares; `scan_games` lists multi-game files as
python-chess reads them."""

from __future__ import annotations

import dataclasses
import io
import re

import chess
import chess.pgn
import pytest

from chesscore.analysis.annotate import annotation_of_move
from chesscore.rules.pgn_export import (
    LineMove,
    format_clock,
    make_line_pgn,
    make_tree_pgn,
    variation_depth,
)
from chesscore.rules.pgn_import import ImportedGame, Node, normalize_text, read_games, scan_games
from tests.random_trees import count_nodes, random_game
from tests.test_pgn_import import CHESSBASE, CHESSCOM, LICHESS, oracle_tree, our_tree

SET_UP = '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n{ a study } 1. e4 Kd7 *'
NESTED = "1. e4 e5 (1... c5 (1... e6 2. d4) 2. Nf3 (2. Nc3 Nc6 (2... d6)) 2... d6) 2. Nf3 *"
SAMPLES = {
    "lichess": LICHESS,
    "chesscom": CHESSCOM,
    "chessbase": CHESSBASE,
    "set_up": SET_UP,
    "nested": NESTED,
}
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
COMMAND = re.compile(r"\[%\w+[^\]]*\]")


def assert_same_game(read: ImportedGame, written: ImportedGame) -> None:
    assert read.moves == written.moves
    assert (read.start_fen, read.comment, read.result) == (
        written.start_fen,
        written.comment,
        written.result,
    )
    for name, value in written.headers.items():
        # The result token is the game's result: a header that disagrees with it follows it.
        assert read.headers[name] == (written.result if name == "Result" else value)
    assert all(name in read.headers for name in SEVEN_TAGS)


@pytest.mark.parametrize("text", SAMPLES.values(), ids=SAMPLES.keys())
def test_real_formats_come_back_intact(text: str) -> None:
    (game,) = read_games(text)
    assert_same_game(read_games(make_tree_pgn(game))[0], game)


@pytest.mark.parametrize("seed", range(12))
def test_random_trees_come_back_intact(seed: int) -> None:
    game = random_game(seed)
    assert variation_depth(game.moves) >= 1 or seed > 8  # most seeds branch
    assert_same_game(read_games(make_tree_pgn(game))[0], game)


def test_random_trees_branch_deep_enough_to_matter() -> None:
    games = [random_game(seed) for seed in range(12)]
    assert max(variation_depth(game.moves) for game in games) >= 3
    assert max(count_nodes(game.moves) for game in games) > 80


def test_a_random_tree_from_a_set_up_position() -> None:
    game = random_game(7, fen="r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20")
    text = make_tree_pgn(game)
    assert '[FEN "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20"]' in text and '[SetUp "1"]' in text
    assert "20..." in text
    assert_same_game(read_games(text)[0], game)


def line_moves(game: ImportedGame) -> list[LineMove]:
    return [LineMove(node.san, node.clock, node.evaluation) for node in game.moves]


def main_line(game: ImportedGame) -> ImportedGame:
    """`game` without its variations."""
    line = tuple(dataclasses.replace(node, variations=()) for node in game.moves)
    return dataclasses.replace(game, moves=line)


@pytest.mark.parametrize(
    ("seed", "fen"),
    [(seed, None) for seed in range(8)]
    + [(7, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20"), (3, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")],
)
def test_a_main_line_written_from_its_san_is_the_tree_writer_s_text(
    seed: int, fen: str | None
) -> None:
    game = main_line(random_game(seed, fen=fen))
    game = dataclasses.replace(game, comment="")  # a main line as stored has no comments
    plain = tuple(dataclasses.replace(node, comment="", nags=()) for node in game.moves)
    game = dataclasses.replace(game, moves=plain)
    assert make_line_pgn(
        game.headers, game.start_fen, line_moves(game), game.result
    ) == make_tree_pgn(game)


def test_a_main_line_with_clocks_and_evaluations_reads_back_in_python_chess() -> None:
    game = main_line(random_game(2))
    timed = tuple(
        dataclasses.replace(node, clock=180 - index * 1.5, evaluation=f"{index / 10:.2f}")
        for index, node in enumerate(game.moves)
    )
    timed_game = dataclasses.replace(game, moves=timed)
    text = make_line_pgn(game.headers, game.start_fen, line_moves(timed_game), game.result)
    oracle = chess.pgn.read_game(io.StringIO(text))
    assert oracle is not None and not oracle.errors
    nodes = list(oracle.mainline())
    assert [node.move.uci() for node in nodes] == [node.move.uci() for node in timed]
    assert [node.clock() for node in nodes] == [node.clock for node in timed]
    assert [node.eval().white().score() for node in nodes] == [
        index * 10 for index in range(len(timed))
    ]


def test_a_comment_with_a_closing_brace_cannot_end_itself_early() -> None:
    (game,) = read_games("1. e4 *")
    node = game.moves[0]
    odd = ImportedGame({}, game.start_fen, (Node(node.move, node.san, "a } b {c"),), "", "*", 1)
    (read,) = read_games(make_tree_pgn(odd))
    assert read.moves[0].comment == "a ) b {c"


# -- python-chess reads what is written -------------------------------------------------------


def python_chess_game(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors, game and game.errors
    return game


def assert_python_chess_agrees(line: tuple[Node, ...], parent: chess.pgn.GameNode) -> None:
    """`line` (the main continuation of `parent`) against python-chess's nodes, field by field;
    our variations of a move are python-chess's further children of the move's parent."""
    main, *others = parent.variations
    assert_variation_agrees(line, main, others)


def assert_variation_agrees(
    line: tuple[Node, ...], first: chess.pgn.ChildNode, alternatives: list[chess.pgn.ChildNode]
) -> None:
    """`line` against python-chess's nodes from `first`, `alternatives` being its siblings
    that stand for the variations of `line[0]`."""
    previous: chess.pgn.GameNode | None = None
    current, others = first, alternatives
    for node in line:
        if previous is not None:
            current, *others = previous.variations
        assert_node_agrees(node, current)
        assert len(others) == len(node.variations)
        for variation, other in zip(node.variations, others, strict=True):
            assert_variation_agrees(variation, other, [])
        previous = current


def assert_node_agrees(node: Node, oracle: chess.pgn.ChildNode) -> None:
    assert oracle.san() == node.san
    assert " ".join(COMMAND.sub(" ", oracle.comment).split()) == node.comment
    assert oracle.nags == set(node.nags)
    if node.clock is None:
        assert oracle.clock() is None
    else:
        assert oracle.clock() == pytest.approx(node.clock)
    score = oracle.eval()
    if node.evaluation is None:
        assert score is None
    elif node.evaluation.startswith("#"):
        assert score is not None and score.white().mate() == int(node.evaluation[1:])
    else:
        centipawns = round(float(node.evaluation) * 100)
        assert score is not None and score.white().score() == centipawns


@pytest.mark.parametrize("seed", range(12))
def test_python_chess_reads_random_trees_alike(seed: int) -> None:
    game = random_game(seed)
    text = make_tree_pgn(game)
    oracle = python_chess_game(text)
    assert oracle_tree(text) == [our_tree(game.moves)]
    assert " ".join(COMMAND.sub(" ", oracle.comment).split()) == game.comment
    assert_python_chess_agrees(game.moves, oracle)


@pytest.mark.parametrize("text", [LICHESS, CHESSCOM, SET_UP], ids=["lichess", "chesscom", "set_up"])
def test_python_chess_reads_exports_alike(text: str) -> None:
    (game,) = read_games(text)
    written = make_tree_pgn(game)
    oracle = python_chess_game(written)
    assert oracle.board().fen() == game.start_fen
    assert_python_chess_agrees(game.moves, oracle)


# -- threat annotations -----------------------------------------------------------------------


def arrows_of(node: chess.pgn.GameNode) -> set[tuple[str, str, str]]:
    return {
        (arrow.color, chess.square_name(arrow.tail), chess.square_name(arrow.head))
        for arrow in node.arrows()
    }


def test_annotations_mark_a_hanging_piece_and_a_check() -> None:
    (game,) = read_games("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ *")
    oracle = python_chess_game(make_tree_pgn(game, annotation_of_move))
    nodes = list(oracle.mainline())
    assert ("red", "e5", "e5") in arrows_of(nodes[2])  # after 2. Nf3 the e5 pawn hangs
    assert ("red", "e4", "e1") in arrows_of(nodes[11])  # 6... Qxe4+ checks the king on e1
    assert ("red", "e5", "e5") not in arrows_of(nodes[3])  # 2... Nc6 defends it


def test_annotations_arrow_every_check_python_chess_sees() -> None:
    text = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# *"
    (game,) = read_games(text)
    variation = read_games("1. e4 e5 2. Bc4 Bc5 3. Bxf7+ Kxf7 4. Qh5+ g6 *")[0].moves
    moves = (*game.moves[:3], _with(game.moves[3], variation[3:]), *game.moves[4:])
    branched = ImportedGame({}, game.start_fen, moves, "", "*", 1)
    oracle = python_chess_game(make_tree_pgn(branched, annotation_of_move))
    checked = 0
    for node in _every_node(oracle):
        board = node.board()
        king = board.king(board.turn)
        assert king is not None
        expected = {
            ("red", chess.square_name(sq), chess.square_name(king)) for sq in board.checkers()
        }
        red_arrows = {
            arrow for arrow in arrows_of(node) if arrow[0] == "red" and arrow[1] != arrow[2]
        }
        assert red_arrows == expected, node
        checked += bool(expected)
    assert checked == 3  # 4. Qxf7#, and in the variation 3. Bxf7+ and 4. Qh5+


def test_no_annotations_without_the_option() -> None:
    (game,) = read_games("1. e4 e5 2. Nf3 *")
    assert "[%c" not in make_tree_pgn(game)
    assert "[%csl Re5]" in make_tree_pgn(game, annotation_of_move)


def _with(node: Node, variation: tuple[Node, ...]) -> Node:
    return Node(
        node.move, node.san, node.comment, node.nags, node.clock, node.evaluation, (variation,)
    )


def _every_node(game: chess.pgn.Game) -> list[chess.pgn.ChildNode]:
    found: list[chess.pgn.ChildNode] = []
    stack: list[chess.pgn.GameNode] = [game]
    while stack:
        node = stack.pop()
        for child in node.variations:
            found.append(child)
            stack.append(child)
    return found


# -- listing files ----------------------------------------------------------------------------

# Blank lines inside the moves (ChessBase) would end a game for python-chess: its copy of the
# file has a "%" escape line there instead, which both readers skip, so the lines still match.
MULTI = "\n".join([LICHESS, "", CHESSBASE, CHESSCOM, "", SET_UP, ""])


def python_chess_listing(text: str) -> list[tuple[str, int, int, int]]:
    """(White, first line, main-line plies, all moves) of every game, read by python-chess."""
    stream = io.StringIO(text)
    listing = []
    while True:
        offset = stream.tell()
        game = chess.pgn.read_game(stream)
        if game is None:
            return listing
        skipped = text[offset:]
        first = len(skipped) - len(skipped.lstrip("\n"))
        line = text.count("\n", 0, offset) + 1 + first
        moves = len(_every_node(game))
        listing.append((game.headers.get("White", "?"), line, len(list(game.mainline())), moves))


@pytest.mark.parametrize("bom", ["", "\ufeff"], ids=["plain", "bom"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_scan_games_lists_files_as_python_chess_reads_them(bom: str, newline: str) -> None:
    raw = bom + MULTI.replace("\n", newline)
    spans = scan_games(normalize_text(raw))
    oracle_text = re.sub(r"(?<=d6)\n\n(?=3\.)|(?<=\$14)\n\n(?=\*)", "\n%\n", MULTI)
    assert oracle_text.count("\n") == MULTI.count("\n")
    expected = python_chess_listing(oracle_text)
    listed = [(span.headers.get("White", "?"), span.line, span.plies, span.moves) for span in spans]
    assert listed == expected
    assert len(listed) == 4


def test_each_span_reads_as_the_game_with_the_file_s_line_numbers() -> None:
    text = normalize_text("\ufeff" + MULTI.replace("\n", "\r\n"))
    games = read_games(text)
    for span, game in zip(scan_games(text), games, strict=True):
        (alone,) = read_games(text[span.start : span.end], first_line=span.line)
        assert alone.moves == game.moves and alone.line == game.line == span.line
    broken = text.replace("2... Nc6", "2... Nc9")
    span = scan_games(broken)[0]
    with pytest.raises(Exception, match=r"line 9: 2\.\.\. 'Nc9'"):
        read_games(broken[span.start : span.end], first_line=span.line)


def test_scan_games_counts_plies_as_read_games_plays_them() -> None:
    text = "1. e4 a6 2. e5 d5 3. exd6 e.p. (3. Nf3 e.p.) Nf6 *"  # "e.p." is no move
    (span,) = scan_games(text)
    (game,) = read_games(text)
    assert (span.plies, span.moves) == (len(game.moves), 7) == (6, 7)


def test_format_clock() -> None:
    assert [format_clock(s) for s in (0, 59.9, 180, 3600 + 61.5)] == [
        "0:00:00",
        "0:00:59.9",
        "0:03:00",
        "1:01:01.5",
    ]
