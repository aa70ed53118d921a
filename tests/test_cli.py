"""The kb command line on the built database: output shapes and exact error messages."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.cli import cli


@pytest.fixture(scope="module")
def run(built_db):
    def invoke(*args):
        return CliRunner().invoke(cli, [*args, "--db", str(built_db)])

    return invoke


def test_rule_json_has_subrules_and_examples(run):
    result = run("rule", "701.23", "--release", "20260116", "--json")
    assert result.exit_code == 0, result.output
    items = json.loads(result.output)
    assert [i["number"] for i in items][:3] == ["701.23", "701.23a", "701.23b"]
    assert len(items) == 11  # 701.23 and its subrules a–j
    assert all({"number", "release", "text"} <= set(i) and i["release"] == "20260116" for i in items)
    by_number = {i["number"]: i for i in items}
    assert by_number["701.23c"]["examples"][0].startswith("Lobotomy says")


def test_rule_by_keyword_title_follows_renumbering(run):
    old = json.loads(run("rule", "Search", "--release", "20090711", "--json").output)
    new = json.loads(run("rule", "Search", "--release", "20260116", "--json").output)
    assert (old[0]["number"], new[0]["number"]) == ("701.14", "701.23")


def test_rule_text_output(run):
    result = run("rule", "701.57a", "--release", "20260116")
    assert result.exit_code == 0
    assert result.output.startswith("701.57a “Discover N” means")


def test_unknown_rule_and_release_are_one_sentence_errors(run):
    result = run("rule", "701.999")
    assert result.exit_code == 1
    newest = max(r["release"] for r in json.loads(run("releases", "--json").output)
                 if r["lang"] == "en" and r["completeness"] == "whole")
    assert f"Error: no rule 701.999 in release {newest} (en)" in result.output
    result = run("rule", "701.23", "--release", "20260101")
    assert result.exit_code == 1
    assert "Error: no release '20260101' in en; releases are YYYYMMDD dates" in result.output
    result = run("rule", "701.23", "--release", "2026-01-16")
    assert result.exit_code == 2
    assert "'2026-01-16' is not a release id; use the effective date as YYYYMMDD" in result.output


def test_search_json_shape_and_ranking(run):
    result = run("search", "discover", "--section", "701", "--lang", "en", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"query", "mode", "groups", "notes", "dropped", "corrections", "others"} <= set(data)
    groups = data["groups"]
    assert groups and all(g["number"].startswith("701") for g in groups if g["number"])
    assert groups[0]["number"] == "701.57" and groups[0]["en"]["title"] == "Discover"
    assert "[" in groups[0]["snippet"]


def test_search_groups_show_both_languages(run):
    data = json.loads(run("search", "what does hexproof stop", "--lexical", "--json").output)
    first = data["groups"][0]
    assert first["number"] == "702.11"
    assert first["en"]["title"] == "Hexproof" and first["ja"]["title"] == "呪禁"
    assert first["en"]["subrules"][0]["number"] == "702.11a"  # the defining subrule first
    assert data["dropped"] == ["what", "does"]


def test_search_release_and_limit(run):
    data = json.loads(run("search", "search", "--release", "20090711", "--lang", "en", "--limit", "3", "--json").output)
    groups = data["groups"]
    assert len(groups) == 3 and {g["en"]["release"] for g in groups} == {"20090711"}
    assert any(g["number"].startswith("701.14") for g in groups)


def test_search_input_is_never_fts_syntax(run):
    for query in ['"unbalanced', "AND OR NOT", "library*", "col:umn", "NEAR(a b)"]:
        result = run("search", query, "--json", "--lexical")
        assert result.exit_code == 0, (query, result.output)
        json.loads(result.output)


def test_search_sql_flag_prints_the_shared_sql(run):
    result = run("search", "discover", "--sql")
    assert "search_current_fts match :query" in result.output
    # The OR of the word and its Japanese name, as the default search runs it.
    assert json.loads(result.output[result.output.index("{"):])["query"] == '"discover" OR "発見"'


def test_search_flat_kinds_keep_the_strict_search(run):
    hits = json.loads(run("search", "Bramble Familiar", "--kind", "card", "--json").output)
    assert hits and hits[0]["kind"] == "card"


def test_search_says_what_it_dropped_instead_of_no_hits(run):
    result = run("search", "what is the")
    assert result.exit_code == 1
    assert "no word to search for: what, is, the" in result.output


def test_missing_database_says_how_to_build(tmp_path):
    result = CliRunner().invoke(cli, ["rule", "701.23", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 1
    assert f"Error: no database at {tmp_path / 'none.db'}; build it with `kb build --db" in result.output


def test_releases_and_problems(run, corpus):
    releases = json.loads(run("releases", "--json").output)
    en = [r for r in releases if r["lang"] == "en"]
    files = [p for p in (corpus / "cr" / "en").rglob("MagicCompRules*") if "raw" not in p.parts]
    assert len(en) == len(files) - 1 and en[0]["release"] == "19990423"   # one file is not a CR
    errors = json.loads(run("problems", "--severity", "error", "--json").output)
    assert any(p["source"] == "cr/en/archive/MagicCompRules_19990421.txt.gz" and p["line"] == 1 for p in errors)
