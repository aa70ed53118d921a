"""``kb cards --unparsed``: how much of every card's Oracle text the engine's grammar reads, and what it can't.

Reads every card of the corpus (``cards/``: the Oracle set files, the curated subsets, Forge scripts and
``data/cards.toml``) through ``executable_rules.card_pool`` and parses each line with
``executable_rules.oracle``. Distinct lines are parsed once, in a few processes, and remembered under
``~/.cache/mtg-rules-kb/oracle-lines`` for this grammar: the first run over all 24,000 cards takes minutes,
later ones a few seconds.
"""

from __future__ import annotations

import json

import click

from ..options import corpus_option, db_option, open_database, resolve_corpus


@click.command("cards")
@click.option("--unparsed", is_flag=True, help="Report the lines the Oracle grammar can't read (the only report yet).")
@click.option("--keyword", "keyword", default=None, help="Only cards with this keyword ability (702 title), e.g. Dredge.")
@click.option("--limit", type=click.IntRange(1, 10_000), default=30, show_default=True,
              help="How many unread templates to list.")
@click.option("--sample", type=click.IntRange(1, 1_000_000), default=None,
              help="Only the first N cards by name (a quick estimate).")
@click.option("--workers", type=click.IntRange(1, 16), default=None, help="Parsing processes [default: cores, at most 4].")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@corpus_option
@db_option
def cards_command(unparsed, keyword, limit, sample, workers, as_json, corpus, db):
    """Oracle-text coverage of the engine's grammar over every card of the corpus (with --db, over the cards
    table of that database instead).

    Example:

        kb cards --unparsed --sample 40 --limit 5
    """
    from executable_rules.card_pool import load_card_pool
    from executable_rules.oracle.coverage import measure
    from executable_rules.oracle.keywords import canonical_keyword

    if not unparsed:
        raise click.UsageError("say what to report: --unparsed")
    if db is not None:
        database = open_database(db)
        if "cards" not in database.table_names():
            raise click.ClickException(f"{db} has no cards table; build it with `kb build`")
        texts = sorted((row[0], row[1] or "") for row in database.execute("select name_en, text from cards"))
    else:
        pool = load_card_pool(resolve_corpus(corpus))
        texts = sorted((face.name, face.text) for card in pool.cards.values() for face in card.faces)
    if keyword:
        title = canonical_keyword(keyword)
        if title is None:
            raise click.ClickException(f"{keyword!r} is not a keyword ability of CR 702")
        texts = [(n, t) for n, t in texts if title.casefold() in t.casefold()]
    if sample:
        texts = texts[:sample]
    report = measure(texts, workers=workers)
    if as_json:
        click.echo(json.dumps(report.as_json(limit), ensure_ascii=False, indent=2))
        return
    click.echo(f"{report.cards} card faces: {report.complete} read completely ({100 * report.complete_share:.1f} %); "
               f"{report.read} of {report.lines} lines read; keyword lines {report.keyword_lines_read} of "
               f"{report.keyword_lines}; {len(report.crashed)} crashed")
    kinds = ", ".join(f"{k} {n}" for k, n in report.kinds.most_common())
    click.echo(f"read lines by kind: {kinds}")
    partly = [(k, v) for k, v in report.keywords.items() if v[0] and v[1] < v[0]]
    if partly:
        click.echo("keyword lines not all read: " + ", ".join(f"{k} {v[1]}/{v[0]}" for k, v in sorted(partly)))
    click.echo(f"\nunread templates ({len(report.unread)} in all), most frequent first:")
    for template, n, card, text in report.unread[:limit]:
        click.echo(f"  {n:>5}  {template}")
        click.echo(f"         e.g. {card}: {text[:110]}")
    for card, line, error in report.crashed[:limit]:
        click.echo(f"  CRASH {card}: {line[:80]} ({error})")
