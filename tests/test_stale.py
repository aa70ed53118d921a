"""Stale citations: a rule cited by a number that does not name what the text is about.

Real cases: the 発見 (Discover) wiki page quotes 701.55 (Face a Villainous
Choice) from release 20260807 — Discover is 701.57, and was 701.55 when it
arrived; the 探検 (Explore) page quotes 701.40 (Manifest) — Explore is 701.44.
The 探す (Search) and 発掘 (Dredge) pages quote the right rules. And our own
code (executable_rules/, data/scenarios/) cites no stale number. The Japanese
CR 20260116 cites 15 rules by a title another number has (it kept numbers the
72x rules had in older releases).

The releases named in messages are read from the database (its newest
English release, and the newest before a quoted one), never written here.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from kb.cli import cli
from kb.stale import CitingText, RuleBook, check_text, code_texts, find_stale_in, wiki_texts

from test_history import history_db_path

DISCOVER_PAGE = "seeds/000_2b231b6af2e09830.txt"
EXPLORE_PAGE = "seeds/001_c4cba18a4431fd9d.txt"
SEARCH_PAGE = "seeds/002_462d5e9bc89289de.txt"
DREDGE_PAGE = "seeds/003_4e220451db1f8278.txt"


@pytest.fixture(scope="module")
def db_path(tmp_path_factory, corpus):
    return history_db_path(tmp_path_factory, corpus)


@pytest.fixture(scope="module")
def book(db_path):
    from kb.database import open_db

    return RuleBook(open_db(db_path))


def page_findings(corpus, book, page):
    return list(find_stale_in(wiki_texts((corpus / page).read_text(encoding="utf-8"), page), book))


def release_before(book, release):
    """The newest English release the database has on or before ``release``."""
    return [r for r in book.releases if r <= release][-1]


def test_discover_page_quotes_face_a_villainous_choice(corpus, book):
    findings = page_findings(corpus, book, DISCOVER_PAGE)
    # The block quotes Face a Villainous Choice's own subrules: none of them is a subrule of
    # Discover by content, so each suggestion is Discover's numbered rule, never 701.57 + letter.
    assert [(f.line, f.cited_number, f.reason, f.suggested_number) for f in findings] == [
        (86, "701.55", "wrong-rule", "701.57"), (87, "701.55a", "wrong-rule", "701.57"),
        (88, "701.55b", "wrong-rule", "701.57"), (89, "701.55c", "wrong-rule", "701.57"),
        (90, "701.55d", "wrong-rule", "701.57"),
    ]
    first = findings[0]
    read_in = release_before(book, "20260807")
    assert (first.source_kind, first.written_for, first.read_in) == ("wiki_quote", "20260807", read_in)
    assert (first.about, first.about_from, first.cited_title) == ("discover", "document keyword", "Face a Villainous Choice")
    assert first.source_title == "発見"
    assert str(first) == (
        f"発見:86: the page quotes the 20260807 CR; in {read_in} 701.55 is “Face a Villainous Choice”, "
        "but the page is about Discover (document keyword); cite 701.57 (Discover) "
        f"(701.55 20231117–20250404, 701.57 20250606–{book.newest})"
    )


def test_explore_page_quotes_manifest(corpus, book):
    findings = page_findings(corpus, book, EXPLORE_PAGE)
    assert [f.cited_number for f in findings] == ["701.40"] + [f"701.40{letter}" for letter in "abcdefgh"]
    # Manifest's subrules (turning a manifested permanent face up, ...) are no subrule of Explore.
    assert {f.suggested_number for f in findings} == {"701.44"}
    assert {f.cited_title for f in findings} == {"Manifest"} and {f.source_title for f in findings} == {"探検"}


@pytest.mark.parametrize("page", [SEARCH_PAGE, DREDGE_PAGE], ids=["search-701.23", "dredge-702.52"])
def test_pages_quoting_the_right_rule_are_not_stale(corpus, book, page):
    assert page_findings(corpus, book, page) == []


def test_the_build_keeps_the_findings_in_a_table(db_path):
    from kb.database import open_db

    rows = [dict(r) for r in open_db(db_path).query(
        "select source_kind, source, source_title, cited_number, suggested_number from stale_citations"
        " where source like 'seeds/%' order by source, line")]
    assert {"source_kind": "wiki_quote", "source": DISCOVER_PAGE, "source_title": "発見", "cited_number": "701.55",
            "suggested_number": "701.57"} in rows
    assert {r["source"] for r in rows} == {DISCOVER_PAGE, EXPLORE_PAGE}


def test_our_own_code_cites_no_stale_rule(built_db):
    # Against the newest CR the corpus has (the whole database, not the history slice: our code cites
    # rules only the newest release has, such as Heal — CR 701.69).
    from kb.database import open_db

    book = RuleBook(open_db(built_db))
    texts = code_texts()
    cited = [t for t in texts if any(ch.isdigit() for ch in t.text) and "CR " in t.text]
    if not cited:
        pytest.skip("executable_rules/ has no rule citations yet")
    findings = list(find_stale_in(texts, book))
    assert findings == [], "\n".join(str(f) for f in findings)


def check(book, text, **kwargs):
    doc = CitingText(kwargs.pop("source_kind", "code"), "x.py", 1, text, **kwargs)
    return [(f.cited_number, f.reason, f.suggested_number, f.about_from) for f in check_text(doc, book)]


def test_keyword_named_before_an_old_number(book):
    assert check(book, "Search — CR 701.19a: look at every card in the zone.") == [
        ("701.19a", "wrong-rule", "701.23a", "title before number")]
    assert check(book, "Search — CR 701.23a: look at every card in the zone.") == []


def test_a_title_in_toml_is_not_a_word_of_a_path_before_it(book):
    # A scenario's source names XMage's test file (…/cards/copy/CloneTest.java) just before its "also":
    # the citation is about Copying Objects, not about Cards (108).
    text = ('source = { kind = "engine-test", file = "Mage.Tests/src/test/java/org/mage/test/cards/copy/'
            'CloneTest.java", test = "testCard3" }\nalso = ["Copying Objects — CR 707.2"]')
    assert check(book, text) == []
    # The title is still read: a wrong number beside it is found.
    assert check(book, text.replace("707.2", "108.3")) == [("108.3", "wrong-rule", "707", "title before number")]


def test_a_subrule_is_suggested_by_what_it_became_not_by_its_letter(book):
    # Phasing was 702.25 until 20200703 (Flanking is 702.25 now, with no 702.25e); its 702.25e
    # then is 702.26f now: a subrule inserted since moved the letters, so 702.26e would be wrong.
    assert [n for _a, _b, n in book.numbers_over_time("702.26")][:2] == ["702.25", "702.26"]
    assert check(book, "Phasing — CR 702.25e: effects may expire.") == [
        ("702.25e", "missing", "702.26f", "title before number")]


def test_the_closest_subrule_by_text(book):
    from kb.stale import closest_subrule

    old = book.rules("20200703")["702.25e"][3]
    phasing = {n: row for n, row in book.rules(book.newest).items() if row[1] == "702.26"}
    assert closest_subrule(old, phasing) == "702.26f"
    manifest_b = book.rules(release_before(book, "20260807"))["701.40b"][3]
    explore = {n: row for n, row in book.rules(book.newest).items() if row[1] == "701.44"}
    assert explore and closest_subrule(manifest_b, explore) is None


def test_japanese_title_after_the_number(book):
    assert check(book, "rule 701.19〔探す〕参照", source_kind="wiki_page") == [
        ("701.19", "wrong-rule", "701.23", "title after number")]


def test_a_dated_ruling_is_read_in_its_release_and_moved_since(book):
    # In November 2023 701.55a was Discover; it is 701.57a now.
    assert check(book, "See rule 701.55a.", source_kind="card_ruling", date="20231201") == [
        ("701.55a", "moved", "701.57a", None)]
    assert check(book, "See rule 701.55a.", source_kind="card_ruling") == []


def test_the_document_keyword_covers_its_family_only(book):
    assert check(book, "(701.55a) random order; cast it (601.2).", keywords=("Discover",)) == [
        ("701.55a", "wrong-rule", "701.57a", "document keyword")]


def test_a_number_that_never_existed_is_missing(book):
    assert check(book, "See rule 701.99b.") == [("701.99b", "missing", None, None)]


def test_cli_stale_lists_the_quoted_blocks(db_path):
    result = CliRunner().invoke(cli, ["stale", "--source-kind", "wiki_quote", "--json", "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    found = {(f["source"], f["cited_number"], f["suggested_number"]) for f in json.loads(result.output)}
    assert (DISCOVER_PAGE, "701.55", "701.57") in found and (EXPLORE_PAGE, "701.40", "701.44") in found
    text = CliRunner().invoke(cli, ["stale", "--source-kind", "wiki_quote", "--db", str(db_path)]).output
    assert "発見:86: the page quotes the 20260807 CR; in " in text and DISCOVER_PAGE not in text


def test_tables_of_other_sources_are_read_by_their_columns(book):
    from kb.stale import database_texts

    import sqlite_utils

    db = sqlite_utils.Database(memory=True)
    db["wiki_pages"].insert({"title": "発見", "name_ja": "発見", "name_en": "Discover", "source": "wiki/ja/発見.txt",
                             "line": 1, "definition": "発見の定義はrule 701.55aを参照。", "revision": "2024年6月4日"})
    db["rulings"].insert({"keyword": "Discover", "text": "See 701.55b.", "source": "wiki/ja/発見.txt", "line": 40})
    db["card_rulings"].insert({"card": "Hit the Mother Lode", "date": "2023-11-10", "text": "See rule 701.55c.",
                               "sources": "cards/oracle.txt", "line": 7})
    texts = list(database_texts(db))
    assert [(t.source_kind, t.source, t.line, t.date, t.keywords) for t in texts] == [
        ("wiki_page", "wiki/ja/発見.txt", 1, "20240604", ("発見", "Discover")),
        ("ruling", "wiki/ja/発見.txt", 40, None, ("Discover",)),
        ("card_ruling", "cards/oracle.txt", 7, "20231110", ()),
    ]
    found = [(f.source_kind, f.cited_number, f.reason, f.suggested_number) for f in find_stale_in(texts, book)]
    assert found == [
        ("wiki_page", "701.55a", "moved", "701.57a"),  # written in 2024, when 701.55a was Discover
        ("ruling", "701.55b", "wrong-rule", "701.57b"),  # undated: read today, 701.55b is another rule
        ("card_ruling", "701.55c", "moved", "701.57c"),
    ]


# --- cross-references inside the Japanese CR ---------------------------------------------------

JA_CR = "cr/ja/JPN_CR_20260116.txt"
# The 15 cross-references in the rules of the Japanese CR 20260116 that print one rule's title in
# 〔〕 but the number of another (the translation kept numbers the 72x rules had in older
# releases): (line, citing rule, number cited, number of the rule with that title).
# Each was read in the file: the English 20260116 rule of the same number cites the right one.
JAPANESE_STALE_REFERENCES = [
    (268, "104.6", "725", "726"), (674, "121.8", "731", "732"), (1183, "502.2", "728", "730"),
    (1238, "508.1", "731", "732"), (1279, "509.1", "731", "732"), (1313, "510.1e", "731", "732"),
    (1338, "601.2", "731", "732"), (1344, "601.2e", "731", "732"), (1363, "601.5", "731", "732"),
    (1377, "602.2", "731", "732"), (1543, "608.3d", "728", "729"), (1620, "613.2a", "728", "729"),
    (1813, "701.9c", "731", "732"), (2673, "702.140c", "728", "729"), (2693, "702.145b", "728", "730"),
]


@pytest.fixture(scope="module")
def ja_cross_references(db_path):
    from kb.database import open_db
    from kb.stale import find_stale_cross_references

    return [f for f in find_stale_cross_references(open_db(db_path)) if f.source == JA_CR]


def test_japanese_cr_cross_references_that_kept_older_numbers(corpus, db_path, ja_cross_references):
    from kb.database import open_db

    lines = (corpus / JA_CR).read_text(encoding="utf-8").split("\n")
    glossary_starts = lines.index("用語集") + 1
    in_rules = [f for f in ja_cross_references if f.line < glossary_starts]
    assert [(f.line, f.message.split(" cites ")[0], f.cited_number, f.suggested_number) for f in in_rules] \
        == JAPANESE_STALE_REFERENCES
    db = open_db(db_path)
    for f, (line, citing, _cited, right) in zip(in_rules, JAPANESE_STALE_REFERENCES):
        printed = f.about
        assert lines[line - 1].startswith(citing) and f.cited in lines[line - 1]
        assert f"{f.cited_number}〔{printed}〕" in f.cited
        # The file's own headings: the cited number is titled otherwise, the suggested one so.
        assert f"{right}. {printed}" in lines and f"{f.cited_number}. {printed}" not in lines
        assert f"{f.cited_number}. {f.cited_title}" in lines
        [english] = db.execute("select text from rules where release = '20260116' and lang = 'en' and number = ?",
                               [citing]).fetchone()
        assert re.search(rf"\brules? {right}\b", english), (citing, english)
    first = in_rules[0]
    assert (first.source_kind, first.reason, first.read_in) == ("cr", "wrong-rule", "20260116")
    assert str(first) == (
        f"{JA_CR}:268: 104.6 cites 725〔ゲームを再び開始する〕, but in the Japanese CR 20260116 725 is 〔イニシアチブ〕 "
        "(The Initiative); 〔ゲームを再び開始する〕 is 726 (Restarting the Game); cite 726")


def test_the_japanese_glossary_cross_references_too(corpus, ja_cross_references):
    lines = (corpus / JA_CR).read_text(encoding="utf-8").split("\n")
    glossary_starts = lines.index("用語集") + 1
    in_glossary = [f for f in ja_cross_references if f.line >= glossary_starts]
    assert len(in_glossary) == 16
    for f in in_glossary:
        assert f.cited in lines[f.line - 1] and f"{f.suggested_number}. {f.about}" in lines
    # 700.14 has no title but defines 積算 (Expend): its 〔積算〕 is right.
    assert "rule 700.14〔積算〕参照。" in "\n".join(lines) and all(f.cited_number != "700.14" for f in in_glossary)


def test_cli_stale_lists_the_cr_cross_references(db_path):
    result = CliRunner().invoke(cli, ["stale", "--source-kind", "cr", "--json", "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert {f["source_kind"] for f in found} == {"cr"}
    assert (JA_CR, 268, "725", "726") in {(f["source"], f["line"], f["cited_number"], f["suggested_number"]) for f in found}
