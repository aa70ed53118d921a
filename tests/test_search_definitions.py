"""A keyword's own rule first, the other language weighed by what it translates, id ranges, the warm cache."""

from __future__ import annotations

import json

import pytest

from kb.search import lexical, warm
from kb.search.engine import _translated_share, _verbatim, answer, needs_dense
from kb.search.fts import KeywordNames
from kb.search.lexical import CR_KINDS, CURRENT_OR_SQL, lexical_hits, match_expression, row_ranges
from kb.search.query import read_query
from kb.search.typos import Vocabulary
from kb.sqlite import sqlite3


@pytest.fixture(scope="module")
def conn(built_db):
    c = sqlite3.connect(f"{built_db.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    yield c
    c.close()


def numbers(result):
    return [g.number for g in result.groups]


def glossary_citing(conn, lang, several=True):
    """Glossary terms of the newest release whose definition names more than one rule."""
    from kb.search.engine import cited_rules

    rows = conn.execute("select title, text from search_current where kind = 'glossary' and lang = ?"
                        " and title is not null", [lang]).fetchall()
    return [(t, cited_rules(x)) for t, x in rows if (len(cited_rules(x)) > 1) == several and cited_rules(x)]


def test_a_glossary_term_typed_whole_leads_to_the_rules_its_definition_names(conn):
    # Poison Counter: "See rule 122, “Counters,” and rule 704.5c": both before rules that only use the words.
    result = answer(conn, "poison counters", dense=False, others=False)
    assert numbers(result)[:2] == ["122", "704.5"]
    assert numbers(answer(conn, "毒カウンター", dense=False, others=False))[:2] == ["122", "704.5"]


def test_every_glossary_term_typed_as_a_query_finds_its_first_rule_first(conn):
    # Not one query: every English term whose definition names rules (a sample of them, spread out).
    terms = glossary_citing(conn, "en", several=False)
    assert len(terms) > 200
    for title, cited in terms[::25]:
        result = answer(conn, title, dense=False, others=False)
        first = numbers(result)[0]
        # The rule it names first, or a rule of the same title (General is rule 100 and a glossary term).
        same_title = conn.execute("select 1 from rules where lang = 'en' and number = ? and lower(title) = lower(?)",
                                  [first, title]).fetchone()
        assert first in (cited[0], cited[0].rstrip("abcdefghijklmnopqrstuvwxyz")) or same_title, (title, cited, first)


def test_a_rule_title_typed_whole_is_that_rule_first(conn):
    assert numbers(answer(conn, "priority", dense=False, others=False))[0] == "117"  # Timing and Priority
    assert numbers(answer(conn, "priorty", dense=False, others=False))[0] == "117"  # corrected first


def test_a_rules_phrase_typed_whole_stays_on_the_lexical_path(conn):
    names = KeywordNames.from_db(conn)
    plan = read_query("toughness 0 or less", names=names)
    assert "toughness 0 or less" in [t.phrase for t in plan.terms]
    result = answer(conn, "toughness 0 or less", others=False)
    assert result.mode == "lexical" and numbers(result)[0] == "704.5"
    # A question's words are no phrase of the rules: it still goes to dense retrieval, and so does
    # a question around a phrase of the rules.
    assert needs_dense(read_query("can a tapped creature block", names=names))
    around = read_query("what are the characteristics of copies", names=names)
    assert needs_dense(around) and not _verbatim(conn, around)
    assert _verbatim(conn, read_query("toughness 0 or less", names=names))


def test_the_other_language_counts_by_the_share_of_the_query_it_translates(conn):
    names = KeywordNames.from_db(conn)
    assert _translated_share(read_query("first strike", names=names)) == 1.0
    assert _translated_share(read_query("toughness 0 or less", names=names)) == pytest.approx(1 / 3)
    assert _translated_share(read_query("pineapple", names=names)) == 0.0


@pytest.mark.parametrize("query", ["graveyard", "mana value", "face down", "first strike double", "墓地"])
def test_the_rules_index_finds_the_rows_the_whole_index_finds(conn, query):
    # Its own index of the CR rows ranks by the rarity of words among rules; the rows it finds
    # are the rows of the whole index that match, no more and no fewer.
    plan = read_query(query, names=KeywordNames.from_db(conn))
    for lang in ("en", "ja"):
        fast = lexical_hits(conn, plan, lang=lang, terms_lang=lang, limit=5000)
        whole = conn.execute(CURRENT_OR_SQL, {"query": match_expression(plan, lang), "lang": lang, "section": None,
                                              "kinds": json.dumps(list(CR_KINDS)), "limit": 5000}).fetchall()
        assert fast and {h.rowid for h in fast} == {r[0] for r in whole}


def test_the_rules_index_holds_the_english_and_japanese_rules_only(conn):
    assert lexical.has_rules_index(conn)
    indexed = conn.execute("select count(*) from search_rules_fts_docsize").fetchone()[0]
    rows = conn.execute("select count(*) from search_current where kind in ('rule', 'example', 'glossary')"
                        " and lang in ('en', 'ja')").fetchone()[0]
    assert indexed == rows > 8000
    outside = conn.execute("select count(*) from search_rules_fts_docsize d join search_current s on s.id = d.id"
                           " where s.kind not in ('rule', 'example', 'glossary') or s.lang not in ('en', 'ja')")
    assert outside.fetchone()[0] == 0


def test_row_ranges_cover_every_row_of_their_kinds(conn):
    for kinds, lang in ((CR_KINDS, "en"), (CR_KINDS, "ja"), (("card", "card ruling", "ruling"), None)):
        ranges = row_ranges(conn, kinds, lang)
        marks = ",".join("?" * len(kinds))
        ids = [r[0] for r in conn.execute(f"select id from search_current where kind in ({marks})"
                                          " and (? is null or lang = ?)", [*kinds, lang, lang])]
        assert ids and all(any(lo <= i <= hi for lo, hi in ranges) for i in ids)
    assert lexical.OTHER_CANDIDATES > 0


def test_the_warm_cache_gives_back_the_same_indexes(conn, tmp_path, monkeypatch):
    monkeypatch.setenv("KB_CACHE_DIR", str(tmp_path))
    from kb.search import cards, typos

    path = warm._db_path(conn)
    built = cards.card_names(conn)
    vocabulary = Vocabulary.from_db(conn)
    for cache in (cards._INDEXES, typos._CACHE):
        cache.pop(path, None)
    first = warm.card_names(conn)  # built, then written
    assert list((tmp_path / "search-warm").glob("*.marshal"))
    cards._INDEXES.pop(path, None)
    again = warm.card_names(conn)  # read back
    assert again is not first and vars(again).keys() == vars(built).keys()
    assert again.latin == built.latin and again.cjk == built.cjk and again.common == built.common
    query = "does Rest in Peace stop Blood Moon"
    known = lambda w: False  # noqa: E731
    assert again.find(query, known=known) == built.find(query, known=known)
    typos._CACHE.pop(path, None)
    warm.vocabulary(conn)
    typos._CACHE.pop(path, None)
    read = warm.vocabulary(conn)
    assert read.docs == vocabulary.docs and read.correct("priorty", "en") == "priority"
