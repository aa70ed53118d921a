"""``kb diff``, ``kb trace`` and ``kb stale``: rule history on the command line.

Each command parses its options, calls one library function
(:func:`kb.diff.diff_releases`, :func:`kb.lineage.trace_rule`,
:func:`kb.stale.find_stale_citations`) and prints the result as text or JSON.
"""

from __future__ import annotations

import re
import textwrap

import click

from ..database import RuleNotFound, UnknownRelease
from ..options import db_option, echo_json, json_option, open_database, release_option

_RELEASE = re.compile(r"\d{8}")
_NUMBER = re.compile(r"\d(?:\d\d(?:\.\d+[a-z]?)?)?")


def _release_argument(ctx, param, value):
    if not _RELEASE.fullmatch(value):
        raise click.BadParameter(f"{value!r} is not a release id; use the effective date as YYYYMMDD, e.g. 20250606")
    return value


def _section_option(ctx, param, value):
    if value is not None and not _NUMBER.fullmatch(value):
        raise click.BadParameter(f"{value!r} is not a section or rule number; use e.g. 7, 701 or 701.57")
    return value


def _wrap(text: str, indent: str = "    ") -> str:
    return "\n".join(
        textwrap.fill(paragraph, 100, initial_indent=indent, subsequent_indent=indent)
        for paragraph in text.split("\n")
    )


@click.command("diff")
@click.argument("old", callback=_release_argument)
@click.argument("new", callback=_release_argument)
@click.option("--section", callback=_section_option, help="Only rules under this number (7, 701, 701.57).")
@click.option("--lang", type=click.Choice(["en", "ja", "zh", "ko"]), default="en", show_default=True)
@db_option
@json_option
def diff_command(old, new, section, lang, db, as_json):
    """What changed between two releases: moved, changed, added and removed rules.

    Moves are listed apart from wording changes, runs of rules that shifted
    together as one block; a rule both moved and reworded shows its word diff
    ([-removed-]{+added+}).

    Example:

        kb diff 20250404 20250606 --section 701
    """
    from ..diff import diff_releases, format_word_diff

    database = open_database(db)
    try:
        result = diff_releases(database, old, new, lang=lang, section=section)
    except UnknownRelease as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        echo_json(result.as_dict())
        return
    counts = result.counts()
    where = f", section {section}" if section else ""
    click.secho(
        f"{old} → {new} ({lang}{where}): {counts['moved']} moved, {counts['changed']} changed, "
        f"{counts['added']} added, {counts['removed']} removed, {counts['unchanged']} unchanged"
        + (" (an excerpt: only rules in both are compared)" if result.excerpt else ""),
        bold=True,
    )
    titles = {c.new_number: c.new_title for c in result.moved}
    if result.move_blocks:
        click.secho("\nMoved (cite the new numbers):", bold=True)
        for block in result.move_blocks:
            names = [titles.get(n) for n in _block_numbers(result, block)]
            label = ", ".join(n for n in names if n)
            click.echo(f"  {block}" + (f"  {label}" if label else ""))
        followers = sum(c.with_parent for c in result.moved)
        if followers:
            click.echo(f"  and {followers} subrules that moved with their rules")
    reworded = [c for c in result.moved if c.status == "moved_changed"]
    if reworded:
        click.secho("\nMoved and reworded:", bold=True)
        for c in reworded:
            click.echo(f"  {c.old_number} → {c.new_number}")
            click.echo(_wrap(format_word_diff(c.word_diff or [], context=12)))
    if result.changed:
        click.secho("\nChanged:", bold=True)
        for c in result.changed:
            click.echo(f"  {c.new_number}")
            click.echo(_wrap(format_word_diff(c.word_diff or [], context=12)))
    for name, items in (("Added", result.added), ("Removed", result.removed)):
        if items:
            click.secho(f"\n{name}:", bold=True)
            for c in items:
                number = c.new_number or c.old_number
                text = (c.new_title or c.old_title) if c.kind != "subrule" else (c.new_text or c.old_text)
                click.echo("  " + textwrap.shorten(f"{number}  {text or ''}", 108, placeholder=" …"))


def _block_numbers(result, block) -> list[str]:
    moved = [c.new_number for c in result.moved if not c.with_parent]
    try:
        start, end = moved.index(block.new_first), moved.index(block.new_last)
    except ValueError:
        return [block.new_first]
    return moved[start:end + 1] if start <= end else [block.new_first]


@click.command("trace")
@click.argument("number")
@release_option
@click.option("--lang", type=click.Choice(["en", "ja", "zh", "ko"]), default="en", show_default=True)
@click.option("--all-langs", is_flag=True, help="Show every language of the rule's lineage.")
@db_option
@json_option
def trace_command(number, release, lang, all_langs, db, as_json):
    """A rule's history: its number and text in every release where it exists.

    NUMBER is a rule number of --release (default: the newest release), or a
    keyword title (Discover). Oldest first; each step says what changed
    (moved, changed, moved_changed, with a word diff); runs of releases where
    nothing changed are shown as one line.

    Example:

        kb trace 701.57a
    """
    from ..diff import format_word_diff
    from ..lineage import trace_rule
    from ..rules import resolve_title

    database = open_database(db)
    try:
        wanted = number.strip().rstrip(".")
        if not _NUMBER.fullmatch(wanted):
            from ..database import check_release, newest_release

            rel = check_release(database, release, lang) if release else newest_release(database, lang)
            resolved = resolve_title(database, wanted, rel, lang)
            if resolved is None:
                raise RuleNotFound(f"{number!r} is neither a rule number (like 701.57a) nor a keyword title in release {rel}")
            wanted = resolved
        trace = trace_rule(database, wanted, release=release, lang=lang, langs=None if all_langs else "same")
    except (RuleNotFound, UnknownRelease) as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        echo_json(trace.as_dict())
        return
    first = trace.first
    click.secho(
        f"{trace.number} ({trace.release} {trace.lang}): first in {first.release} as {first.number}; "
        f"{'now ' + trace.newest_number if trace.newest_number else 'not in the newest release'}",
        bold=True,
    )
    previous_lang = None
    for run in trace.runs():
        span = run["first_release"] if run["releases"] == 1 else f"{run['first_release']}–{run['last_release']}"
        excerpt = " (excerpt)" if run["completeness"] == "excerpt" else ""
        moved = f" from {run['previous_number']}" if run["status"].startswith("moved") else ""
        click.secho(f"\n{span} {run['lang']} {run['number']}  {run['status']}{excerpt}{moved}", bold=True)
        if run["word_diff"] is not None:
            click.echo(_wrap(format_word_diff(run["word_diff"], context=12)))
        elif run["status"] in ("first", "added") or run["lang"] != previous_lang:
            click.echo(_wrap("\n".join(filter(None, [run["title"], run["text"]]))))
        previous_lang = run["lang"]


@click.command("stale")
@click.option("--source-kind", type=click.Choice(["wiki_page", "wiki_quote", "ruling", "card_ruling", "cr", "code", "scenario"]),
              help="Only citations from this kind of source.")
@click.option("--no-code", is_flag=True, help="Leave out our own code (executable_rules/, data/scenarios/).")
@db_option
@json_option
def stale_command(source_kind, no_code, db, as_json):
    """Citations of rules by numbers that are stale, with the number to cite now.

    Reads wiki pages and their quoted CR blocks, rulings, card rulings (the
    tables the database has) and our own docstrings, comments and scenario
    files, each in the release it was written for; and the cross-references
    of the translated CRs (``cr``) whose printed title names another rule
    (``rule 725〔ゲームを再び開始する〕`` when that is 726).

    Example:

        kb stale --source-kind wiki_quote --json
    """
    from ..stale import find_stale_citations

    database = open_database(db)
    try:
        found = [f for f in find_stale_citations(database, include_code=not no_code)
                 if source_kind is None or f.source_kind == source_kind]
    except LookupError as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        echo_json([f.as_dict() for f in found])
        return
    if not found:
        click.echo("No stale citations.", err=True)
        return
    for f in found:
        click.echo(str(f))
    click.echo(f"\n{len(found)} stale citations.", err=True)
