"""``kb search``: ask the rules a question, in English or Japanese.

Calls :func:`kb.search.engine.answer` and prints each answer as a numbered
rule with both languages beside each other (``--json``: the whole answer).
The embedding model is loaded only when a question needs it, so keyword and
number queries answer at once.
"""

from __future__ import annotations

import sys
import textwrap

import click

from ..database import UnknownRelease
from ..options import db_option, echo_json, json_option, open_database, release_option
from ..search import KINDS


@click.command("search")
@click.argument("query")
@click.option("--section", help="Only rules under this number (7, 701, 701.57).")
@release_option
@click.option("--lang", type=click.Choice(["en", "ja", "zh", "ko", "any"]), default="any", show_default=True,
              help="Language of the rules searched (zh and ko: flat hits of every word, kb.search.search).")
@click.option("--limit", type=click.IntRange(1, 100), default=10, show_default=True)
@click.option("--lexical", "lexical_only", is_flag=True, help="No dense retrieval (words only).")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(KINDS),
              help="List flat hits of these kinds instead (repeatable): rule, example, glossary, ruling, "
                   "card, 'card ruling'.")
@click.option("--sql", "show_sql", is_flag=True, help="Print the SQL and the MATCH expression instead of running it.")
@db_option
@json_option
def search_command(query, section, release, lang, limit, lexical_only, kinds, show_sql, db, as_json):
    """Ask the rules a question, best answers first, in English and Japanese.

    Questions are read for their content words ("what does hexproof stop" looks
    for hexproof and stop; 「呪禁は何を防ぐ？」 for 呪禁 and 防ぐ), rule numbers
    in any spelling go straight to the rule (rule 704.5a, ルール510.1c), typos
    are corrected against the rules' own words, and player slang (ETB,
    bounce, サーチ) finds the rules' terms. Cards the question names (English,
    Japanese or Chinese names, "Urborg, Tomb of Yawgmoth", [[Fog]]) are shown
    first, and the rules their text points to come up. Each answer is a
    numbered rule with its text in both languages.

    Example:

        kb search "what does hexproof stop" --json
    """
    from ..search.engine import SearchError, answer
    from ..search.lexical import CURRENT_OR_SQL
    from ..search.query import read_query

    lang_param = None if lang == "any" else lang
    database = open_database(db)
    conn = database.conn
    if show_sql:
        from ..search.engine import aliases_from_db
        from ..search.fts import KeywordNames
        from ..search.lexical import match_expression

        plan = read_query(query, names=KeywordNames.from_db(conn), aliases=aliases_from_db(conn))
        click.echo(CURRENT_OR_SQL)
        echo_json({"query": match_expression(plan), "lang": lang_param, "section": section,
                   "number": plan.number, "dropped": plan.dropped})
        return
    if kinds or lang_param in ("zh", "ko"):
        _flat(database, query, release, lang_param, section, limit, kinds or ("rule", "example", "glossary"),
              as_json)
        return
    try:
        result = answer(conn, query, lang=lang_param, release=release, section=section, limit=limit,
                        dense=False if lexical_only else None)
    except UnknownRelease as e:
        raise click.ClickException(str(e)) from None
    except SearchError as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        echo_json(result.as_dict())
        return
    for note in result.notes:
        click.echo(note, err=True)
    width = 100
    for card in result.cards:
        names = " / ".join(n for n in (card["name"], card["name_ja"], card["name_zh"]) if n)
        typed = f"   (for “{card['typed']}”)" if card["how"] in ("typo", "partial") else ""
        click.secho(f"card  {names}  {card['mana_cost'] or ''}".rstrip() + typed, bold=True)
        click.echo("      " + _cut(f"{card['type_line'] or ''}" + (f" {card['pt']}" if card["pt"] else ""), width - 6))
        for line in (card["text"] or "").splitlines():
            click.echo("      " + _cut(line, width - 6))
    if not result.groups and not result.cards:
        sys.exit(1)
    for group in result.groups:
        titles = " / ".join(dict.fromkeys(t for t in [
            group.en.title if group.en else None, group.ja.title if group.ja else None] if t))
        click.secho(f"{group.number or '-'}  {titles}".rstrip() + f"   [{'+'.join(group.via)}]", bold=True)
        for text in (group.translation, group.en, group.ja):
            if text is None:
                continue
            body = text.subrules[0]["number"] + " " + text.subrules[0]["text"] if text.subrules else text.text
            body = body or text.title or ""
            click.echo(_cut(f"{text.lang} {text.release}  {body}", width))
        if not group.en and not group.ja:
            click.echo(_cut(group.snippet, width))
    click.echo(f"({result.mode}, {result.seconds * 1000:.0f} ms)", err=True)


def _cut(text: str, width: int) -> str:
    """One line of at most ``width`` characters (Japanese has no spaces to cut at)."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def _flat(database, query, release, lang, section, limit, kinds, as_json):
    from ..search import search

    try:
        hits = search(database, query, release=release, lang=lang, section=section, limit=limit, kinds=kinds)
    except UnknownRelease as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        echo_json([hit.as_dict() for hit in hits])
        return
    if not hits:
        click.echo(f"No {', '.join(kinds)} has every word of {query!r}.", err=True)
        sys.exit(1)
    for hit in hits:
        label = hit.number or "-"
        what = {"rule": "", "example": " (example)"}.get(hit.kind, f" ({hit.kind}: {hit.title})")
        click.secho(f"{label}{what}  [{hit.release} {hit.lang}]", bold=True)
        snippet = hit.as_dict()["snippet"].replace("\n", " ")
        click.echo(textwrap.fill(snippet, 100, initial_indent="  ", subsequent_indent="  "))

