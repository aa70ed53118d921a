"""Rule history: matching consecutive releases, lineages and traces, on real releases.

The database here is built from a slice of the corpus (nine English
releases around the renumberings we test, the Japanese CR 20260116, and the
CR blocks the seed wiki pages quote, loaded as Japanese excerpt releases),
once per session; ``tests/test_diff.py`` and ``tests/test_stale.py`` share it
through :func:`history_db_path`.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest
import sqlite_utils
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.cr import parse_cr
from ingest.records import Release
from kb.build import BuildContext
from kb.corpus import english_cr_files
from kb.history import (
    RuleText,
    assign_pairs,
    match_rules,
    optimal_assignment,
    release_pairs,
    word_similarity,
)
from kb.lineage import trace_rule

# Search 701.18 → 701.19 (20200703); Discover arrives (20231117); the keyword
# actions renumbered (20250606); a few rewordings (20260227); the newest release.
EN_RELEASES = ["20200601", "20200703", "20231013", "20231117", "20250404", "20250606",
               "20260116", "20260227", "20260417"]
SEEDS = sorted(["000_2b231b6af2e09830.txt", "001_c4cba18a4431fd9d.txt",
                "002_462d5e9bc89289de.txt", "003_4e220451db1f8278.txt"])
_QUOTE_LABEL = re.compile(r"引用：総合ルール (\d{8})")
_QUOTED = re.compile(r"^[\s•\-]*(?P<number>\d{3}\.\d+[a-z]?)\.?\s+(?P<rest>\S.*)$")


def quoted_rule_rows(corpus: Path, name: str) -> tuple[str, list[dict]]:
    """Stand-in for the wiki loader: the rules a seed page quotes, as rows of an excerpt release."""
    source = f"seeds/{name}"
    lines = (corpus / source).read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if _QUOTE_LABEL.search(line))
    release = _QUOTE_LABEL.search(lines[start]).group(1)
    rows = []
    for offset, line in enumerate(lines[start + 1:], start + 2):
        m = _QUOTED.match(line)
        if not m or any(r["number"] == m["number"] for r in rows):
            continue
        number, rest = m["number"], m["rest"]
        if number[-1].isalpha():
            row = {"kind": "subrule", "parent": number[:-1], "title": None, "title_en": None, "text": rest}
        else:  # the heading as printed, 最悪の二択を行う／Face a Villainous Choice, as the wiki loader keeps it
            row = {"kind": "numbered", "parent": number.split(".")[0], "title": rest,
                   "title_en": rest.partition("／")[2] or None, "text": ""}
        rows.append({"release": release, "lang": "ja", "number": number, "section": number[0],
                     "position": len(rows) + 1, "source": source, "line": offset, **row})
    return release, rows


def build_history_db(path: Path, corpus: Path) -> None:
    """A database of :data:`EN_RELEASES`, the Japanese CR and the seed pages' quotes, with history."""
    from kb import schema
    from kb.load import history as load_history
    from kb.load.cr import insert_records
    from kb.load.japanese import load_japanese_cr

    db = sqlite_utils.Database(path)
    ctx = BuildContext(db=db, corpus=corpus)
    schema.create_cr_tables(db)
    files = {f.path.name: f for f in english_cr_files(corpus)}
    for release in EN_RELEASES:
        f = next(f for name, f in files.items() if release in name)
        records = list(parse_cr(f.path, f.relative))
        insert_records(ctx, records)
        rel = next(r for r in records if isinstance(r, Release))
        db["releases"].insert({"release": rel.release, "lang": "en", "effective_date": rel.effective_date,
                               "source": rel.source, "completeness": "whole"})
    load_japanese_cr(ctx)
    for name in SEEDS:
        release, rows = quoted_rule_rows(corpus, name)
        db["rules"].insert_all(rows)
        db["releases"].insert({"release": release, "lang": "ja", "effective_date": release,
                               "source": rows[0]["source"], "completeness": "excerpt"}, ignore=True)
    schema.finish_cr_tables(db)
    load_history.load_history(ctx)
    db.close()


def history_db_path(tmp_path_factory, corpus) -> Path:
    """The slice database, built on first use in this test session."""
    from conftest import built_once

    return built_once(tmp_path_factory, "history_slice.db", lambda partial: build_history_db(partial, corpus))


@pytest.fixture(scope="module")
def history_db(tmp_path_factory, corpus):
    from kb.database import open_db

    return open_db(history_db_path(tmp_path_factory, corpus))


def matches(db, old, new, lang="en", **where):
    sql = "select * from rule_matches where lang = ? and old_release = ? and new_release = ?"
    params = [lang, old, new]
    for column, value in where.items():
        sql += f" and {column} = ?"
        params.append(value)
    return [dict(r) for r in db.query(sql, params)]


# --- real releases ------------------------------------------------------------------


def test_search_701_19_moved_to_701_23_in_20250606(history_db):
    [row] = matches(history_db, "20250404", "20250606", old_number="701.19")
    assert (row["new_number"], row["status"], row["matched_by"]) == ("701.23", "moved", "title")
    subrules = matches(history_db, "20250404", "20250606", status="moved")
    moved = {r["old_number"]: r["new_number"] for r in subrules}
    assert [moved[f"701.19{letter}"] for letter in "abcdefghij"] == [f"701.23{letter}" for letter in "abcdefghij"]


def test_search_701_18_moved_to_701_19_in_20200703(history_db):
    [row] = matches(history_db, "20200601", "20200703", old_number="701.18")
    assert (row["new_number"], row["status"]) == ("701.19", "moved")


def test_discover_arrives_as_701_55_then_moves_to_701_57(history_db):
    [added] = matches(history_db, "20231013", "20231117", new_number="701.55")
    assert added["status"] == "added" and added["old_number"] is None
    [moved] = matches(history_db, "20250404", "20250606", old_number="701.55")
    assert (moved["new_number"], moved["status"]) == ("701.57", "moved")


def test_block_move_701_15_to_701_18_come_out_as_moves_not_remove_and_add(history_db):
    rows = {r["old_number"]: r for r in matches(history_db, "20250404", "20250606")
            if r["old_number"] in ("701.15", "701.16", "701.17", "701.18")}
    assert {n: (r["new_number"], r["status"]) for n, r in rows.items()} == {
        "701.15": ("701.19", "moved"), "701.16": ("701.20", "moved"),
        "701.17": ("701.21", "moved"), "701.18": ("701.22", "moved"),
    }
    counts = dict(history_db.execute(
        "select status, count(*) from rule_matches where old_release = '20250404' and new_release = '20250606'"
        " and lang = 'en' group by status").fetchall())
    assert counts.get("removed", 0) == 0


def test_reworded_rule_is_changed_at_the_same_number(history_db):
    [row] = matches(history_db, "20260116", "20260227", old_number="702.49c")
    assert (row["new_number"], row["status"]) == ("702.49c", "changed")
    assert 0.3 < row["similarity"] < 0.9


def test_a_cross_reference_renumbered_with_its_target_is_moved_changed(history_db):
    # 701.55c cites 701.55a; after 20250606 it is 701.57c citing 701.57a.
    [row] = matches(history_db, "20250404", "20250606", old_number="701.55c")
    assert (row["new_number"], row["status"]) == ("701.57c", "moved_changed")


def test_japanese_excerpt_is_compared_with_japanese_20260116_and_never_removes(history_db):
    rows = matches(history_db, "20260116", "20260807", lang="ja")
    assert {r["status"] for r in rows} <= {"same", "changed"}
    by_number = {r["old_number"]: r for r in rows}
    assert by_number["701.55"]["new_number"] == "701.55"
    assert by_number["701.40a"]["new_number"] == "701.40a"
    # The 20231117 quote of Dredge comes before the first whole Japanese release.
    [dredge] = matches(history_db, "20231117", "20260116", lang="ja", old_number="702.52")
    assert dredge["new_number"] == "702.52"


def test_lineage_follows_search_through_its_numbers(history_db):
    rows = history_db.execute(
        "select release, number from rule_lineage where lineage_id = (select lineage_id from rule_lineage"
        " where lang = 'en' and release = '20260417' and number = '701.23') and lang = 'en' order by release"
    ).fetchall()
    numbers = {release: number for release, number in rows}
    assert numbers["20200601"] == "701.18" and numbers["20200703"] == "701.19"
    assert numbers["20250404"] == "701.19" and numbers["20250606"] == "701.23"
    [(newest, numbers_json)] = history_db.execute(
        "select newest_number, numbers from lineages where lineage_id = (select lineage_id from rule_lineage"
        " where lang = 'en' and release = '20200601' and number = '701.18')").fetchall()
    assert newest == "701.23" and numbers_json == '["701.18", "701.19", "701.23"]'


def test_japanese_rows_share_the_lineage_of_the_english_rule(history_db):
    ids = history_db.execute(
        "select lang, release, lineage_id from rule_lineage where (lang, release, number) in"
        " (values ('en', '20260116', '701.55'), ('ja', '20260116', '701.55'), ('ja', '20260807', '701.55'))"
    ).fetchall()
    assert len({row[2] for row in ids}) == 1 and len(ids) == 3


def test_trace_701_57a_oldest_first_with_what_changed(history_db):
    trace = trace_rule(history_db, "701.57a")
    assert [(s.release, s.number, s.status) for s in trace.steps][:3] == [
        ("20231117", "701.55a", "added"), ("20250404", "701.55a", "same"), ("20250606", "701.57a", "moved"),
    ]
    assert trace.newest_number == "701.57a"
    runs = trace.runs()
    assert [(r["first_release"], r["last_release"], r["number"]) for r in runs] == [
        ("20231117", "20250404", "701.55a"), ("20250606", "20260417", "701.57a")]


def test_trace_in_japanese_covers_the_excerpt(history_db):
    trace = trace_rule(history_db, "701.55a", lang="ja")
    assert [(s.release, s.completeness) for s in trace.steps] == [("20260116", "whole"), ("20260807", "excerpt")]
    everything = trace_rule(history_db, "701.55a", lang="ja", langs=None)
    assert {s.lang for s in everything.steps} == {"en", "ja"}


def test_trace_an_old_number_from_its_release(history_db):
    trace = trace_rule(history_db, "701.19", release="20250404")
    assert trace.newest_number == "701.23"


def test_trace_unknown_number_says_numbers_move(history_db):
    from kb.database import RuleNotFound

    with pytest.raises(RuleNotFound, match=r"^no rule 701.99 in release 20260417 \(en\); numbers move"):
        trace_rule(history_db, "701.99")


# --- the matcher on small cases -------------------------------------------------------

def rule(number, text="", title=None):
    kind = "subrule" if number[-1].isalpha() else "numbered" if "." in number else "rule"
    parent = number[:-1] if kind == "subrule" else number.split(".")[0] if kind == "numbered" else number[0]
    return RuleText(number, kind, parent, title, text)


def statuses(old, new, **kwargs):
    return [(m.old_number, m.new_number, m.status) for m in match_rules(old, new, **kwargs)]


def test_renamed_rule_follows_its_subrules():
    old = [rule("501.7", title="Tap"), rule("501.7a", "To tap a permanent, turn it sideways."),
           rule("501.7b", "To untap a permanent, return it upright.")]
    new = [rule("701.15", title="Tap and Untap"), rule("701.15a", "To tap a permanent, turn it sideways."),
           rule("701.15b", "To untap a permanent, return it upright.")]
    result = match_rules(old, new)
    assert [(m.old_number, m.new_number, m.status, m.how) for m in result] == [
        ("501.7", "701.15", "moved_changed", "children"),
        ("501.7a", "701.15a", "moved", "text"), ("501.7b", "701.15b", "moved", "text"),
    ]


def test_reworded_subrule_pairs_with_its_most_similar_sibling():
    old = [rule("701.9", title="Discard"), rule("701.9a", "To discard a card, move it from its owner's hand to the graveyard."),
           rule("701.9b", "By default, effects that cause a player to discard let that player choose.")]
    new = [rule("701.9", title="Discard"),
           rule("701.9a", "By default, effects that cause a player to discard a card let that player choose."),
           rule("701.9b", "To discard a card, move it from its owner’s hand to that player's graveyard.")]
    assert statuses(old, new) == [
        ("701.9", "701.9", "same"), ("701.9a", "701.9b", "moved_changed"), ("701.9b", "701.9a", "moved_changed")]


def test_typographic_variants_are_the_same_text():
    old = [rule("100.1a", "A two-player game is a game that begins with only two players. It's \"fun.\"")]
    new = [rule("100.1a", "A two-player game is a game that begins with only two players. It’s “fun.”")]
    assert statuses(old, new) == [("100.1a", "100.1a", "same")]


def test_unrelated_text_is_removed_and_added():
    old = [rule("100.6", "Most tournaments have special rules.")]
    new = [rule("100.6", "Some formats use a sideboard of up to fifteen cards.")]
    assert statuses(old, new) == [("100.6", None, "removed"), (None, "100.6", "added")]


def test_excerpts_never_remove_or_add():
    whole = [rule("701.23", title="Search"), rule("701.23a", "To search for a card, look."),
             rule("701.24", title="Shuffle")]
    excerpt = [rule("701.23", title="Search"), rule("701.23a", "To search for a card, look!")]
    assert statuses(whole, excerpt, new_is_excerpt=True) == [
        ("701.23", "701.23", "same"), ("701.23a", "701.23a", "changed")]
    assert statuses(excerpt, whole, old_is_excerpt=True) == [
        ("701.23", "701.23", "same"), ("701.23a", "701.23a", "changed")]


def test_release_pairs_hang_excerpts_off_whole_releases():
    rows = [("20250404", "en", "whole"), ("20250606", "en", "whole"), ("20231117", "ja", "excerpt"),
            ("20260116", "ja", "whole"), ("20260807", "ja", "excerpt"), ("20260925", "ja", "excerpt")]
    assert [(p.lang, p.old_release, p.new_release) for p in release_pairs(rows)] == [
        ("en", "20250404", "20250606"), ("ja", "20231117", "20260116"),
        ("ja", "20260116", "20260807"), ("ja", "20260116", "20260925")]


def test_word_similarity_is_symmetric_and_one_for_equal_texts():
    a, b = "Tap the permanent.", "Untap the permanent."
    assert word_similarity(a, a) == 1.0
    assert word_similarity(a, b) == word_similarity(b, a) < 1.0


def brute_force_best(matrix):
    """The best total over every one-to-one choice (pairs scoring 0 or less count as unpaired)."""
    rows, cols = len(matrix), len(matrix[0])
    if rows <= cols:
        choices = ([(i, j) for i, j in enumerate(perm)] for perm in itertools.permutations(range(cols), rows))
    else:
        choices = ([(i, j) for j, i in enumerate(perm)] for perm in itertools.permutations(range(rows), cols))
    return max(sum(max(matrix[i][j], 0) for i, j in pairs) for pairs in choices)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(0, 10_000))
def test_optimal_assignment_matches_brute_force(rows, cols, seed):
    rng = random.Random(seed)
    matrix = [[round(rng.random(), 3) if rng.random() < 0.7 else 0.0 for _ in range(cols)] for _ in range(rows)]
    pairs = optimal_assignment(matrix)
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    assert sum(matrix[i][j] for i, j in pairs) == pytest.approx(brute_force_best(matrix))


def test_assign_pairs_is_one_to_one_on_large_blocks():
    rng = random.Random(7)
    edges = {(i, j): rng.random() for i in range(60) for j in range(60) if rng.random() < 0.5}
    chosen = assign_pairs(edges)
    assert len({o for o, _ in chosen}) == len(chosen) == len({n for _, n in chosen})


def test_lineage_link_joining_two_numbers_of_one_release_is_left_out():
    from kb.lineage import Link, build_lineages

    nodes = [(("en", "1", "701.55"), 1), (("en", "1", "701.57"), 2), (("ja", "1", "701.55"), 1)]
    links = [Link(("en", "1", "701.55"), ("ja", "1", "701.55"), "translation"),
             # A quote read as the wrong rule would merge Discover and Face a Villainous Choice.
             Link(("en", "1", "701.57"), ("ja", "1", "701.55"), "translation")]
    result = build_lineages(nodes, links)
    assert result.lineage_of[("ja", "1", "701.55")] == result.lineage_of[("en", "1", "701.55")]
    assert result.lineage_of[("en", "1", "701.57")] != result.lineage_of[("en", "1", "701.55")]
    assert result.conflicts == ["en 1 701.57 → ja 1 701.55 would put two numbers of one release in one lineage"]


def test_headed_rule_that_became_a_rule_pairs_by_title():
    old = [rule("419.8", title="Prevention Effects"), rule("419.8a", "Some continuous effects are prevention effects.")]
    new = [rule("615", title="Prevention Effects"), RuleText("615.1", "numbered", "615", None,
                                                             "Some continuous effects are prevention effects.")]
    assert statuses(old, new) == [("419.8", "615", "moved"), ("419.8a", "615.1", "moved")]
