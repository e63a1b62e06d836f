"""Player ratings (issue 27): Glicko-2 as Glickman's paper states it (`glicko2`), the speed a
game is rated in from its time control (`speed`), and the choices lichess makes on top of the
paper for rating one game at a time (`rated`). Pure: the accounts, the stored ratings and the
end of a game live in the server; docs/ratings.md writes the constants down with why."""

from chesscore.ratings.glicko2 import Glicko, Result, update
from chesscore.ratings.rated import (
    DEFAULT,
    PROVISIONAL_DEVIATION,
    PlayerRating,
    RatingChange,
    is_provisional,
    live_deviation,
    rate_game,
)
from chesscore.ratings.speed import Speed, speed_of

__all__ = [
    "DEFAULT",
    "PROVISIONAL_DEVIATION",
    "Glicko",
    "PlayerRating",
    "RatingChange",
    "Result",
    "Speed",
    "is_provisional",
    "live_deviation",
    "rate_game",
    "speed_of",
    "update",
]
