"""The answer cache (kb/search/answer_cache.py): the same search asked again gives the same answer,
without searching; other arguments, another database file or a momentary fallback are searched."""

from __future__ import annotations

import shutil

import pytest

from kb.search import answer_cache, engine
from kb.search.engine import SearchTimeout, answer
from kb.sqlite import sqlite3


@pytest.fixture
def conn(built_db):
    c = sqlite3.connect(f"{built_db.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    yield c
    c.close()


@pytest.fixture
def searches(monkeypatch):
    """The cache on and empty; the list of queries the engine really searched."""
    monkeypatch.setenv("KB_ANSWER_CACHE", "64")
    answer_cache.clear()
    searched: list[str] = []
    uncached = answer.uncached

    def counting(conn, query, **options):
        searched.append(query)
        return uncached(conn, query, **options)

    monkeypatch.setattr(engine, "answer", answer_cache.cached(counting))
    yield searched
    answer_cache.clear()


def test_the_same_search_again_is_the_same_answer_without_searching(conn, searches):
    first = engine.answer(conn, "what does hexproof stop", dense=False)
    again = engine.answer(conn, "what does hexproof stop", dense=False)
    assert searches == ["what does hexproof stop"]
    expected = answer.uncached(conn, "what does hexproof stop", dense=False).as_dict()
    for result in (first, again):
        data = result.as_dict()
        data.pop("ms"), expected.pop("ms", None)
        assert data == expected and result.groups and result.groups[0].number == "702.11"
    # Each caller has its own copy: changing one answer changes no other.
    again.groups.clear()
    again.notes.append("changed")
    third = engine.answer(conn, "what does hexproof stop", dense=False)
    assert third.groups and "changed" not in third.notes and searches == ["what does hexproof stop"]


def test_other_arguments_are_other_searches(conn, searches):
    engine.answer(conn, "hexprof", dense=False)
    engine.answer(conn, "hexprof", dense=False, lang="ja")
    engine.answer(conn, "hexprof", dense=False, limit=3)
    engine.answer(conn, "Hexprof", dense=False)
    assert searches == ["hexprof", "hexprof", "hexprof", "Hexprof"]
    assert len(engine.answer(conn, "hexprof", dense=False, limit=3).groups) <= 3 and len(searches) == 4


def test_a_failed_search_fails_again(conn, searches):
    for _ in range(2):
        with pytest.raises(SearchTimeout):
            engine.answer(conn, "creature player card damage spell ability", dense=False, time_limit=0.0)
    assert len(searches) == 2


def test_another_database_file_is_searched(conn, built_db, tmp_path, searches):
    engine.answer(conn, "graveyard", dense=False)
    copy = tmp_path / "copy.db"
    shutil.copy(built_db, copy)
    other = sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
    try:
        engine.answer(other, "graveyard", dense=False)
    finally:
        other.close()
    assert searches == ["graveyard", "graveyard"]


def test_a_momentary_lexical_fallback_is_not_kept(conn, searches, monkeypatch):
    uncached = answer.uncached

    def busy(conn, query, **options):
        searches.append(query)
        result = uncached(conn, query, **options)
        result.notes.append("the embedding model was busy; these are lexical results")
        return result

    monkeypatch.setattr(engine, "answer", answer_cache.cached(busy))
    engine.answer(conn, "can a tapped creature block", dense=False)
    engine.answer(conn, "can a tapped creature block", dense=False)
    assert searches == ["can a tapped creature block"] * 2


def test_the_cache_off_searches_every_time(conn, searches, monkeypatch):
    monkeypatch.setenv("KB_ANSWER_CACHE", "0")
    engine.answer(conn, "graveyard", dense=False)
    engine.answer(conn, "graveyard", dense=False)
    assert searches == ["graveyard", "graveyard"]
