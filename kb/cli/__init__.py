"""The ``kb`` command line: each command parses options, calls one library function and prints.

Named library errors (``RuleNotFound``, ``UnknownRelease``, ``DatabaseNotFound``,
``BuildFailed``, ``CorpusNotFound``) become one-sentence errors and exit code 1.
"""

from __future__ import annotations

import textwrap

import click

from .. import rules as rules_lib
from ..build import BuildFailed
from ..database import DatabaseNotFound, RuleNotFound, UnknownRelease, db_path
from ..options import db_option, echo_json, json_option, open_database, release_option

_USER_ERRORS = (DatabaseNotFound, RuleNotFound, UnknownRelease, BuildFailed)


@click.group()
@click.version_option(package_name="mtg-rules-kb")
def cli():
    """Magic: The Gathering Comprehensive Rules knowledge base (English and Japanese).

    Build the database once, then read, search and serve it:

        kb build && kb rule 701.57a && kb search "discover" && kb serve
    """


@cli.command()
@click.argument("number")
@release_option
@click.option("--lang", type=click.Choice(["en", "ja", "zh", "ko"]), default="en", show_default=True)
@db_option
@json_option
def rule(number, release, lang, db, as_json):
    """Print a rule with its subrules and examples.

    NUMBER is a rule number (701, 701.57, 701.57a) or a keyword title (Discover).

    Example:

        kb rule 701.57a --json
    """
    database = open_database(db)
    try:
        found = rules_lib.find_rule(database, number, release=release, lang=lang)
    except (RuleNotFound, UnknownRelease) as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        echo_json([item.as_dict() for item in found])
        return
    for item in found:
        # A Japanese, Chinese or Korean character takes two columns of a terminal.
        width = 50 if item.lang in ("ja", "zh", "ko") else 100
        indent = "  " if item.kind == "subrule" and found[0].kind != "subrule" else ""
        head = f"{item.number}. {item.title}" if item.title else f"{item.number} {item.text}"
        click.secho(textwrap.fill(head, width, initial_indent=indent, subsequent_indent=indent + "  "),
                    bold=item.kind != "subrule")
        if item.title and item.text:
            click.echo(textwrap.fill(item.text, width, initial_indent=indent + "  ", subsequent_indent=indent + "  "))
        for example in item.examples:
            label = {"ja": "例：", "zh": "例如："}.get(item.lang, "Example: ")
            click.echo(textwrap.fill(label + example, width, initial_indent=indent + "    ",
                                     subsequent_indent=indent + "    "))
    click.echo(f"\n(release {found[0].release}, {found[0].lang})", err=True)


@cli.command()
@db_option
@json_option
def releases(db, as_json):
    """List the releases in the database with their counts.

    Example:

        kb releases --json
    """
    rows = [dict(r) for r in open_database(db).query(
        "select release, lang, effective_date, completeness, sections, rules, numbered_rules, subrules, "
        "examples, glossary_entries, warnings, errors from releases order by release, lang")]
    if as_json:
        echo_json(rows)
        return
    for r in rows:
        click.echo(
            f"{r['release']} {r['lang']} {r['completeness']:<8} rules {r['rules'] or 0:>4} "
            f"numbered {r['numbered_rules'] or 0:>5} subrules {r['subrules'] or 0:>5} "
            f"examples {r['examples'] or 0:>4} glossary {r['glossary_entries'] or 0:>4} "
            f"warnings {r['warnings'] or 0}"
        )


@cli.command()
@click.option("--severity", type=click.Choice(["warning", "error"]))
@release_option
@db_option
@json_option
def problems(severity, release, db, as_json):
    """List ingest problems (typos repaired, releases that could not be parsed).

    Example:

        kb problems --severity error
    """
    rows = [dict(r) for r in open_database(db).query(
        "select source, line, severity, code, message, release, lang from ingest_problems"
        " where (:severity is null or severity = :severity) and (:release is null or release = :release)"
        " order by source, line", {"severity": severity, "release": release})]
    if as_json:
        echo_json(rows)
        return
    for r in rows:
        where = f"{r['source']}:{r['line']}" if r["line"] else r["source"]
        click.echo(f"{where}: {r['severity']}: {r['message']}")


@cli.command()
@click.option("--port", "-p", type=click.IntRange(0, 65535), default=8001, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--public", is_flag=True,
              help="For a server on the internet: no arbitrary SQL, no download of the database "
                   "file, no CSV streams of whole tables, a 1 s limit on each query.")
@db_option
def serve(port, host, public, db):
    """Serve the database with Datasette (read-only) and the kb plugin.

    The database file is all it needs; for a server on the internet add
    --public (and --host 0.0.0.0). Example:

        kb serve --port 8001
    """
    from ..serve import serve_database

    path = db_path(db)
    if not path.exists():
        raise click.ClickException(f"no database at {path}; build it first with `kb build`")
    from ..search.dense import start_background_fill

    start_background_fill(path)  # search answers lexically until the rules are embedded
    serve_database(path, host=host, port=port, public=public)


def main() -> None:  # pragma: no cover - console entry point
    cli()


# Commands defined in their own modules, registered here (one line each).
def _register_commands() -> None:
    from .build import add, build, cache
    from .cards import card_command, cards_command
    from .check import check
    from .coverage import coverage_command
    from .history import diff_command, stale_command, trace_command
    from .rulings import rulings_command
    from .search import search_command
    from .vectors import vectors

    cli.add_command(build)
    cli.add_command(add)
    cli.add_command(cache)
    cli.add_command(card_command)
    cli.add_command(check)
    cli.add_command(coverage_command)
    cli.add_command(cards_command)
    cli.add_command(search_command)
    cli.add_command(vectors)
    cli.add_command(diff_command)
    cli.add_command(trace_command)
    cli.add_command(stale_command)
    cli.add_command(rulings_command)


_register_commands()

