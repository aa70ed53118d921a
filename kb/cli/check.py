"""``kb check``: run the executable rules' scenarios and report each with PASS/FAIL and its trace.

Scenarios come straight from ``data/scenarios/`` (no database needed): a
rule number is looked up by the title its scenarios cite in the newest CR of
the corpus. A keyword is found by any of its module's names; with a database,
also by its title in the Japanese, Chinese or Korean CR (``kb check 占術``,
``kb check 飛行``), whatever its module's ``JAPANESE`` lists. With a database (``--db``, ``KB_DB`` or ``kb.db``), a number of an
older release works too: ``701.55a`` finds Discover's scenarios through
``scenario_rules``, which links every scenario to its rules in every release.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ..options import corpus_option, db_option, json_option, resolve_corpus


_LOADED: dict[tuple, list] = {}


def _scenarios(directory: Path, pool: Any, load: Any) -> list:
    """The scenarios of ``directory`` read once per process while its files are unchanged (reading 118
    TOML files costs a second; a caller asking by many names must not pay it each time)."""
    files = tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(directory.glob("*.toml")))
    key = (str(directory.resolve()), files, id(pool))
    if key not in _LOADED:
        _LOADED.clear()
        _LOADED[key] = load(directory, pool)
    return list(_LOADED[key])


def find_scenarios(target: str | None, corpus: Path, db: Any = None, scenarios_dir: Path | None = None) -> tuple[list, str]:
    """The scenarios ``target`` selects and a note on how it was read; ``click.ClickException`` if none."""
    from executable_rules.card_pool import shared_card_pool
    from executable_rules.rules_index import newest_rules
    from executable_rules.scenarios import SCENARIO_DIR, load_scenarios, select_scenarios
    from ingest.records import SourceError

    try:
        pool = shared_card_pool(corpus)
        scenarios = _scenarios(scenarios_dir or SCENARIO_DIR, pool, load_scenarios)
    except SourceError as e:
        raise click.ClickException(str(e)) from None
    selected = select_scenarios(scenarios, target)
    rules = newest_rules(corpus)
    note = f"rules as numbered in the {rules.release} CR"
    if selected or not target:
        return selected, note
    if db is not None:
        # A keyword's name in Japanese (the CR's title or its short form, 占術を行う / 占術), Chinese or
        # Korean, from the database: every module answers to it, not only the names its JAPANESE lists.
        from executable_rules.actions import UnknownAction, find_action

        from ..coverage import keyword_for_name

        named = keyword_for_name(db, target)
        if named:
            title, number = named
            try:
                module = find_action(title)
            except UnknownAction:
                raise click.ClickException(
                    f"{target} is {title} ({title} — CR {number} in the {rules.release} CR); no module of "
                    "executable_rules runs it yet (`kb coverage` shows what is covered)") from None
            selected = [s for s in scenarios if s.module is module]
            if selected:
                return selected, f"{target} is {title} — CR {number}; {note}"
            raise click.ClickException(f"{target} is {title} ({title} — CR {number}); its module has no scenario yet")
    if db is not None and "scenario_rules" in db.table_names():
        ids = {r[0] for r in db.execute("select scenario_id from scenario_rules where number = ?", [target])}
        releases = sorted({r[0] for r in db.execute("select release from scenario_rules where number = ?", [target])})
        selected = [s for s in scenarios if s.id in ids]
        if selected:
            return selected, f"{target} as numbered in releases {releases[0]}–{releases[-1]} (from the database)"
    if target in rules.rules:
        where = next((f"{t} — CR {n}" for n, t in rules.ancestors(target) if t), target)
        raise click.ClickException(f"no scenario for {target} ({where} in the {rules.release} CR); "
                                   "try its keyword, e.g. `kb check discover`")
    raise click.ClickException(
        f"nothing matches {target!r}: give a rule number (701.57a), a keyword (Discover, 発見) or a scenario id; "
        "`kb check` alone runs them all"
    )


@click.command("check")
@click.argument("target", required=False)
@corpus_option
@db_option
@json_option
@click.option("--failures-only", is_flag=True, help="Print the trace of failing scenarios only.")
@click.option("--scenarios", "scenarios_dir", type=click.Path(file_okay=False, exists=True), default=None,
              help="Scenario folder [default: data/scenarios].")
def check(target, corpus, db, as_json, failures_only, scenarios_dir):
    """Run the scenarios of a rule, a keyword or all, with PASS/FAIL and a trace.

    TARGET is a rule number (701.57a, or 701.57 for all its subrules), a
    keyword in English or Japanese (Discover, 発見, discover), or a scenario
    id. Without TARGET every scenario runs. Exits 1 if any scenario fails.

    Example:

        kb check 701.57a --json
    """
    from executable_rules.scenarios import line_key as _key
    from executable_rules.scenarios import run_scenario

    from ..database import db_path, open_db

    where = resolve_corpus(corpus)
    database = open_db(db) if db_path(db).exists() else None
    selected, note = find_scenarios(target, where, database, Path(scenarios_dir) if scenarios_dir else None)
    results = [run_scenario(s) for s in selected]
    failed = [r for r in results if not r.passed]
    if as_json:
        click.echo(json.dumps({
            "target": target, "numbering": note, "scenarios": len(results),
            "passed": len(results) - len(failed), "failed": len(failed),
            "passed_with_unread_lines": sum(bool(r.unread) for r in results if r.passed),
            "passed_with_declared_unread_lines": sum(bool(r.unread_declared) and not r.unread
                                                     for r in results if r.passed),
            "results": [{**r.as_json(), "citations": [f"{r.scenario.keyword} — CR {n}" for n in r.scenario.rules]}
                        for r in results],
        }, ensure_ascii=False, indent=2))
    else:
        for r in results:
            s = r.scenario
            rules = ", ".join(f"{s.keyword} — CR {n}" for n in s.rules)
            click.echo(f"{'PASS' if r.passed else 'FAIL'} {s.id}  ({rules}; {s.source_kind}; {s.path}:{s.line})")
            click.echo(f"     {s.title}")
            for failure in r.failures:
                click.echo(f"     ✗ {failure}")
            if r.passed and r.unread:
                click.echo(f"     ! passed with lines not read: {'; '.join(r.unread)}")
            if r.passed and r.unread_declared:
                why = r.scenario.unread_ok
                click.echo("     ~ lines not read, which the scenario declares it doesn't depend on: " + "; ".join(
                    f"{line} ({why.get(_key(line), '')})" for line in r.unread_declared))
            if not (failures_only and r.passed):
                for line in r.trace:
                    click.echo(f"       {line}")
        noun = "scenario" if len(results) == 1 else "scenarios"
        unread = sum(bool(r.unread) for r in results if r.passed)
        declared = sum(bool(r.unread_declared) and not r.unread for r in results if r.passed)
        click.echo(f"{len(results)} {noun} ({note}): {len(results) - len(failed)} passed, {len(failed)} failed"
                   + (f"; {unread} passed with a line of a permanent not read (marked !)" if unread else "")
                   + (f"; {declared} more with only lines they declare they don't depend on (marked ~)"
                      if declared else ""))
    if failed:
        raise SystemExit(1)
