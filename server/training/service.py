"""Choosing and judging drills: the trainer's one service, shared by every request.

`next_drill(kind, level, address)` picks positions (mostly the shipped set, sometimes a game
played here once over) until chesscore makes a drill of that kind at that level, keeps it in
the pending store and hands it out; `answer(id, answer, address)` takes it back once and
judges the answer. A position's facts are cached (an LRU shared by every request, as the game
page caches its facts), a drill with nothing to find is mostly passed over (`EMPTY_SHARE`),
and the positions that gave a drill of a kind and level are remembered in a small pool per
kind and level, so a level seldom met is found again without a search. A visitor is not given
a position it had a drill of that kind on while others are left (server.training.seen): the
pool's positions are those most often offered again.
Every request of an address first takes a token of its bucket (server.shared.buckets). The
search for a drill and the judging of an answer are pure-Python work of up to tens of
milliseconds, so they run off the serving loop in the trainer's own lane (`LANE`, the lanes
of server.accounts.hash_lanes): one native thread at a lower priority, at most `WAITING`
requests queued, each waiting at most `WAIT` seconds, then `busy` at once. A flood of drills
from many addresses then holds at most one core, and the serving loop keeps the GIL's turns
between them, so players' moves go on (bench/hostile.py, "trainer flood"). What touches the
store (a game played here, picked as a drill's position) is read before the lane, on the
request's own thread.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from chesscore.training import (
    ENGLISH,
    KINDS,
    Drill,
    PositionFacts,
    Translator,
    Verdict,
    judge,
    make_drill,
)
from chesscore.training.difficulty import LEVELS
from chesscore.training.judging import Answer
from server.accounts.hash_lanes import Lane
from server.shared.buckets import AddressBuckets
from server.shared.errors import N_, RequestError
from server.shared.slots import Slot
from server.threats.cache import LruCache
from server.training.pending import PendingDrills
from server.training.positions import SiteGames, TrainingPosition, shipped_positions
from server.training.requests import AnswerRequest, check_form
from server.training.seen import SeenPositions

# Positions tried per request before the nearest level found is given instead.
TRIES = 40
# The share of drills made on games played here, when there are any.
SITE_SHARE = 0.2
# The share of requests that want a drill with nothing to find (no pin, no hanging piece, no
# fork: the truth in more than half the positions of games); the others pass such drills
# over, so that most drills have something to find and "none" stays an answer to reckon with.
EMPTY_SHARE = 0.2
# Positions remembered per kind and level (see the module docstring).
POOL_SIZE = 256
FACTS_CACHE_SIZE = 1024
# Per address: this many requests at once, then one every this many seconds.
BURST, INTERVAL = 60, 0.25
# The trainer's lane: one thread; requests queued or running at most, and seconds each waits.
WAITING, WAIT = 32, 2.0
BUSY = "the trainer is busy now; try again in a few seconds"


# A drill chosen, the facts of its position and the position.
Found = tuple[Drill, PositionFacts, TrainingPosition]


@dataclass(frozen=True, slots=True)
class Given:
    """A drill handed out: its id, the drill, the facts of its position, where it is from."""

    id: str
    drill: Drill
    facts: PositionFacts
    source: str


@dataclass(frozen=True, slots=True)
class Judged:
    drill: Drill
    verdict: Verdict
    facts: PositionFacts


class TrainingService:
    """The trainer's state: pending drills, the facts cache, the pools, the rate limits."""

    def __init__(
        self,
        site: SiteGames | None = None,
        rng: random.Random | None = None,
        buckets: AddressBuckets | None = None,
        lane: Lane | None = None,
    ) -> None:
        self.site = site
        self.rng = rng or random.Random()
        self.pending = PendingDrills()
        self.facts = LruCache(FACTS_CACHE_SIZE)
        self.pools = {
            (k, lv): deque[TrainingPosition](maxlen=POOL_SIZE) for k in KINDS for lv in LEVELS
        }
        self.buckets = buckets or AddressBuckets(BURST, INTERVAL)
        self.seen = SeenPositions()
        self.lane = lane or LANE

    def next_drill(self, kind: str, level: int, address: str, words: Translator = ENGLISH) -> Given:
        """A drill for `address`, its question and reasons in the language of `words`."""
        self.buckets.take(address, N_("training requests"))
        played = self._site_position()
        seen = self.seen.of(address, kind)
        drill, facts, position = self.lane.run(self.choose, kind, level, seen, played)
        if words is not ENGLISH:
            # The same drill (its square by `focus`, its move by `played`) said again in the
            # trainee's language: choosing stays language-blind, so one pool serves them all.
            said = make_drill(facts, kind, self.rng, drill.played, drill.focus, words)
            drill = said or drill
        self.seen.add(address, kind, drill.fen)
        return Given(self.pending.add(drill, address), drill, facts, position.source)

    def answer(self, asked: AnswerRequest, address: str) -> Judged:
        """Judge an answer; `not_found` for an id this address has no unanswered drill under,
        `bad_request` (the drill kept) for an answer of the wrong form."""
        self.buckets.take(address, N_("training requests"))
        drill = self.pending.take(
            asked.id, address, lambda drill: check_form(drill.kind, asked.form)
        )
        if drill is None:
            raise RequestError(
                "not_found", N_("no drill waits for an answer under this id: answered already, "
                "expired, or never given to you"),
            )  # fmt: skip
        return self.lane.run(self._judged, drill, asked.value)

    def _judged(self, drill: Drill, value: Answer) -> Judged:
        return Judged(drill, judge(drill, value), self.facts_of(drill.fen))

    def facts_of(self, fen: str) -> PositionFacts:
        facts: PositionFacts = self.facts.get(fen, lambda: PositionFacts(fen))
        return facts

    def choose(
        self,
        kind: str,
        level: int,
        seen: AbstractSet[str] = frozenset(),
        played: TrainingPosition | None = None,
    ) -> Found:
        """A drill of `kind` as near `level` as `TRIES` positions give, on a position whose
        FEN is not in `seen` unless every try was; of the kinds that ask to find something,
        one with nothing to find only when this request wants one (see `EMPTY_SHARE`), or
        when no other turned up. `played`: a game played here to try first."""
        best: Found | None = None
        empty: Found | None = None
        wants_empty = self.rng.random() < EMPTY_SHARE
        # The pool's positions this visitor has not met yet: offered again and again, the
        # others would use up every try once a visitor has had a few drills of a rare kind.
        pool = [position for position in self.pools[kind, level] if position.fen not in seen]
        repeated: TrainingPosition | None = None
        for attempt in range(TRIES):
            position = self._position(attempt, pool if attempt % 2 == 0 else None, played)
            if position.fen in seen:
                repeated = repeated or position
                continue
            facts = self.facts_of(position.fen)
            drill = make_drill(facts, kind, self.rng, position.played)
            if drill is None:
                continue
            if drill.finds_nothing and not wants_empty:
                empty = empty or (drill, facts, position)
                continue
            self.pools[kind, drill.level].append(position)
            if drill.level == level or drill.finds_nothing:  # nothing to find: level 1 anyway
                return drill, facts, position
            if best is None or abs(drill.level - level) < abs(best[0].level - level):
                best = drill, facts, position
        found = best or empty
        if found is None and repeated is not None:  # every try was seen: the first again
            found = self._drill_on(kind, repeated)
        if found is None:  # no shipped position lacks a drill of every kind: a safeguard
            raise RequestError(
                "not_found", N_("no {kind} drill could be made now; try again"), kind=kind
            )
        return found

    def _drill_on(self, kind: str, position: TrainingPosition) -> Found | None:
        facts = self.facts_of(position.fen)
        drill = make_drill(facts, kind, self.rng, position.played)
        return None if drill is None else (drill, facts, position)

    def _site_position(self) -> TrainingPosition | None:
        """A game played here for a request's first try (`SITE_SHARE` of requests), read from
        the store once at most, on the request's own thread (before the lane)."""
        if self.site is not None and self.rng.random() < SITE_SHARE:
            return self.site.pick(self.rng)
        return None

    def _position(
        self, attempt: int, pool: list[TrainingPosition] | None, played: TrainingPosition | None
    ) -> TrainingPosition:
        """A request's first try is the game played here it was given, if any; the others are
        the pool's or the shipped set's."""
        rng = self.rng
        if attempt == 0 and played is not None:
            return played
        if pool and rng.random() < 0.5:
            return rng.choice(pool)
        return rng.choice(shipped_positions())


# The trainer's lane, built at import (after gevent's patch, as the hash lanes are).
LANE = Lane("trainer", threads=1, waiting=WAITING, wait=WAIT, nice=10, busy=BUSY)


TRAINING: Slot[TrainingService] = Slot("trainer")
