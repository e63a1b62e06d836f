"""The reviewed game as PGN: every move with its evaluation, its mark and its explanation.

`reviewed_pgn` writes the game's main line through chesscore.rules.pgn_export (the writer of
the analysis board's export), each move with lichess's annotations: the evaluation after it as
``[%eval 0.34]`` / ``[%eval #-3]`` (White's view, pawns), the NAG of its class (``$6`` ?!,
``$2`` ?, ``$4`` ??) and, for a judged move, its explanation as the comment (with
"Best: Qd7." added when the explanation does not name the better move). A move that mates on
the board has no evaluation to write; one that stalemates is written 0.00. The players'
accuracy goes into the game comment before the first move (``WhiteAccuracy`` tags are no
standard), with the ``Annotator`` tag naming the review. python-chess (`node.eval()`,
`node.nags`), lichess's study import and our own `read_games` read all of it back.

The PGN is written in English; `say_comments` says its comments in another language at read
(from the review's JSON: each judged ply's explanation kept as a message), for the export a
reader downloads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chesscore.analysis.judgement import Evaluation, Judgement
from chesscore.review.judge import ReviewedPly
from chesscore.rules.board import Board
from chesscore.rules.pgn_export import make_tree_pgn
from chesscore.rules.pgn_import import ImportedGame, Node
from chesscore.words import ENGLISH, Message, Translator, message_from_json, render, say

ANNOTATOR = "chesscore review"


def reviewed_pgn(
    headers: Mapping[str, str],
    start: Board,
    plies: Sequence[ReviewedPly],
    accuracy: tuple[float | None, float | None],
) -> str:
    """The PGN of the game from `start` whose judged plies are `plies` (in order), with
    `headers` (the seven-tag roster filled in, ``Annotator`` added when missing) and the
    (White's, Black's) `accuracy` in the game comment. IllegalMoveError (a ValueError) when
    a ply's move is not legal where it is played."""
    board = start.copy()
    nodes = []
    for ply in plies:
        move = board.parse_uci(ply.uci)
        nodes.append(Node(move, board.san(move), _comment(ply), _nags(ply), None, _eval(ply)))
        board.push(move)
    tags = {"Annotator": ANNOTATOR, **headers}
    result = tags.get("Result", "*")
    game = ImportedGame(tags, start.fen(), tuple(nodes), accuracy_comment(accuracy), result, 1)
    return make_tree_pgn(game)


def accuracy_comment(accuracy: tuple[float | None, float | None]) -> str:
    """ "Accuracy: White 87.2%, Black 64.1%." (a side without a move is left out)."""
    message = accuracy_message(accuracy)
    return render(message) if message is not None else ""


def accuracy_message(accuracy: tuple[float | None, float | None]) -> Message | None:
    """The game comment of `accuracy_comment` as a message (None: neither side moved)."""
    white, black = (None if value is None else f"{value:.1f}" for value in accuracy)
    if white is not None and black is not None:
        return say("Accuracy: White {white}%, Black {black}%.", white=white, black=black)
    if white is not None:
        return say("Accuracy: White {white}%.", white=white)
    if black is not None:
        return say("Accuracy: Black {black}%.", black=black)
    return None


def eval_text(evaluation: Evaluation) -> str:
    """As ``[%eval]`` writes it: pawns with two decimals ("0.34", "-1.20") or "#-3"."""
    if evaluation.mate is not None:
        return f"#{evaluation.mate}"
    assert evaluation.cp is not None
    return f"{evaluation.cp / 100:.2f}"


def _eval(ply: ReviewedPly) -> str | None:
    if ply.evaluation is not None:
        return eval_text(ply.evaluation)
    # No legal move after the ply: a stalemate is a draw, a mate has no evaluation to write.
    return None if ply.san.endswith("#") else "0.00"


def _nags(ply: ReviewedPly) -> tuple[int, ...]:
    return (ply.judgement.nag,) if ply.judgement is not None else ()


def _comment(ply: ReviewedPly) -> str:
    """A judged move's explanation, naming the better move ("Best: Qd7.") if it does not."""
    if ply.judgement is None:
        return ""
    explanation = ply.explanation
    words = explanation.words if explanation is not None else None
    names_best = explanation is not None and explanation.names_best
    return render(comment_message(ply.judgement, words, names_best, ply.san, ply.best_san))


def comment_message(
    judgement: Judgement, words: Message | None, names_best: bool, san: str, best: str | None
) -> Message:
    """The comment of a move of class `judgement` whose explanation is `words` (None: none),
    played as `san` where the engine chose `best` ("Best: Qd7." unless `names_best`)."""
    if words is None:
        words = _class_words(judgement)
    if best is None or best == san or names_best:
        return words
    return say("{comment} Best: {best}.", comment=words, best=best)


def _class_words(judgement: Judgement) -> Message:
    if judgement is Judgement.INACCURACY:
        return say("Inaccuracy.")
    if judgement is Judgement.MISTAKE:
        return say("Mistake.")
    return say("Blunder.")


def say_comments(
    pgn: str,
    plies: Sequence[Mapping[str, Any]],
    accuracy: Mapping[str, float | None] | None,
    words: Translator,
) -> str:
    """The reviewed `pgn` with its comments said through `words` instead of in English: the
    accuracy (the review's JSON's, `{"white", "black"}`) and each ply of the review's JSON
    `plies` whose explanation is kept as a message (a review stored before its explanations
    were kept so keeps their English)."""
    if accuracy is not None:
        message = accuracy_message((accuracy.get("white"), accuracy.get("black")))
        if message is not None:
            pgn = _say_comment(pgn, message, words)
    for ply in plies:
        explanation, judgement = ply.get("explanation"), ply.get("class")
        if not explanation or "words" not in explanation or judgement is None:
            continue
        best = (ply.get("best") or {}).get("san")
        message = comment_message(
            Judgement[judgement.upper()],
            message_from_json(explanation["words"]),
            bool(explanation.get("names_best")),
            ply["san"],
            best,
        )
        pgn = _say_comment(pgn, message, words)
    return pgn


def _say_comment(pgn: str, message: Message, words: Translator) -> str:
    """`pgn` with the comment that says `message` in English said through `words`."""
    english, said = render(message, ENGLISH), render(message, words)
    # A comment is one token of the movetext, "{ text [%eval ...] }", written as
    # chesscore.rules.pgn_export writes it (a "}" would end it early).
    return pgn.replace(f"{{ {_as_comment(english)} ", f"{{ {_as_comment(said)} ")


def _as_comment(text: str) -> str:
    return " ".join(text.replace("}", ")").split())
