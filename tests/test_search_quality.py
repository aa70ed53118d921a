"""Search quality floors per category, on the evaluation set (lexical: the suite's database has no
vectors; bench/search_quality.py measures the hybrid search and prints the figures).

Floors sit a little under what the lexical search measures (README "Search quality"), so that a
change that breaks a kind of query fails here; they hold on both the tuning and the frozen part.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from search_quality import (
    PLAYERS,
    PLAYERS2,
    PLAYERS3,
    PLAYERS4,
    PLAYERS5,
    PLAYERS6,
    first_rank,
    load_cases,
)

from kb.search.engine import answer
from kb.sqlite import sqlite3

FLOORS = {  # category: top-3 floor over all its queries (tuning and frozen)
    "question en": 0.60, "question ja": 0.55, "cross": 0.50, "slang": 0.55,
    "number": 1.00, "typo": 0.80, "keyword": 0.90,
    "card": 0.50,  # lexical with card recognition: 66 % of the 59 (bench/bench_card_search.py --lexical)
}
ZERO_HIT_MAX = 0.01
# The players' set (tests/data/search_eval_players.toml: 84 questions real players asked, in their
# words): floors a little under what the lexical search measures on it, tuning and frozen halves
# together (67 % English, 79 % Japanese, 50 % slang, 57 % card; README "Search quality").
PLAYER_FLOORS = {"question en": 0.60, "question ja": 0.65, "slang": 0.35, "card": 0.45}
# Round 5's held-out set (tests/data/search_eval_players2.toml, 41 questions): the lexical search
# measures 71 % English and 61 % card questions on it, both halves together.
PLAYER2_FLOORS = {"question en": 0.60, "card": 0.50}
# Round 6's held-out set (tests/data/search_eval_players3.toml, 56 questions): the lexical search
# measures 87.5 % English, 58.8 % Japanese and 40.0 % card questions on it, both halves together.
# Round 7: its 15 card questions 33.3 % (5): the frozen half lost one of the 3 it had to round 7's
# card-rule and name changes (not looked at; the tuning half kept its 3 of 8; README, round 7).
PLAYER3_FLOORS = {"question en": 0.80, "question ja": 0.50, "card": 0.30}
# Round 7's held-out set (tests/data/search_eval_players4.toml, 51 questions): the lexical search
# measures 84 % English, 60 % Japanese (5 questions) and 61.9 % card questions on it, both halves.
PLAYER4_FLOORS = {"question en": 0.75, "question ja": 0.40, "card": 0.50}
# Round 8's held-out set (tests/data/search_eval_players5.toml, 50 questions): the lexical search
# measures 51.2 % English (41), 66.7 % Japanese (6) and 66.7 % card questions (3), both halves.
PLAYER5_FLOORS = {"question en": 0.45, "question ja": 0.50, "card": 0.33}
# Round 9's held-out set (tests/data/search_eval_players6.toml, 51 questions): the lexical search
# measures 73.3 % English (45) and 100 % Japanese (6) on it, both halves together.
PLAYER6_FLOORS = {"question en": 0.70, "question ja": 0.80}


def _ranks(built_db, cases):
    conn = sqlite3.connect(f"{built_db.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    out = []
    for c in cases:
        groups = answer(conn, c["q"], lang=c["search"], limit=10, dense=False, others=False, time_limit=10).groups
        out.append((c, first_rank([g.number for g in groups], c["expect"]), bool(groups)))
    return out


@pytest.fixture(scope="module")
def ranks(built_db):
    return _ranks(built_db, load_cases())


@pytest.fixture(scope="module")
def player_ranks(built_db):
    return _ranks(built_db, load_cases(PLAYERS, None))


@pytest.mark.parametrize("category", list(FLOORS))
def test_top_3_floor(ranks, category):
    rows = [(c, r) for c, r, _ in ranks if c["category"] == category]
    top3 = sum(r is not None and r <= 3 for _, r in rows) / len(rows)
    assert top3 >= FLOORS[category], f"{category}: top-3 {top3:.1%} under the floor {FLOORS[category]:.0%}"


def test_almost_never_zero_hits(ranks):
    zero = [c["q"] for c, _, found in ranks if not found]
    assert len(zero) / len(ranks) <= ZERO_HIT_MAX, zero


@pytest.mark.parametrize("category", list(PLAYER_FLOORS))
def test_players_questions_top_3_floor(player_ranks, category):
    rows = [(c, r) for c, r, _ in player_ranks if c["category"] == category]
    top3 = sum(r is not None and r <= 3 for _, r in rows) / len(rows)
    assert top3 >= PLAYER_FLOORS[category], f"{category}: top-3 {top3:.1%} under the floor {PLAYER_FLOORS[category]:.0%}"


# The held-out sets of later rounds: one floor test over (set, category), the ranks of a set
# computed once for all its categories.
HELD_OUT_FLOORS = {"players2": (PLAYERS2, PLAYER2_FLOORS), "players3": (PLAYERS3, PLAYER3_FLOORS),
                   "players4": (PLAYERS4, PLAYER4_FLOORS), "players5": (PLAYERS5, PLAYER5_FLOORS),
                   "players6": (PLAYERS6, PLAYER6_FLOORS)}


@pytest.fixture(scope="module")
def held_out_ranks(built_db):
    cache: dict[str, list] = {}

    def ranks_of(name):
        if name not in cache:
            cache[name] = _ranks(built_db, load_cases(HELD_OUT_FLOORS[name][0], None))
        return cache[name]
    return ranks_of


@pytest.mark.parametrize(("name", "category"),
                         [(name, category) for name, (_, floors) in HELD_OUT_FLOORS.items() for category in floors])
def test_held_out_players_set_top_3_floor(held_out_ranks, name, category):
    floor = HELD_OUT_FLOORS[name][1][category]
    set_ranks = held_out_ranks(name)
    rows = [(c, r) for c, r, _ in set_ranks if c["category"] == category]
    top3 = sum(r is not None and r <= 3 for _, r in rows) / len(rows)
    assert top3 >= floor, f"{name} {category}: top-3 {top3:.1%} under the floor {floor:.0%}"
    assert all(found for _, _, found in set_ranks), "a question with no answer"


def test_players_long_questions_are_answered(player_ranks):
    """Real questions run long (one is 209 characters): none is refused, none gets no answer."""
    assert all(found for _, _, found in player_ranks), [c["q"] for c, _, found in player_ranks if not found]
