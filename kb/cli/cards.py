"""``kb card NAME`` (one card, by any of its names) and ``kb cards`` (cards by keyword, set or type).

``kb cards --unparsed`` reports instead how much of every card's Oracle text the engine's grammar
reads, and what it can't: every card of the corpus (``cards/``: the Oracle set files, the curated
subsets, Forge scripts and ``data/cards.toml``) through ``executable_rules.card_pool``, each line
parsed with ``executable_rules.oracle``. Distinct lines are parsed once, in a few processes, and
remembered under ``~/.cache/mtg-rules-kb/oracle-lines`` for this grammar: the first run over all
24,000 cards takes minutes, later ones a few seconds.
"""

from __future__ import annotations

import json
import textwrap

import click

from .. import cards as cards_lib
from ..options import corpus_option, db_option, echo_json, json_option, open_database, resolve_corpus


def _print_card(data: dict, asked: str, exact: bool) -> None:
    card = data["card"]
    if not exact:
        click.echo(f"(no card is named {asked!r}; did you mean {card['name_en']}? It is shown.)", err=True)
    names = " / ".join(n for n in (data["names"]["en"], data["names"]["ja"], data["names"]["zh"]) if n)
    click.echo(names)
    faces = data["faces"] or [{"name_en": card["name_en"], "mana_cost": card["mana_cost"], "type_line": card["type_line"],
                               "text": card["text"], "power": card["power"], "toughness": card["toughness"],
                               "loyalty": card["loyalty"], "kind": "main"}]
    for face in faces:
        head = " ".join(x for x in (face["name_en"] if len(faces) > 1 else "", face["mana_cost"] or "") if x)
        if head:
            click.echo(f"  {head}" + (f"  ({face['kind']})" if len(faces) > 1 else ""))
        pt = f"  {face['power']}/{face['toughness']}" if face.get("power") is not None else ""
        loyalty = f"  loyalty {face['loyalty']}" if face.get("loyalty") else ""
        click.echo(f"  {face['type_line'] or ''}{pt}{loyalty}")
        for line in (face["text"] or "").split("\n"):
            click.echo(textwrap.fill(line, 100, initial_indent="    ", subsequent_indent="    "))
    value = card["mana_value"]
    click.echo(f"  mana value {value if value is not None else '—'}; colours {card['colors'] or 'colourless'}; "
               f"{card['layout']}; {card['printings']} printings ({', '.join(card['set_ids'][:10])}"
               f"{', …' if len(card['set_ids']) > 10 else ''})")
    if card["legalities"]:
        click.echo("  " + ", ".join(f"{fmt} {status.lower()}" for fmt, status in card["legalities"].items()))
    if data["keywords"]:
        click.echo("Keywords: " + "; ".join(
            f"{k['keyword']} ({k['number'] or 'no longer a rule'}"
            + (f"; numbered {', '.join(k['numbers'])} over time" if len(k["numbers"]) > 1 else "")
            + ")" for k in data["keywords"]))
    if data["rulings"]:
        click.echo(f"Rulings ({len(data['rulings'])}):")
        for r in data["rulings"]:
            rules = f"  [rules {', '.join(x['number'] for x in r['rules'])}]" if r["rules"] else ""
            click.echo(textwrap.fill(f"{r['date']}  {r['text']}{rules}", 100, initial_indent="  ",
                                     subsequent_indent="              "))
    if data["scenarios"]:
        click.echo("Scenarios: " + ", ".join(s["id"] for s in data["scenarios"]))
    click.echo(f"(Oracle text from {card['text_source']})")


@click.command("card")
@click.argument("name")
@db_option
@json_option
def card_command(name, db, as_json):
    """Print a card by its English, Japanese or Chinese name (or a face's).

    A close misspelling finds the card and says so; a name nothing is close to
    is an error listing the nearest names.

    Example:

        kb card "Lightning Bolt"
    """
    database = open_database(db)
    conn = database.conn
    try:
        match = cards_lib.find_card(conn, name)
    except cards_lib.CardNotFound as e:
        raise click.ClickException(str(e)) from None
    data = cards_lib.read_card(conn, match.card_id)
    if as_json:
        echo_json({**data, "asked": name, "matched": match.matched, "exact": match.exact})
        return
    _print_card(data, name, match.exact)


@click.command("cards")
@click.option("--keyword", help="Only cards whose Oracle text uses this keyword (a 701/702 rule title).")
@click.option("--set", "set_id", help="Only cards printed in this set (its code, e.g. XLN).")
@click.option("--type", "type_word", help="Only cards with this card type, supertype or subtype (Creature, Legendary, Elf).")
@click.option("--limit", type=click.IntRange(1, 10000), default=None,
              help="How many cards to list [50], or with --unparsed how many unread templates [30].")
@click.option("--unparsed", is_flag=True,
              help="Report the Oracle lines the engine's grammar can't read, over every card of the corpus "
                   "(with --db, over the cards table of that database).")
@click.option("--sample", type=click.IntRange(1, 1_000_000), default=None,
              help="With --unparsed: only the first N cards by name (a quick estimate).")
@click.option("--workers", type=click.IntRange(1, 16), default=None,
              help="With --unparsed: parsing processes [default: cores, at most 4].")
@corpus_option
@db_option
@json_option
def cards_command(keyword, set_id, type_word, limit, unparsed, sample, workers, corpus, db, as_json):
    """List cards, with how many match: by keyword, set or type; or, with --unparsed, how much of
    their Oracle text the engine reads.

    Example:

        kb cards --keyword Explore --limit 5
    """
    if unparsed:
        if set_id or type_word:
            raise click.UsageError("--unparsed takes --keyword, --sample and --limit, not --set or --type")
        _unparsed(keyword, limit or 30, sample, workers, as_json, corpus, db)
        return
    if corpus or sample or workers:
        raise click.UsageError("--corpus, --sample and --workers go with --unparsed (the listing reads the database)")
    database = open_database(db)
    where, params = [], []
    if keyword:
        where.append("id in (select card_id from card_keywords where keyword = ? collate nocase"
                     " or found_as = ? collate nocase)")
        params += [keyword, keyword]
    if set_id:
        where.append("id in (select card_id from card_printings where set_id = ? collate nocase)")
        params.append(set_id)
    if type_word:
        where.append("exists (select 1 from json_each(cards.types) where value = ? collate nocase"
                     " union all select 1 from json_each(cards.supertypes) where value = ? collate nocase"
                     " union all select 1 from json_each(cards.subtypes) where value = ? collate nocase)")
        params += [type_word] * 3
    sql_where = (" where " + " and ".join(where)) if where else ""
    total = database.execute(f"select count(*) from cards{sql_where}", params).fetchone()[0]
    rows = database.execute(
        f"select name_en, name_ja, name_zh, mana_cost, type_line, printings from cards{sql_where}"
        f" order by printings desc, name_en limit ?", params + [limit or 50]).fetchall()
    found = [dict(zip(("name_en", "name_ja", "name_zh", "mana_cost", "type_line", "printings"), r)) for r in rows]
    if as_json:
        echo_json({"total": total, "cards": found})
        return
    for c in found:
        names = " / ".join(n for n in (c["name_en"], c["name_ja"], c["name_zh"]) if n)
        click.echo(f"{names}  {c['mana_cost'] or ''}  {c['type_line'] or ''}")
    click.echo(f"{total} cards" + (f" (first {len(found)} shown, most printed first)" if total > len(found) else ""))


def _unparsed(keyword, limit, sample, workers, as_json, corpus, db) -> None:
    """``kb cards --unparsed``: the grammar's coverage of the corpus's cards (or of ``db``'s cards table)."""
    from executable_rules.card_pool import load_card_pool
    from executable_rules.oracle.coverage import measure
    from executable_rules.oracle.keywords import canonical_keyword

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
