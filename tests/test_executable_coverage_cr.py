"""The action modules against the newest CR in the database: one module per keyword action, by title.

Held now (hard asserts): every module's KEYWORD is a title of the newest English
CR, its JAPANESE[0] is the title of the same rule in the newest whole Japanese CR
(paired by lineage, not by number), the letters it declares are letters of the
rule, its OUT_OF_REACH keys that name examples name real ones, and the coverage
report counts what the database holds.

Waiting for the issue-12 action modules (strict xfail, see ``WAITING``): every
keyword action of the newest CR has a module (or is in
``executable_rules.coverage.UNMODELLED``), every module's subrules partition its
rule's lettered subrules, and every ``Example:`` of 701 and 702 is a passing
scenario or out of reach. When the modules are merged these pass, strict xfail
turns that into a failure, and the lead deletes the marks (set ``WAITING`` empty).
"""

from __future__ import annotations

import pytest

from executable_rules.actions import ACTIONS, module_name
from executable_rules.actions import scry as scry_module
from executable_rules.coverage import UNMODELLED, example_reasons, partition
from kb.coverage import coverage, japanese_titles, modules_from_code, newest_whole

WAITING: dict[str, str] = {}
"""Parts that wait for the other issue-12 branches; empty it after merging them (the tests then must pass)."""

PARTITION_PENDING: set[str] = set()
"""Modules whose SUBRULES and OUT_OF_REACH don't yet cover every letter of their rule (the coverage page
shows the rest as missing); a module leaves this set when someone writes its scenarios or reasons."""


def waiting(part: str):
    """A strict xfail while ``part`` waits for the other branches; nothing once WAITING no longer names it."""
    if part in WAITING:
        return pytest.mark.xfail(strict=True, reason=f"waits: {WAITING[part]}; remove the mark after merging")
    return lambda test: test


@pytest.fixture(scope="module")
def newest(kb_db):
    release = newest_whole(kb_db, "en")
    rules = {n: (t, p) for n, t, p in kb_db.execute(
        "select number, title, parent from rules where release = ? and lang = 'en' and kind in ('rule', 'numbered')",
        [release])}
    letters: dict[str, list[str]] = {}
    for number, parent in kb_db.execute(
            "select number, parent from rules where release = ? and lang = 'en' and kind = 'subrule'"
            " and (parent like '701.%' or parent like '702.%') order by position", [release]):
        letters.setdefault(parent, []).append(number[len(parent):])
    titled = {t: n for n, (t, p) in rules.items() if t and p in ("701", "702")}
    return {"release": release, "rules": rules, "letters": letters, "keywords": titled}


@pytest.fixture(scope="module")
def report_from_code(kb_db):
    return coverage(kb_db, modules_from_code())


def keyword_modules():
    return [m for m in ACTIONS if m.KIND in ("keyword action", "keyword ability")]


@pytest.mark.parametrize("module", ACTIONS, ids=module_name)
def test_every_module_keyword_is_a_title_of_the_newest_cr(module, newest):
    titles = {t: (n, p) for n, (t, p) in newest["rules"].items() if t}
    assert module.KEYWORD in titles, (
        f"{module_name(module)}.py: KEYWORD {module.KEYWORD!r} is no title of the {newest['release']} CR")
    number, parent = titles[module.KEYWORD]
    expected = {"keyword action": "701", "keyword ability": "702"}.get(module.KIND)
    if expected:
        assert parent == expected, f"{module.KEYWORD} is {number}, not a {module.KIND} ({expected})"
    else:
        assert module.KIND == "rule" and "." not in number, f"{module.KEYWORD}: KIND {module.KIND!r} for {number}"


@pytest.mark.parametrize("module", ACTIONS, ids=module_name)
def test_every_module_japanese_name_is_the_japanese_cr_title(module, kb_db, newest):
    release_ja = newest_whole(kb_db, "ja", not_after=newest["release"])
    assert release_ja, "the database has no whole Japanese CR"
    if module.KIND == "rule":
        found = kb_db.execute(
            "select ja.title from rule_lineage le join rule_lineage lj on lj.lineage_id = le.lineage_id"
            " and lj.lang = 'ja' and lj.release = ? join rules ja on ja.release = lj.release and ja.lang = 'ja'"
            " and ja.number = lj.number join rules en on en.release = le.release and en.lang = 'en'"
            " and en.number = le.number where le.lang = 'en' and le.release = ? and en.title = ?",
            [release_ja, newest["release"], module.KEYWORD]).fetchone()
        title_ja = found[0] if found else None
    else:
        title_ja = japanese_titles(kb_db, newest["release"], release_ja).get(newest["keywords"][module.KEYWORD])
    if title_ja is None:
        pytest.skip(f"{module.KEYWORD} is not in the Japanese CR {release_ja} (newer than it)")
    assert module.JAPANESE and module.JAPANESE[0] == title_ja, (
        f"{module_name(module)}.py: JAPANESE[0] is {module.JAPANESE[:1]}, the Japanese CR {release_ja} "
        f"titles {module.KEYWORD} {title_ja!r}")


def test_japanese_titles_are_paired_by_lineage_not_number(kb_db, newest):
    """Numbers moved between 20260116 and the newest release: a title read by bare number would be wrong."""
    release_ja = newest_whole(kb_db, "ja", not_after=newest["release"])
    titles = japanese_titles(kb_db, newest["release"], release_ja)
    assert titles[newest["keywords"]["Scry"]] == "占術を行う"
    assert titles[newest["keywords"]["Discover"]] == "発見を行う"
    assert titles[newest["keywords"]["Dredge"]] == "発掘"
    moved = [(n, t) for n, t in titles.items()
             if kb_db.execute("select title from rules where release = ? and lang = 'ja' and number = ?",
                              [release_ja, n]).fetchone() not in [(t,)]]
    for title in ("Heal", "Recruit"):       # added after the Japanese CR: no Japanese title
        if title in newest["keywords"]:
            assert newest["keywords"][title] not in titles
    assert len(titles) >= 250, f"only {len(titles)} keywords have a Japanese title"
    # Where the numbers differ, the lineage pairing is what the Japanese CR's English titles say.
    for number, title in moved:
        en = newest["rules"][number][0]
        row = kb_db.execute("select title_en from rules where release = ? and lang = 'ja' and title = ?",
                            [release_ja, title]).fetchone()
        assert row and row[0] == en, f"{number} {en}: paired with {title}"


@pytest.mark.parametrize("module", keyword_modules(), ids=module_name)
def test_declared_letters_are_letters_of_the_rule(module, newest):
    number = newest["keywords"][module.KEYWORD]
    split = partition(module, newest["letters"].get(number, []))
    assert not split.unknown, f"{module.KEYWORD} ({number}) has no subrule(s) {split.unknown} in {newest['release']}"
    assert not split.twice, f"{module.KEYWORD}: {split.twice} both implemented and out of reach"


@pytest.mark.parametrize("module", keyword_modules(), ids=module_name)
def test_out_of_reach_examples_are_examples_of_the_rule(module, kb_db, newest):
    number = newest["keywords"][module.KEYWORD]
    examples = {(n[len(number):], s) for n, s in kb_db.execute(
        "select rule_number, seq from examples where release = ? and lang = 'en' and rule_number like ?",
        [newest["release"], number + "%"]) if n.rstrip("abcdefghijklmnopqrstuvwxyz") == number}
    for (letter, seq), reason in example_reasons(module).items():
        assert reason.strip(), f"{module.KEYWORD}: an empty reason"
        named = {(lt, s) for lt, s in examples if lt == letter and (seq is None or s == seq)}
        assert named, f"{module.KEYWORD}: OUT_OF_REACH names example {seq} of {number}{letter}; the CR has none"


def _partition_params():
    return [pytest.param(m, id=module_name(m), marks=pytest.mark.xfail(
                strict=True, reason="its subrules aren't all implemented or out of reach yet"))
            if module_name(m) in PARTITION_PENDING else pytest.param(m, id=module_name(m))
            for m in keyword_modules()]


@pytest.mark.parametrize("module", _partition_params())
def test_every_module_partitions_its_rules_subrules(module, newest):
    """Every lettered subrule of the rule in the newest CR is in SUBRULES or OUT_OF_REACH, exactly once."""
    number = newest["keywords"][module.KEYWORD]
    split = partition(module, newest["letters"].get(number, []))
    assert split.partitions, (
        f"{module_name(module)}.py ({module.KEYWORD} — CR {number}): subrules "
        f"{[number + x for x in split.missing]} are neither in SUBRULES nor in OUT_OF_REACH")


@waiting("actions")
def test_every_keyword_action_of_the_newest_cr_has_a_module(newest):
    declared = {m.KEYWORD for m in ACTIONS}
    actions = [(n, t) for t, n in newest["keywords"].items() if newest["rules"][n][1] == "701"]
    missing = sorted((n for n, t in actions if t not in declared and t not in UNMODELLED),
                     key=lambda n: int(n.split(".")[1]))
    assert not missing, (f"{len(missing)} of the {len(actions)} keyword actions of the {newest['release']} CR have "
                         f"no module (nor an UNMODELLED reason): "
                         + ", ".join(f"{newest['rules'][n][0]} ({n})" for n in missing))


def test_unmodelled_actions_are_actions_without_a_module(newest):
    declared = {m.KEYWORD for m in ACTIONS}
    for title, reason in UNMODELLED.items():
        assert title in newest["keywords"], f"UNMODELLED: {title!r} is no keyword of the {newest['release']} CR"
        assert title not in declared, f"UNMODELLED: {title} has a module"
        assert reason.strip()


@waiting("examples")
def test_every_example_of_701_and_702_is_a_passing_scenario_or_out_of_reach(report_from_code):
    left = [f"{e.number} example {e.seq} ({k.title}{'' if k.module else ', no module'}): {e.status}"
            for k in report_from_code.keywords for e in k.examples if e.status not in ("covered", "out of reach")]
    assert not left, f"{len(left)} examples neither pass nor are out of reach:\n" + "\n".join(left)


# ------------------------------------------------------------------ the report counts what the database holds


def test_coverage_lists_every_keyword_of_the_newest_cr(kb_db, newest, report_from_code):
    report = report_from_code
    assert report.release == newest["release"]
    titles = [k.title for k in report.keywords]
    assert titles == sorted(newest["keywords"], key=lambda t: [int(x) for x in newest["keywords"][t].split(".")])
    actions = report.of_kind("keyword action")
    assert actions[0].number == "701.2" and actions[0].title == "Activate"
    assert report.totals["actions"]["all"] == kb_db.execute(
        "select count(*) from rules where release = ? and lang = 'en' and parent = '701' and kind = 'numbered'"
        " and title is not null", [newest["release"]]).fetchone()[0]
    assert report.totals["actions"]["with_module"] == sum(
        1 for m in ACTIONS if m.KIND == "keyword action" and m.KEYWORD in newest["keywords"])
    assert report.totals["abilities"]["with_module"] == sum(1 for m in ACTIONS if m.KIND == "keyword ability")
    numbers = [r[0] for r in kb_db.execute(
        "select rule_number from examples where release = ? and lang = 'en' and rule_number like '701.%'",
        [newest["release"]])]
    under_actions = [n for n in numbers if n.rstrip("abcdefghijklmnopqrstuvwxyz") != "701.1"]
    assert report.totals["actions"]["examples"] == len(under_actions) >= 11


def test_a_module_is_linked_by_title_with_its_subrules_and_reasons(report_from_code, newest):
    scry = report_from_code.find("Scry")
    assert scry.module == "scry" and scry.number == newest["keywords"]["Scry"] and scry.title_ja == "占術を行う"
    status = {s.letter: (s.status, s.reason) for s in scry.subrules}
    assert status["a"][0] == status["b"][0] == "implemented"
    assert status["c"] == ("out of reach", ACTIONS[[module_name(m) for m in ACTIONS].index("scry")].OUT_OF_REACH["c"])
    assert all(s.scenarios for s in scry.subrules if s.status == "implemented")
    search = report_from_code.find("Search")
    covered = {(e.number, e.seq): e for e in search.examples}
    assert covered[(newest["keywords"]["Search"] + "b", 1)].status == "covered"
    assert covered[(newest["keywords"]["Search"] + "b", 1)].scenarios[0]["passed"]
    # A keyword the newest release added is listed without anyone naming it (Heal in 20260925).
    newest_titles = set(newest["keywords"])
    assert {k.title for k in report_from_code.keywords} == newest_titles


def test_an_action_without_a_module_shows_every_subrule_missing(report_from_code):
    without = [k for k in report_from_code.of_kind("keyword action") if not k.module]
    if not without:
        pytest.skip("every keyword action has a module")
    k = without[0]
    assert k.subrules and all(s.status == "missing" and not s.scenarios for s in k.subrules)
    assert all(e.status == "missing" for e in k.examples)


def test_the_checks_table_keeps_out_of_reach(kb_db):
    """The served database says why a subrule is out of reach (``kb serve`` has no code to ask)."""
    import json
    row = kb_db.execute("select out_of_reach from checks where keyword = 'Scry'").fetchone()
    from executable_rules.actions.scry import OUT_OF_REACH
    assert row and json.loads(row[0]) == OUT_OF_REACH
    built = coverage(kb_db)
    assert built.source == "database" and built.find("Scry").subrules[2].status == "out of reach"


# ------------------------------------------------------------------ kb check by any Japanese name


@pytest.fixture(scope="module")
def every_scenario():
    from executable_rules.scenarios import load_scenarios
    return load_scenarios()


@pytest.mark.parametrize("module", ACTIONS, ids=module_name)
def test_kb_check_finds_a_modules_scenarios_by_every_japanese_name(module, kb_db, corpus, newest, every_scenario):
    import click

    from kb.cli.check import find_scenarios

    own = [s.id for s in every_scenario if s.module is module]
    if not own:
        pytest.skip(f"{module.KEYWORD} has no scenario yet")
    names = list(module.JAPANESE)
    if module.KEYWORD in newest["keywords"]:
        release_ja = newest_whole(kb_db, "ja", not_after=newest["release"])
        title_ja = japanese_titles(kb_db, newest["release"], release_ja).get(newest["keywords"][module.KEYWORD])
        if title_ja:
            names += [title_ja, title_ja.removesuffix("を行う").removesuffix("する")]
    for name in dict.fromkeys(n for n in names if n):
        try:
            selected, _ = find_scenarios(name, corpus, kb_db)
        except click.ClickException as e:
            pytest.fail(f"kb check {name}: {e.message}")
        assert [s.id for s in selected] == own, f"kb check {name} runs other scenarios than {module.KEYWORD}'s"


def test_kb_check_by_the_japanese_cr_title_when_the_module_lists_no_such_name(kb_db, corpus, monkeypatch):
    """The database's Japanese CR names the keyword even when JAPANESE doesn't: 占術を行う for Scry."""
    from executable_rules.actions import scry
    from kb.cli.check import find_scenarios

    monkeypatch.setattr(scry, "JAPANESE", ("x",))
    selected, note = find_scenarios("占術を行う", corpus, kb_db)
    assert selected and all(s.keyword == "Scry" for s in selected)
    assert note.startswith("占術を行う is Scry — CR 701.")


def test_kb_check_names_a_keyword_without_a_module(kb_db, corpus):
    import click

    from kb.cli.check import find_scenarios

    if any(m.KEYWORD == "Flying" for m in ACTIONS):
        selected, _ = find_scenarios("飛行", corpus, kb_db)
        assert selected and all(s.keyword == "Flying" for s in selected)
        return
    with pytest.raises(click.ClickException) as e:
        find_scenarios("飛行", corpus, kb_db)
    assert e.value.message.startswith("飛行 is Flying (Flying — CR 702.9 in the ")
    assert "no module of executable_rules runs it yet" in e.value.message


# ------------------------------------------------------------------ kb coverage and the README


def readme_section(text: str) -> str:
    """The README from the coverage heading to the next ``## `` heading, without the blank line before it."""
    from kb.cli.coverage import section_bounds

    lines = text.splitlines(keepends=True)
    start, end = section_bounds(lines)
    return "".join(lines[start:end]).rstrip("\n") + "\n"


def test_the_readme_coverage_section_is_what_kb_coverage_prints(built_db):
    """Regenerate it with `kb coverage --markdown --readme README.md` after adding a module (and a build)."""
    from pathlib import Path

    from click.testing import CliRunner

    from kb.cli import cli

    result = CliRunner().invoke(cli, ["coverage", "--markdown", "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert readme_section(readme) == result.output, (
        "README.md's coverage section is stale: run `kb coverage --markdown --readme README.md`")


def test_kb_coverage_rewrites_the_readme_section_in_place(built_db, tmp_path):
    from click.testing import CliRunner

    from kb.cli import cli
    from kb.cli.coverage import SECTION

    readme = tmp_path / "README.md"
    readme.write_text(f"# X\n\nintro\n\n## {SECTION}\n\nold figures\n\n## Next\n\nkept\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["coverage", "--markdown", "--readme", str(readme), "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    printed = CliRunner().invoke(cli, ["coverage", "--markdown", "--db", str(built_db)]).output
    assert readme.read_text(encoding="utf-8") == f"# X\n\nintro\n\n{printed}\n## Next\n\nkept\n"
    readme.write_text("# no such section\n", encoding="utf-8")
    missing = CliRunner().invoke(cli, ["coverage", "--markdown", "--readme", str(readme), "--db", str(built_db)])
    assert missing.exit_code == 1 and f'no line "## {SECTION}"' in missing.output


def test_kb_coverage_json_and_one_keyword(built_db):
    import json

    from click.testing import CliRunner

    from kb.cli import cli

    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["coverage", "--json", "--db", str(built_db)]).output)
    assert data["totals"]["actions"]["all"] == len([k for k in data["keywords"] if k["kind"] == "keyword action"])
    scry = next(k for k in data["keywords"] if k["title"] == "Scry")
    assert scry["module"] == "scry" and scry["implemented"] == len(scry_module.SUBRULES) == 3 and scry["out_of_reach"] == 1
    only = json.loads(runner.invoke(cli, ["coverage", "--json", "--kind", "ability", "--db", str(built_db)]).output)
    assert only["keywords"] and {k["kind"] for k in only["keywords"]} == {"keyword ability"}
    one = runner.invoke(cli, ["coverage", "占術", "--db", str(built_db)])
    assert one.exit_code == 0 and one.output.startswith("Scry — CR 701.")
    assert "out of reach: several players scrying at once" in one.output
    flying = runner.invoke(cli, ["coverage", "飛行", "--db", str(built_db)])
    assert flying.exit_code == 0 and flying.output.startswith("Flying — CR 702.9 (keyword ability) · 飛行")
    unknown = runner.invoke(cli, ["coverage", "xyzzy", "--db", str(built_db)])
    assert unknown.exit_code == 1 and "no keyword action or ability 'xyzzy'" in unknown.output
    table = runner.invoke(cli, ["coverage", "--db", str(built_db)])
    assert table.exit_code == 0 and "Keyword actions:" in table.output and "Venture into the Dungeon" in table.output


def test_live_coverage_of_the_code_is_what_the_build_stored(kb_db, corpus):
    """`kb coverage --live` (modules from the code, scenarios given) agrees with the built database: examples
    linked by their scenarios' sources as the build links them through scenario_examples."""
    import json

    from kb.coverage import scenarios_run_now

    given = [{"id": i, "keyword": k, "rules": json.loads(r), "passed": bool(p), "title": t, "source_kind": sk,
              "example": (rule, seq) if sk == "cr-example" else None}
             for i, k, r, p, t, sk, rule, seq in kb_db.execute(
                 "select id, keyword, rules, passed, title, source_kind, source_rule, source_seq from scenarios"
                 " order by file, line")]
    live = coverage(kb_db, modules_from_code(), given).as_dict()
    built = coverage(kb_db).as_dict()
    assert live["source"] == "code" and built["source"] == "database"
    assert live["totals"] == built["totals"] and live["keywords"] == built["keywords"]
    # The scenarios are run now: Scry's, as the build ran them.
    run = scenarios_run_now(corpus, "Scry")
    assert {s["id"]: s["passed"] for s in run} == {s["id"]: s["passed"] for s in given if s["keyword"] == "Scry"}


def test_one_keywords_coverage_is_its_row_of_the_whole_report(kb_db):
    """A keyword page reads only its own rule; what it shows is the whole report's row."""
    from kb.coverage import keyword_coverage

    report = coverage(kb_db)
    chosen = [k for k in report.keywords if k.module] + [k for k in report.keywords if k.examples][:5] \
        + report.keywords[:3] + report.keywords[-3:]
    for k in chosen:
        assert keyword_coverage(kb_db, k.title) == k.as_dict(), k.title
    assert keyword_coverage(kb_db, "Not A Keyword") is None
