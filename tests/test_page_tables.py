"""The "page tables" build step (kb.load.page_tables): what the pages read instead of working it out
must be what they worked out before, on the real database."""

from __future__ import annotations

import re

import pytest

from kb.plugin import prefetch, rule_page

# Search (renumbered many times), a rule, a subrule: each has a history of many runs.
NUMBERS = ["701.23", "702.19", "100.1", "613.1", "702.19b"]


def _history_by_join(conn, number: str, release: str, lang: str) -> list[dict]:
    """The history as the rule page reads it without the build step's table: each lineage step joined to its rule."""
    return rule_page._history(conn, number, release, lang, tables=None)


@pytest.fixture(scope="module")
def conn(kb_db):
    tables = set(kb_db.table_names())
    if not {"rule_history_runs", "keyword_card_rulings"} <= tables:
        pytest.fail("the database was built without the page tables step")
    return kb_db.conn


@pytest.mark.parametrize("number", NUMBERS)
def test_history_runs_are_the_joined_history(conn, number):
    release = conn.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'").fetchone()[0]
    tables = rule_page.table_names(conn)
    kept = rule_page._history(conn, number, release, "en", tables)
    assert kept, f"no history for {number}"
    assert kept == _history_by_join(conn, number, release, "en")
    # Search has had several numbers: the runs say so (701.14 … 701.23).
    if number == "701.23":
        assert len({r["number"] for r in kept if r["lang"] == "en"}) >= 3


@pytest.mark.parametrize("keyword", ["Discover", "Search", "Trample", "Double Strike"])
def test_keyword_card_rulings_are_those_naming_the_keyword(conn, keyword):
    word = re.compile(rf"\b{re.escape(keyword)}", re.IGNORECASE)
    every = [(i, t) for i, t in conn.execute("select id, text from card_rulings where text like ?", [f"%{keyword}%"])
             if word.search(t or "")]
    kept = {r[0] for r in conn.execute("select card_ruling_id from keyword_card_rulings where keyword = ?", [keyword])}
    assert kept == {i for i, _ in every}
    if keyword != "Discover":
        assert kept, f"no card ruling names {keyword}"
    # "search" inside "research" is not Search.
    assert not any(re.search(r"\bresearch", t, re.IGNORECASE) and not word.search(t) for i, t in
                   conn.execute("select id, text from card_rulings where id in (select card_ruling_id from"
                                " keyword_card_rulings where keyword = ?)", [keyword]))


def test_rule_page_reads_the_same_with_and_without_the_tables(conn, built_db):
    """The page data is the same whether the pages read the build's tables or work it out."""
    with_tables = rule_page.read_rule(conn, str(built_db), "702.19", None)
    facts = rule_page.file_facts(conn, str(built_db))
    tables = set(facts[0]) - {"rule_history_runs", "keyword_card_rulings"}
    without = rule_page.read_rule(_WithoutTables(conn, tables), None, "702.19", None)
    assert with_tables["history"] == without["history"]
    assert [r["id"] for r in with_tables["card_rulings"]] == [r["id"] for r in without["card_rulings"]]
    assert with_tables["card_rulings"], "Trample has card rulings"


class _WithoutTables:
    """A connection whose sqlite_master hides some tables (a database built before the step)."""

    def __init__(self, conn, tables: set[str]):
        self.conn, self.tables = conn, tables

    def execute(self, sql, params=()):
        if sql == "select name from sqlite_master where type in ('table', 'view')":   # table_names()
            return iter([(t,) for t in sorted(self.tables)])
        return self.conn.execute(sql, params)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def test_read_ahead_is_bounded_by_memory(tmp_path, monkeypatch):
    small = tmp_path / "small.db"
    small.write_bytes(b"\0" * 4096)
    assert prefetch.read_ahead(str(small)) is (hasattr(prefetch.os, "posix_fadvise")
                                               and prefetch.available_memory() is not None)
    monkeypatch.setattr(prefetch, "available_memory", lambda: 1000)   # the file is larger than a quarter
    assert prefetch.read_ahead(str(small)) is False
    assert prefetch.read_ahead(str(tmp_path / "missing.db")) is False
