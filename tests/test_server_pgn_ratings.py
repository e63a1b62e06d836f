"""A rated game's PGN as lichess writes it, against a real server: `WhiteElo` and `BlackElo`
as the game started, `WhiteRatingDiff` and `BlackRatingDiff` once it ended (the changes the
players saw), the speed in its Event; a casual game between the same accounts carries none."""

from __future__ import annotations

import re

import requests

from tests.support.game_client import WAIT_SECONDS
from tests.test_server_ratings import FOOLS_MATE, paired, play, players, server  # noqa: F401


def tags_of(url: str, game_id: str) -> dict[str, str]:
    text = requests.get(f"{url}/api/games/{game_id}/pgn", timeout=WAIT_SECONDS).text
    return dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.MULTILINE))


def test_a_rated_games_pgn_carries_the_ratings_and_their_changes(players) -> None:  # noqa: F811
    ann, ben = players(), players()
    game = paired(ann, ben, rated=True)
    before = tags_of(ann.url, game["game"])
    assert before["WhiteElo"] == before["BlackElo"] == "1500"
    assert "WhiteRatingDiff" not in before  # not ended: no change yet
    play(game, FOOLS_MATE)
    black, _ = game["seats"]["black"]
    rated = black.lobby.wait_for(lambda s: s["players"]["white"]["rating"]["diff"] is not None)
    tags = tags_of(ann.url, game["game"])
    assert tags["Event"] == "Rated bullet game"
    assert tags["WhiteElo"] == tags["BlackElo"] == "1500"
    for color in ("white", "black"):
        diff = rated["players"][color]["rating"]["diff"]
        assert tags[f"{color.title()}RatingDiff"] == f"{diff:+d}"
    assert tags["WhiteRatingDiff"].startswith("-") and tags["BlackRatingDiff"].startswith("+")


def test_a_casual_games_pgn_carries_no_ratings(players) -> None:  # noqa: F811
    ann, ben = players(), players()
    game = paired(ann, ben, rated=False, control="10+5")
    play(game, FOOLS_MATE)
    tags = tags_of(ann.url, game["game"])
    assert tags["Event"] == "Casual game"
    assert not {"WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"} & set(tags)
