"""``kb rulings``: the wiki and card rulings linked to a rule, with how each was linked."""

from __future__ import annotations

import textwrap

import click

from ..database import RuleNotFound, UnknownRelease
from ..options import db_option, echo_json, json_option, open_database, release_option


@click.command("rulings")
@click.argument("number")
@release_option
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True)
@click.option("--limit", type=click.IntRange(1, 5000), default=200, show_default=True)
@db_option
@json_option
def rulings_command(number, release, lang, limit, db, as_json):
    """The rulings that apply a rule (and its subrules): wiki rulings and dated card rulings.

    NUMBER is a rule number (701.57, 701.57a) or a keyword title (Discover), read in
    --release (default: the newest). Rulings written for an older number of the rule
    are found through its lineage.

    Example:

        kb rulings 701.57a --json
    """
    from .. import rules as rules_lib
    from ..ruling_links.read import rulings_of_rules

    database = open_database(db)
    try:
        views = rules_lib.find_rule(database, number, release=release, lang=lang)
    except (RuleNotFound, UnknownRelease) as e:
        raise click.ClickException(str(e)) from None
    found_release = views[0].release
    numbers = [v.number for v in views]
    data = rulings_of_rules(database.conn, lang, found_release, numbers, limit=limit)
    data = {"number": views[0].number, "release": found_release, "lang": lang, **data}
    if as_json:
        echo_json(data)
        return
    click.echo(f"{data['total']} rulings linked to {views[0].number} ({found_release} {lang})")
    for r in data["rulings"]:
        where = f"{r['page_title']} (wiki)" if r["kind"] == "wiki" else f"{r['card']} {r['date']}"
        links = "; ".join(
            f"{link['number']} {link['how']} {link['score']:.2f}"
            + (f", written for {link['written']['number']} ({link['written']['release']} {link['written']['lang']})"
               if link["written"] and link["written"]["number"] != link["number"] else "")
            for link in r["links"])
        click.echo(f"\n{where} [{links}]  {r['source']}:{r['line']}")
        click.echo(textwrap.fill(r["text"], width=100, initial_indent="  ", subsequent_indent="  "))
    if data["total"] > len(data["rulings"]):
        click.echo(f"\n… {data['total'] - len(data['rulings'])} more (--limit)")
