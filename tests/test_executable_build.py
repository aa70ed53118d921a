"""The build step of the executable rules (``kb.load.checks``) and the ``kb check`` command."""

from __future__ import annotations

import json

from executable_rules.actions import ACTIONS

import pytest
import sqlite_utils
from click.testing import CliRunner

from executable_rules.actions import ACTIONS
from executable_rules.scenarios import load_scenarios
from ingest.cr import parse_cr
from ingest.records import Release
from kb.build import BuildContext
from kb.cli.check import check
from kb.load.checks import load_checks
from kb.load.cr import insert_records
from kb.schema import create_cr_tables
from executable_rules.rules_index import newest_rules

NEWEST = newest_rules().release   # the corpus grows: read the newest release, never assume it

RELEASES = ["20231117", "20240920", "20260417"]   # Discover 701.55 → 701.55 → 701.57; Manifest Dread from 2024


def small_db(corpus, path):
    db = sqlite_utils.Database(path)
    create_cr_tables(db)
    ctx = BuildContext(db=db, corpus=corpus)
    for release in RELEASES:
        records = list(parse_cr(corpus / "cr" / "en" / f"MagicCompRules_{release}.txt"))
        insert_records(ctx, records)
        r = next(x for x in records if isinstance(x, Release))
        db["releases"].insert({"release": r.release, "lang": "en", "effective_date": r.effective_date,
                               "source": r.source, "completeness": "whole"})
    return db, ctx


@pytest.fixture(scope="module")
def checks_db(corpus, tmp_path_factory):
    db, ctx = small_db(corpus, tmp_path_factory.mktemp("checks") / "kb.db")
    db["rulings"].create({"id": int, "page_title": str, "text": str}, pk="id")
    db["rulings"].insert_all([
        {"id": 1, "page_title": "発見", "text": "マナ・コストの無いカードは発見で唱えられる（マナ総量は未定義値のルールにより0として扱う）。"},
        {"id": 2, "page_title": "発見", "text": "something else"},
    ])
    load_checks(ctx)
    load_checks(ctx)          # a second run replaces the tables
    return db, ctx


def test_checks_one_per_action(checks_db):
    db, _ = checks_db
    rows = {r["keyword"]: r for r in db["checks"].rows}
    assert set(rows) == {m.KEYWORD for m in ACTIONS}         # one row per module, as modules are added
    assert rows["Discover"]["newest_number"] == "701.57"
    assert rows["Dredge"]["kind"] == "keyword ability" and rows["Dredge"]["newest_number"] == "702.52"
    assert rows["Drawing a Card"]["newest_number"] == "121"
    assert json.loads(rows["Discover"]["subrules"]) == ["a", "b", "c"]
    assert rows["Search"]["scenarios"] == rows["Search"]["passed"] > 40


def test_check_rules_follow_the_title_through_renumbering(checks_db):
    db, _ = checks_db
    numbers = {(r["release"], r["number"]) for r in db["check_rules"].rows_where("keyword = 'Discover'")}
    assert ("20231117", "701.55") in numbers and ("20231117", "701.55a") in numbers
    assert ("20260417", "701.57c") in numbers
    assert not any(n.startswith("701.57") for rel, n in numbers if rel == "20231117")
    dread = {r["release"] for r in db["check_rules"].rows_where("keyword = 'Manifest Dread'")}
    assert dread == {"20240920", "20260417"}


def test_scenarios_stored_with_their_results(checks_db):
    db, _ = checks_db
    assert db["scenarios"].count == len(load_scenarios())
    row = db["scenarios"].get("discover-701.57a-split-card-total")
    assert row["passed"] == 1 and row["source_kind"] == "wiki-ruling" and row["source_page"] == "発見"
    assert any("mana value 4 is greater than 3" in line for line in json.loads(row["trace"]))
    assert db.execute("select count(*) from scenarios where passed = 0").fetchone()[0] == 0


def test_scenario_rules_in_every_release(checks_db):
    db, _ = checks_db
    rows = {(r["release"], r["number"], r["how"]) for r in
            db["scenario_rules"].rows_where("scenario_id = 'discover-701.57a-split-card-total'")}
    assert {("20231117", "701.55a", "subrule"), ("20260417", "701.57a", "subrule"),
            ("20231117", "709.4b", "also"), ("20260417", "709.4b", "also")} <= rows
    searched = {(r["release"], r["number"]) for r in
                db["scenario_rules"].rows_where("scenario_id = 'search-701.23b-splinter-howling-mine'")}
    assert {("20231117", "701.19b"), ("20260417", "701.23b")} <= searched


def test_examples_cards_and_rulings_are_linked(checks_db):
    db, _ = checks_db
    examples = {r["scenario_id"]: r for r in db["scenario_examples"].rows_where("release = '20260417'")}
    assert {"search-701.23b-splinter-howling-mine", "search-701.23c-lobotomy-empty-hand",
            "search-701.23f-mindcensor-veteran-explorer", "lifelink-702.15e-example-ajanis-pridemate",
            "convoke-702.51b-heartless-summoning-siege-wurm", "exchange-701.12a-one-target-destroyed",
            "shuffle-701.24c-guile-exiled-in-response", "shuffle-701.24d-loaming-shaman-no-cards"} <= set(examples)
    by_id = {s.id: s for s in load_scenarios()}
    # Every link is the example the scenario's source names (rule and seq).
    assert all((r["rule_number"], r["seq"]) == (by_id[sid].source["rule"], by_id[sid].source["seq"])
               for sid, r in examples.items())
    cards = {r["card"] for r in db["scenario_cards"].rows_where("scenario_id = 'discover-701.57a-bramble-familiar-discover-3'")}
    assert cards == {"Bramble Familiar"}          # named in Japanese in the scenario
    assert [r["ruling_id"] for r in db["scenario_rulings"].rows] == [1]
    assert "scenario_card_rulings" not in db.table_names()   # no card_rulings table here: skipped quietly


def test_an_unresolvable_rule_is_a_problem_not_a_crash(corpus, tmp_path, monkeypatch):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "discover.toml").write_text('''
[[scenario]]
id = "discover-701.57z-x"
rule = "701.57z"
title = "t"
source = { kind = "own" }

[[scenario.action]]
do = "discover"
n = 1
''', encoding="utf-8")
    import executable_rules.scenarios as scenarios_module
    monkeypatch.setattr(scenarios_module, "SCENARIO_DIR", folder)
    db, ctx = small_db(corpus, tmp_path / "kb.db")
    load_checks(ctx)
    messages = [str(p) for p in ctx.problems if p.code == "unresolved-rule"]
    assert messages == ["scenario_dir:4: error: scenario 'discover-701.57z-x': Discover — CR 701.57z is not a rule "
                        "under 'Discover' in the 20260417 CR".replace("scenario_dir", str(folder / "discover.toml"))]
    assert db["scenarios"].count == 1


# ---------------------------------------------------------------- kb check


def run_check(*args):
    return CliRunner().invoke(check, [*args, "--db", "/nonexistent/kb.db"], catch_exceptions=False)


def test_check_a_rule():
    result = run_check("701.57c")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("PASS discover-701.57c-")
    assert result.output.rstrip().endswith(f"2 scenarios (rules as numbered in the {NEWEST} CR): 2 passed, 0 failed")


def test_check_a_keyword_in_japanese_as_json():
    result = run_check("発掘", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0
    assert data["scenarios"] == data["passed"] >= 13 and data["failed"] == 0
    assert all(r["keyword"] == "Dredge" and r["trace"] for r in data["results"])
    assert data["results"][0]["citations"][0].startswith("Dredge — CR 702.52")


def test_check_unknown_target():
    result = run_check("701.5x")
    assert result.exit_code == 1
    assert result.output == ("Error: nothing matches '701.5x': give a rule number (701.57a), a keyword "
                             "(Discover, 発見) or a scenario id; `kb check` alone runs them all\n")
    result = run_check("701.18d")      # Play's note on Oracle errata: nothing to run
    assert result.output == (f"Error: no scenario for 701.18d (Play — CR 701.18 in the {NEWEST} CR); "
                             "try its keyword, e.g. `kb check discover`\n")


def test_check_fails_with_a_failing_scenario(tmp_path):
    (tmp_path / "mill.toml").write_text('''
[[scenario]]
id = "mill-701.17a-wrong"
rule = "701.17a"
title = "a wrong expectation"
source = { kind = "own" }

[scenario.setup]
you.library = ["Shock"]

[[scenario.action]]
do = "mill"

[scenario.expect]
you.graveyard = ["Forest"]
''', encoding="utf-8")
    result = run_check("--scenarios", str(tmp_path), "--failures-only")
    assert result.exit_code == 1
    assert "FAIL mill-701.17a-wrong" in result.output
    assert "✗ you.graveyard: expected ['Forest'], got ['Shock']" in result.output
    assert result.output.rstrip().endswith(f"1 scenario (rules as numbered in the {NEWEST} CR): 0 passed, 1 failed")
