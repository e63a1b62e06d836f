"""The trainer's truths hold against Stockfish: no move a drill calls right loses material.

A fixed seeded sample of drills of each kind that claims moves (safe squares, threats, forks,
blunder checks answered "safe"; tests/support/soundness_oracle.py) has every claimed move asked
of Debian's native Stockfish at depth 12: none may lose material against what the mover keeps
by doing nothing (the oracle's docstring gives the exact rule). The sample is small, so the
test stays under a minute on a busy machine; bench/train_soundness.py measures the share on a
larger one. Without /usr/games/stockfish the test is skipped, saying why, except on CI
(CI=true), where it fails.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.soundness_oracle import (
    CHECKED_KINDS,
    Oracle,
    claims_of,
    find_stockfish,
    open_oracle,
    sample_drills,
)

DEPTH = 12
DRILLS_PER_KIND = 6
SEED = 1


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    path = find_stockfish()
    if path is None:
        pytest.skip("Debian's stockfish (/usr/games/stockfish) is not installed")
    with open_oracle(path, DEPTH) as opened:
        yield opened


@pytest.mark.parametrize("kind", CHECKED_KINDS)
def test_no_move_called_right_loses_material(oracle: Oracle, kind: str) -> None:
    drills = sample_drills(kind, DRILLS_PER_KIND, SEED)
    assert len(drills) == DRILLS_PER_KIND
    claims = [claim for drill in drills for claim in claims_of(drill)]
    assert claims
    unsound = [oracle.judge(claim) for claim in claims]
    unsound = [judged for judged in unsound if judged.loses_material]
    assert not unsound, [
        f"{j.claim.said} in {j.claim.fen}: {j.after} after, best {j.best}, null {j.null}, "
        f"material {j.material}"
        for j in unsound
    ]
