"""Load card data (``cards/`` of the corpus) into ``card_names``, ``cards``, ``card_faces`` and ``card_rulings``.

``card_names`` is the whole English→Japanese name list (a name the list marks
"undefined" has ``name_ja`` NULL and ``ja_undefined`` 1). ``cards`` holds one
row per card we have data for: every Oracle record's card and every Forge
script's card; the wiki step adds the cards its pages show or mention and
their Japanese printed text. A card printed in several sets (or present in
two Oracle files) is one row; its rulings are merged, each (date, text) once.
A Forge card with an ``ALTERNATE`` face (an adventure) is one card with two
``card_faces``; an Oracle double-faced card is two cards naming each other
in ``other_face``.

>>> row = card_row("Shock", "ショック")
>>> row["name_en"], row["name_ja"], row["sources"]
('Shock', 'ショック', '[]')
"""

from __future__ import annotations

import json
from collections import defaultdict

from ingest.cards import CardName, CardRuling, ForgeFace, OracleCard, parse_cards
from ingest.records import IngestProblem, SourceError

from ..build import BuildContext
from ..schema import create_tables

CARD_TABLES: dict[str, dict] = {
    "card_names": dict(
        columns={"name_en": str, "name_ja": str, "ja_undefined": int, "source": str, "line": int},
        pk="name_en",
    ),
    "cards": dict(
        columns={
            "id": int, "name_en": str, "name_ja": str, "name_ja_source": str, "mana_cost": str,
            "mana_value": int, "type_line": str, "text": str, "power": str, "toughness": str,
            "loyalty": str, "other_face": str, "layout": str, "set_ids": str,
            "type_line_ja": str, "text_ja": str, "pt_ja": str, "cost_printed_ja": str, "ja_text_source": str,
            "sources": str, "search_ja": str,
        },
        pk="id",
    ),
    "card_faces": dict(
        columns={
            "id": int, "card_id": int, "face": int, "name_en": str, "name_ja": str, "mana_cost": str,
            "mana_value": int, "type_line": str, "text": str, "power": str, "toughness": str,
            "source": str, "line": int,
        },
        pk="id",
        foreign_keys=[("card_id", "cards", "id")],
    ),
    "card_rulings": dict(
        columns={"id": int, "card_id": int, "card": str, "date": str, "text": str, "sources": str, "line": int},
        pk="id",
        foreign_keys=[("card_id", "cards", "id")],
    ),
}

# What full-text search over cards indexes: English name, type and Oracle text,
# plus the segmented Japanese name and printed text.
CARDS_SEARCH_TEXT = (
    "coalesce(name_en, '') || ' ' || coalesce(type_line, '') || ' ' || coalesce(text, '')"
    " || ' ' || coalesce(search_ja, '')"
)


def card_row(name_en: str | None, name_ja: str | None, **values) -> dict:
    """A ``cards`` row with every column present (sqlite-utils inserts what it is given)."""
    row = {column: None for column in CARD_TABLES["cards"]["columns"] if column != "id"}
    row.update(name_en=name_en, name_ja=name_ja, sources="[]")
    row.update(values)
    return row


def create_card_tables(db) -> None:
    create_tables(db, CARD_TABLES, {"cards": {"search_text": CARDS_SEARCH_TEXT}})


def load_cards(ctx: BuildContext) -> None:
    """The build step: parse ``cards/`` and fill the card tables (FTS comes with the wiki step)."""
    db = ctx.db
    create_card_tables(db)
    names: list[dict] = []
    oracle: dict[str, list[OracleCard]] = defaultdict(list)
    forge: dict[str, list[ForgeFace]] = defaultdict(list)
    rulings: dict[str, dict[tuple[str, str], dict]] = defaultdict(dict)
    if not (ctx.corpus / "cards").is_dir():
        ctx.problems.append(IngestProblem("cards", None, "warning", "no-card-data",
                                          "the corpus has no cards/ folder; card tables are empty"))
        return
    with ctx.task("Card data", None) as advance:
        try:
            for record in parse_cards(ctx.corpus):
                if isinstance(record, CardName):
                    names.append({"name_en": record.name_en, "name_ja": record.name_ja,
                                  "ja_undefined": int(record.undefined), "source": record.source,
                                  "line": record.line})
                elif isinstance(record, OracleCard):
                    oracle[record.name].append(record)
                elif isinstance(record, ForgeFace):
                    forge[record.card].append(record)
                elif isinstance(record, CardRuling):
                    key = (record.date, record.text)
                    found = rulings[record.name].setdefault(key, {"sources": [], "line": record.line})
                    found["sources"].append(record.source)
                elif isinstance(record, IngestProblem):
                    ctx.problems.append(record)
                advance(1)
        except SourceError as e:
            ctx.source_failed(e)
    seen: set[str] = set()
    unique_names = []
    for row in names:  # a name listed twice: the first entry wins, the second is a problem
        if row["name_en"] in seen:
            ctx.problems.append(IngestProblem(row["source"], row["line"], "warning", "card-name-twice",
                                              f"{row['name_en']!r} is listed twice; the first entry is kept"))
            continue
        seen.add(row["name_en"])
        unique_names.append(row)
    db["card_names"].insert_all(unique_names, batch_size=5000)
    ja_by_en = {row["name_en"]: row["name_ja"] for row in unique_names}

    def japanese(name: str) -> tuple[str | None, str | None]:
        ja = ja_by_en.get(name)
        return (ja, "jpname") if ja else (None, None)

    for name, records in oracle.items():
        first = records[0]
        ja, ja_source = japanese(name)
        sources = sorted({r.source for r in records})
        for other in records[1:]:
            if (other.text, other.mana_cost, other.type_line) != (first.text, first.mana_cost, first.type_line):
                ctx.problems.append(IngestProblem(
                    other.source, other.line, "warning", "oracle-differs",
                    f"{name}: Oracle text, cost or type differs from {first.source}:{first.line}; the first is kept"))
        db["cards"].insert(card_row(
            name, ja, name_ja_source=ja_source, mana_cost=first.mana_cost, mana_value=first.mana_value,
            type_line=first.type_line, text=first.text, power=first.power, toughness=first.toughness,
            loyalty=first.loyalty, other_face=first.other_part,
            layout="double-faced" if first.other_part else "normal",
            set_ids=json.dumps(sorted({r.set_id for r in records if r.set_id})),
            sources=json.dumps(sources, ensure_ascii=False),
        ))
    for card, faces in forge.items():
        main = faces[0]
        ja, ja_source = japanese(card)
        existing = db.execute("select id, sources from cards where name_en = ?", [card]).fetchone()
        if existing:
            card_id = existing[0]
            sources = sorted(set(json.loads(existing[1])) | {main.source})
            db["cards"].update(card_id, {"sources": json.dumps(sources, ensure_ascii=False)})
        else:
            card_id = db["cards"].insert(card_row(
                card, ja, name_ja_source=ja_source, mana_cost=main.mana_cost, mana_value=main.mana_value,
                type_line=main.type_line, text=main.text, power=main.power, toughness=main.toughness,
                other_face=faces[1].name if len(faces) > 1 else None,
                layout=(main.alternate_mode or "normal").lower(), sources=json.dumps([main.source]),
            )).last_pk
        if len(faces) > 1:
            db["card_faces"].insert_all({
                "card_id": card_id, "face": f.face, "name_en": f.name, "name_ja": japanese(f.name)[0],
                "mana_cost": f.mana_cost, "mana_value": f.mana_value, "type_line": f.type_line, "text": f.text,
                "power": f.power, "toughness": f.toughness, "source": f.source, "line": f.line,
            } for f in faces)
    ids = {name: card_id for card_id, name in db.execute("select id, name_en from cards")}
    rows = []
    for name, found in rulings.items():
        for (date, text), info in sorted(found.items()):
            rows.append({"card_id": ids.get(name), "card": name, "date": date, "text": text,
                         "sources": json.dumps(sorted(set(info["sources"])), ensure_ascii=False), "line": info["line"]})
    db["card_rulings"].insert_all(rows, batch_size=1000)
    db["card_names"].create_index(["name_ja"], if_not_exists=True)
    db["cards"].create_index(["name_en"], unique=True, if_not_exists=True)
    db["cards"].create_index(["name_ja"], if_not_exists=True)
    db["card_rulings"].create_index(["card_id"], if_not_exists=True)
