"""The explanation's noun phrases as messages, one per piece and per role in the sentence.

"The queen on e7" is said differently as the subject of a sentence, as what a move takes,
after "attacked by" and after "the only defender of" in a language that declines its nouns or
contracts its articles (German "die Dame", "der Dame", "von der Dame"; French "la dame", "de
la dame"), and its article follows the piece's gender: so each piece has a message of its own
in each role, its context naming the role (chesscore.words). The sentence around it leaves
out what the role's phrase says ("attacked by {attackers}": a language may put its "by" into
the phrase, as German "vom Springer auf f3" does). Material is named the same way: "the
queen", "a knight", "two pawns", "the exchange".
"""

from __future__ import annotations

from chesscore.rules.squares import square_name
from chesscore.words import Message, say_in, say_n


class Place:
    """The roles a piece's phrase takes in the explanation's sentences (its context)."""

    SUBJECT = "piece as subject"  # "the king on g8 shut in by its own pieces"
    OBJECT = "piece as object"  # "takes the pawn on e5", "forking the king on e8"
    BY = "piece after by"  # "attacked by the knight on f3"
    OF = "piece after of"  # "the only defender of the bishop on d5"
    NEXT_TO = "piece after next to"  # "squares next to the king on g1"


# By place, then piece type (PAWN .. KING: 1 .. 6), "the queen on {square}".
PIECE_PHRASES: dict[str, tuple[Message, ...]] = {
    Place.SUBJECT: (
        say_in("piece as subject", "the pawn on {square}"),
        say_in("piece as subject", "the knight on {square}"),
        say_in("piece as subject", "the bishop on {square}"),
        say_in("piece as subject", "the rook on {square}"),
        say_in("piece as subject", "the queen on {square}"),
        say_in("piece as subject", "the king on {square}"),
    ),
    Place.OBJECT: (
        say_in("piece as object", "the pawn on {square}"),
        say_in("piece as object", "the knight on {square}"),
        say_in("piece as object", "the bishop on {square}"),
        say_in("piece as object", "the rook on {square}"),
        say_in("piece as object", "the queen on {square}"),
        say_in("piece as object", "the king on {square}"),
    ),
    Place.BY: (
        say_in("piece after by", "the pawn on {square}"),
        say_in("piece after by", "the knight on {square}"),
        say_in("piece after by", "the bishop on {square}"),
        say_in("piece after by", "the rook on {square}"),
        say_in("piece after by", "the queen on {square}"),
        say_in("piece after by", "the king on {square}"),
    ),
    Place.OF: (
        say_in("piece after of", "the pawn on {square}"),
        say_in("piece after of", "the knight on {square}"),
        say_in("piece after of", "the bishop on {square}"),
        say_in("piece after of", "the rook on {square}"),
        say_in("piece after of", "the queen on {square}"),
        say_in("piece after of", "the king on {square}"),
    ),
    Place.NEXT_TO: (say_in("piece after next to", "the king on {square}"),),
}

# What a losing capture's taker takes back: "Nxe5 takes the queen back".
TAKEN_BACK = (
    say_in("piece taken back", "the pawn"),
    say_in("piece taken back", "the knight"),
    say_in("piece taken back", "the bishop"),
    say_in("piece taken back", "the rook"),
    say_in("piece taken back", "the queen"),
    say_in("piece taken back", "the king"),
)

# One piece of material lost or won: "loses a knight", "loses the queen".
ONE_PIECE = (
    say_in("material", "a pawn"),
    say_in("material", "a knight"),
    say_in("material", "a bishop"),
    say_in("material", "a rook"),
    say_in("material", "the queen"),
    say_in("material", "a king"),
)

# How many pieces of a kind ("two" .. "eight"), by count less two.
NUMBERS = (
    say_in("number of pieces", "two"),
    say_in("number of pieces", "three"),
    say_in("number of pieces", "four"),
    say_in("number of pieces", "five"),
    say_in("number of pieces", "six"),
    say_in("number of pieces", "seven"),
    say_in("number of pieces", "eight"),
)


def piece_phrase(place: str, kind: int, square: int) -> Message:
    """ "the queen on e7" in `place` (a `Place`), for a piece of type `kind` on `square`."""
    phrases = PIECE_PHRASES[place]
    # Only a king is named next to a square (its one phrase for that role).
    return phrases[min(kind, len(phrases)) - 1].with_values(square=square_name(square))


def taken_back(kind: int) -> Message:
    return TAKEN_BACK[kind - 1]


def pieces_counted(kind: int, n: int) -> Message:
    """ "the queen", "a knight", "two pawns": `n` pieces of type `kind` as material."""
    if n == 1:
        return ONE_PIECE[kind - 1]
    number = NUMBERS[min(n, 8) - 2]
    if kind == 1:
        return say_n("{number} pawn", "{number} pawns", n, number=number)
    if kind == 2:
        return say_n("{number} knight", "{number} knights", n, number=number)
    if kind == 3:
        return say_n("{number} bishop", "{number} bishops", n, number=number)
    if kind == 4:
        return say_n("{number} rook", "{number} rooks", n, number=number)
    if kind == 5:
        return say_n("{number} queen", "{number} queens", n, number=number)
    return say_n("{number} king", "{number} kings", n, number=number)


MATERIAL = say_in("material", "material")  # a loss with no piece to name (a promotion's)
THE_EXCHANGE = say_in("material", "the exchange")


def exchange_and(pawns: Message) -> Message:
    return say_in("material", "the exchange and {pawns}", pawns=pawns)


def lost_for(lost: Message, gained: Message) -> Message:
    return say_in("material", "{lost} for {gained}", lost=lost, gained=gained)
