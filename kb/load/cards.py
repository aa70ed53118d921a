"""Load card data (``cards/`` of the corpus): one ``cards`` row per Oracle identity, with its faces,
printings, sets, rulings, legalities, names and the versions its sources gave.

- ``card_names``: every English card name we know — the whole English→Japanese
  name list (a name the list marks "undefined" has ``name_ja`` NULL and
  ``ja_undefined`` 1) and every card and face name of the Oracle data — with
  its Japanese and Chinese name and its card.
- ``cards``: one row per card (:func:`ingest.card_identity.assemble_cards`):
  a split card is ``Fire // Ice``; a card of two faces goes by its front face
  and ``full_name`` names both; types, colours, colour identity, legalities,
  counts of printings and rulings, and ``text_source``, the file and line its
  Oracle text comes from. The wiki step adds the cards its pages name and
  their Japanese printed text.
- ``card_faces``: each face of a card of several (halves, adventure, back face).
- ``card_printings`` and ``card_sets``: every set record of a card; the sets.
- ``card_rulings``: one row per distinct (card, date, text), with the
  printings (sets) and files that carry it. Its ``id`` is stable — a digest
  of card, date and text — so links to a ruling survive new sets in the
  corpus; ``text_id`` is shared by the same ruling printed on several cards.
- ``card_versions``: where sources disagree, which version each source gave and
  which one was used (newer sources win: Forge over Oracle XML over set files).
- ``card_legalities`` (a view): (card, format, status).
- ``card_aliases``: every name a card is looked up by — English, Japanese and
  Chinese, card and face names, with a normalised ``key`` — for card pages and search.

>>> row = card_row("Shock", "ショック")
>>> row["name_en"], row["name_ja"], row["sources"]
('Shock', 'ショック', '[]')
>>> lookup_key("Ｌｉｍ－Ｄûl  the Necromancer"), lookup_key("Fire/Ice"), lookup_key("火 // 冰")
('lim-dul the necromancer', 'fire // ice', '火 // 冰')
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import unicodedata
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ingest.card_identity import Card, assemble_cards
from ingest.cards import CardName, ForgeFace, OracleCard, card_files, parse_card_file
from ingest.records import IngestProblem, SourceError

from ..build import BuildContext, insert_rows
from ..cache import (
    code_version,
    copy_row_file,
    file_digest,
    read_row_file,
    write_row_file,
)
from ..schema import create_tables
from ..sqlite import sqlite3

CARD_TABLES: dict[str, dict] = {
    "card_names": dict(
        columns={"name_en": str, "name_ja": str, "ja_undefined": int, "source": str, "line": int,
                 "name_zh": str, "card_id": int, "face": str},
        pk="name_en",
    ),
    "cards": dict(
        columns={
            "id": int, "name_en": str, "name_ja": str, "name_ja_source": str, "mana_cost": str,
            "mana_value": int, "type_line": str, "text": str, "power": str, "toughness": str,
            "loyalty": str, "other_face": str, "layout": str, "set_ids": str,
            "type_line_ja": str, "text_ja": str, "pt_ja": str, "cost_printed_ja": str, "ja_text_source": str,
            "sources": str, "search_ja": str,
            "full_name": str, "name_zh": str, "supertypes": str, "types": str, "subtypes": str,
            "colors": str, "color_identity": str, "color_indicator": str, "legalities": str,
            "printings": int, "rulings": int, "reserved": int, "hand_size": str, "starting_life": str,
            "faces_text": str, "text_source": str, "keywords": str,
        },
        pk="id",
    ),
    "card_faces": dict(
        columns={
            "id": int, "card_id": int, "face": int, "name_en": str, "name_ja": str, "mana_cost": str,
            "mana_value": int, "type_line": str, "text": str, "power": str, "toughness": str,
            "source": str, "line": int,
            "kind": str, "name_zh": str, "loyalty": str, "supertypes": str, "types": str, "subtypes": str,
            "colors": str, "color_indicator": str,
        },
        pk="id",
        foreign_keys=[("card_id", "cards", "id")],
    ),
    "card_printings": dict(
        columns={"id": int, "card_id": int, "card": str, "set_id": str, "set_name": str, "number": str,
                 "rarity": str, "artist": str, "multiverse_id": str, "name_zh": str, "flavor": str,
                 "flavor_zh": str, "watermark": str, "source": str, "line": int},
        pk="id",
        foreign_keys=[("card_id", "cards", "id")],
    ),
    "card_sets": dict(
        columns={"set_id": str, "name": str, "printings": int, "cards": int, "rulings": int, "source": str},
        pk="set_id",
    ),
    "card_rulings": dict(
        columns={"id": int, "card_id": int, "card": str, "date": str, "text": str, "sources": str, "line": int,
                 "source": str, "position": int, "set_ids": str, "printings": int, "text_id": int},
        pk="id",
        foreign_keys=[("card_id", "cards", "id")],
    ),
    "card_versions": dict(
        columns={"id": int, "card_id": int, "card": str, "kind": str, "source": str, "line": int,
                 "printings": int, "used": int, "differs": str},
        pk="id",
        foreign_keys=[("card_id", "cards", "id")],
    ),
    "card_aliases": dict(
        columns={"key": str, "alias": str, "lang": str, "card_id": int, "face": str, "kind": str},
        foreign_keys=[("card_id", "cards", "id")],
    ),
}

# What full-text search over cards indexes: English and Chinese names, type and Oracle text of
# every face, plus the segmented Japanese name and printed text.
CARDS_SEARCH_TEXT = (
    "coalesce(name_en, '') || ' ' || coalesce(type_line, '') || ' ' || coalesce(text, '')"
    " || ' ' || coalesce(faces_text, '') || ' ' || coalesce(name_zh, '') || ' ' || coalesce(search_ja, '')"
)

CARD_INDEXES = [
    ("card_names", ["name_ja"]), ("card_names", ["name_zh"]), ("card_names", ["card_id"]),
    ("cards", ["name_ja"]), ("cards", ["name_zh"]), ("cards", ["full_name"]),
    ("card_faces", ["card_id"]), ("card_faces", ["name_en"]), ("card_rulings", ["card_id"]),
    ("card_rulings", ["text_id"]), ("card_rulings", ["date", "text"]), ("card_printings", ["card_id"]),
    ("card_printings", ["set_id"]), ("card_versions", ["card_id"]), ("card_aliases", ["card_id"]),
    ("card_aliases", ["key"]),
]

CARD_VIEWS = {
    # One row per (card, format): the legalities the cards carry as JSON.
    "card_legalities": """
        select cards.id as card_id, cards.name_en as card, j.key as format, j.value as status
        from cards, json_each(cards.legalities) j
    """,
}


def card_row(name_en: str | None, name_ja: str | None, **values) -> dict:
    """A ``cards`` row with every column present (sqlite-utils inserts what it is given)."""
    row = {column: None for column in CARD_TABLES["cards"]["columns"] if column != "id"}
    row.update(name_en=name_en, name_ja=name_ja, sources="[]")
    row.update(values)
    return row


def create_card_tables(db) -> None:
    create_tables(db, CARD_TABLES, {"cards": {"search_text": CARDS_SEARCH_TEXT}})


_SPACES_OR_SLASHES = re.compile(r"\s*/+\s*|\s{2,}|[\t\n]")


def lookup_key(name: str) -> str:
    """How a card name is compared when looked up: NFKC, accents off, case folded, one space,
    a split card's ``/`` as `` // ``, curly apostrophes straight."""
    if name.isascii():
        text = name
    else:
        text = unicodedata.normalize("NFKC", name).replace("\u2019", "'").replace("\u2018", "'")
        decomposed = unicodedata.normalize("NFKD", text)
        if decomposed != text:
            text = unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))
    if "/" in text or "  " in text or "\t" in text or "\n" in text:
        text = re.sub(r"\s+", " ", re.sub(r"\s*/+\s*", " // ", text))
    return text.strip().casefold()


def stable_id(*parts: str) -> int:
    """A 52-bit id from a digest of ``parts``: the same ruling keeps its id in every build
    (52 bits: exact in JavaScript numbers, so JSON readers keep it too)."""
    digest = hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 12


_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f]')


def _json(value) -> str:
    """``json.dumps(value, ensure_ascii=False)``; lists of plain strings (most of them) without the encoder."""
    if isinstance(value, list) and all(type(v) is str and not _NEEDS_ESCAPE.search(v) for v in value):
        return "[" + ", ".join(f'"{v}"' for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


# ---------------------------------------------------------------- parsing, in a pool


def _parse_files(kind_paths: list[tuple[str, str]], corpus: str) -> tuple[list, SourceError | None]:
    """Parse card files in a worker: their records, or the first unreadable file's error."""
    records: list = []
    for kind, path in kind_paths:
        try:
            records += parse_card_file(kind, Path(path), Path(corpus))
        except SourceError as e:
            return records, e
    return records, None


def parse_all(ctx: BuildContext) -> tuple[list, dict[str, str]]:
    """Every card record of the corpus, the set files parsed in a pool; ``{source: kind}``."""
    files = card_files(ctx.corpus)
    kinds = {p.relative_to(ctx.corpus).as_posix(): kind for kind, p in files}
    sets = [(kind, str(p)) for kind, p in files if kind == "oracle_set"]
    others = [(kind, str(p)) for kind, p in files if kind != "oracle_set"]
    records: list = []
    workers = min(os.cpu_count() or 1, 2)
    chunks = [sets[i::workers * 2] for i in range(workers * 2)] if sets else []
    with ctx.task("Card data", len(files)) as advance:
        with ProcessPoolExecutor(workers) if len(sets) > 20 and workers > 1 else _InProcess() as pool:
            futures = [(len(chunk), pool.submit(_parse_files, chunk, str(ctx.corpus))) for chunk in chunks if chunk]
            # The few other files are parsed here while the workers read the sets.
            for kind, path in others:
                found, error = _parse_files([(kind, path)], str(ctx.corpus))
                records += found
                if error is not None:
                    ctx.source_failed(error)
                advance(1)
            for size, future in futures:
                found, error = future.result()
                records += found
                if error is not None:
                    ctx.source_failed(error)
                advance(size)
    return records, kinds


class _InProcess:
    """A stand-in for a process pool that runs each call at once (few files, or one core)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, fn, *args):
        result = fn(*args)

        class Done:
            def result(self):
                return result
        return Done()


# ---------------------------------------------------------------- the build step


def load_cards(ctx: BuildContext) -> None:
    """The build step: parse ``cards/``, assemble one card per Oracle identity, fill the card tables.

    A card file cut short (it ends inside a record) or not UTF-8 stops the
    build with its ``path:line:`` (with ``--keep-going``, the error is kept
    and the records before the cut are used): better than a build that
    silently lacks cards and fails later in a scenario that uses one.
    """
    db = ctx.db
    create_card_tables(db)
    if not (ctx.corpus / "cards").is_dir():
        ctx.problems.append(IngestProblem("cards", None, "warning", "no-card-data",
                                          "the corpus has no cards/ folder; card tables are empty"))
        return
    key, path = _cache_entry(ctx)
    if path is not None:
        entry = read_row_file(path, key)
        if entry is not None:
            ctx.cache.hits["cards"] += 1
            _copy_cached(ctx, path, entry[0])
            return
        ctx.cache.misses["cards"] += 1
    problems_before = len(ctx.problems)
    records, kinds = parse_all(ctx)
    names: list[CardName] = []
    in_data: set[str] = set()
    for r in records:
        if isinstance(r, IngestProblem):
            if r.code in ("oracle-truncated", "oracle-unclosed-card", "oracle-unclosed-tag", "oracle-no-cards",
                          "forge-no-oracle"):
                ctx.source_failed(SourceError(r.source, r.line, r.message))
            else:
                ctx.problems.append(r)
        elif isinstance(r, CardName):
            names.append(r)
        elif isinstance(r, (OracleCard, ForgeFace)):
            in_data.add(r.name)
    # The Japanese names' search forms (SudachiPy, ~50 µs each) are made in a worker while this
    # process assembles the cards.
    wanted = sorted({n.name_ja for n in names if n.name_ja and n.name_en in in_data})
    with ProcessPoolExecutor(1) if len(wanted) > 1000 and (os.cpu_count() or 1) > 1 else _InProcess() as pool:
        forms = pool.submit(_search_forms, wanted)
        cards = assemble_cards(records, kinds=kinds, problems=ctx.problems)
        search_forms = forms.result()
    tables = card_table_rows(ctx, cards, names, search_forms)
    failed = any(p.code == "unreadable" for p in ctx.problems[problems_before:])
    if path is not None and not failed:  # a build that kept going past a broken file is never cached
        problems = [dataclasses.asdict(p) for p in ctx.problems[problems_before:]]
        try:
            write_row_file(path, key, tables, {"problems": problems})
        except (OSError, sqlite3.Error) as e:
            ctx.cache.errors.append(f"card rows not cached: {e}")
        else:
            _copy_cached(ctx, path, None)
            return
    _write_card_tables(ctx.db, tables)


#: What the card step's output depends on besides the card files: its code and the Japanese segmenter's.
CARD_CODE = ("ingest.cards", "ingest.card_identity", "ingest.card_costs", "ingest.records", "ingest.decoding",
             "kb.load.cards", "kb.japanese")


def _cache_entry(ctx: BuildContext) -> tuple[str, Path | None]:
    """The key of this corpus's card rows (every card file's path and digest, the code's version) and
    the row file it lives in (None without a cache)."""
    if not ctx.cache.enabled:
        return "", None
    from importlib import metadata

    inputs = [f"{p.relative_to(ctx.corpus).as_posix()} {kind} {file_digest(p)}" for kind, p in card_files(ctx.corpus)]
    versions = []
    for package in ("SudachiPy", "SudachiDict-core"):
        try:
            versions.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{package} none")
    key = ctx.cache.key("cards", code_version(*CARD_CODE), *versions, *inputs)
    return key, ctx.cache.rows_path("cards", key)


def _copy_cached(ctx: BuildContext, path: Path, meta: dict | None) -> None:
    """The card tables filled from a row file (and, from the cache, the problems its build had)."""
    copy_row_file(ctx.db.conn, path, {name: _columns(name) for name in _ROW_TABLES})
    if meta is not None:
        ctx.problems.extend(IngestProblem(**p) for p in meta.get("problems", []))
    _finish_card_tables(ctx.db)


def _search_forms(names: list[str]) -> dict[str, str]:
    from ..japanese import search_form

    return {name: search_form(name) for name in names}


_ROW_TABLES = ("cards", "card_faces", "card_printings", "card_rulings", "card_versions", "card_sets",
               "card_aliases", "card_names")


def _columns(table: str) -> list[str]:
    """The columns the card step fills (ids of their own where the table numbers its rows)."""
    columns = list(CARD_TABLES[table]["columns"])
    if table == "cards":
        return [c for c in columns if c not in ("type_line_ja", "text_ja", "pt_ja", "cost_printed_ja",
                                                "ja_text_source", "keywords")]
    if table in ("card_faces", "card_printings", "card_versions"):
        return [c for c in columns if c != "id"]
    return columns


def _insert_cards(ctx: BuildContext, cards: list[Card], names: list[CardName],
                  search_forms: dict[str, str] | None = None) -> None:
    """Fill the card tables with ``cards`` (and the name list ``names``)."""
    _write_card_tables(ctx.db, card_table_rows(ctx, cards, names, search_forms))


def _write_card_tables(db, tables: dict[str, tuple[list[str], list]]) -> None:
    for name, (columns, rows) in tables.items():
        insert_rows(db, name, columns, rows)
    _finish_card_tables(db)


def _finish_card_tables(db) -> None:
    for table, columns in CARD_INDEXES:
        db[table].create_index(columns, if_not_exists=True)
    db["cards"].create_index(["name_en"], unique=True, if_not_exists=True)
    for name, sql in CARD_VIEWS.items():
        db.create_view(name, sql, replace=True)


def card_table_rows(ctx: BuildContext, cards: list[Card], names: list[CardName],
                    search_forms: dict[str, str] | None = None) -> dict[str, tuple[list[str], list]]:
    """{table: (columns, rows)} of the card tables for ``cards`` and the name list ``names``."""
    from ..japanese import search_form

    forms = search_forms or {}

    listed: dict[str, CardName] = {}
    for n in names:  # a name listed twice: the first entry wins, the second is a problem
        if n.name_en in listed:
            ctx.problems.append(IngestProblem(n.source, n.line, "warning", "card-name-twice",
                                              f"{n.name_en!r} is listed twice; the first entry is kept"))
            continue
        listed[n.name_en] = n

    card_rows, face_rows, printing_rows, ruling_rows, version_rows = [], [], [], [], []
    alias_rows: dict[tuple[str, int, str], tuple] = {}
    name_rows: dict[str, list] = {}
    sets: dict[str, dict] = {}
    ruling_ids: set[int] = set()

    def alias(name: str | None, lang: str, card_id: int, face: str | None, kind: str) -> None:
        if name:
            key = lookup_key(name)
            if key and (key, card_id, lang) not in alias_rows:
                alias_rows[(key, card_id, lang)] = (key, name, lang, card_id, face, kind)

    for card_id, card in enumerate(cards, 1):
        main = card.main
        source, line = card.source
        sources = sorted({v.source for v in card.versions} | {p.source for p in card.printings})
        printing_sets = [p.set_id for p in card.printings if p.set_id]
        ja = card.name_ja
        face_texts = [f"{f.name}: {f.text}" for f in card.faces[1:] if f.text] \
            if card.layout not in ("split", "aftermath") else []
        card_rows.append((
            card_id, card.name, ja, "jpname" if ja else None, card.mana_cost, card.mana_value, card.type_line,
            card.text, main.power, main.toughness, main.loyalty, card.other_face, card.layout,
            _json(sorted(set(printing_sets))), _json(sources), (forms.get(ja) or search_form(ja)) if ja else None,
            card.full_name, card.name_zh, _json(list(main.types.supertypes)), _json(list(main.types.types)),
            _json(list(main.types.subtypes)), "".join(card.colors), "".join(card.color_identity),
            "".join(main.color_indicator) or None, _json(dict(card.legalities)), len(card.printings),
            len(card.rulings), int(card.reserved), card.hand_size, card.starting_life,
            "\n".join(face_texts) or None, f"{source}:{line}",
        ))
        alias(card.name, "en", card_id, None, "card")
        alias(card.full_name, "en", card_id, None, "full name")
        alias(ja, "ja", card_id, None, "card")
        alias(card.name_zh, "zh", card_id, None, "card")
        name_rows.setdefault(card.name, [card_id, None, card.name_zh])
        for p in card.printings:
            if p.name_zh and p.name_zh != card.name_zh and " // " not in p.name_zh:
                alias(p.name_zh, "zh", card_id, None, "printed name")
        if len(card.faces) > 1:
            for index, f in enumerate(card.faces, 1):
                face_ja = card.face_names_ja.get(f.name)
                face_rows.append((
                    card_id, index, f.name, face_ja, f.mana_cost, f.mana_value, f.type_line, f.text, f.power,
                    f.toughness, f.source, f.line, f.kind, f.name_zh, f.loyalty,
                    _json(list(f.types.supertypes)), _json(list(f.types.types)), _json(list(f.types.subtypes)),
                    "".join(f.colors), "".join(f.color_indicator) or None,
                ))
                alias(f.name, "en", card_id, f.name, "face")
                alias(face_ja, "ja", card_id, f.name, "face")
                alias(f.name_zh, "zh", card_id, f.name, "face")
                name_rows.setdefault(f.name, [card_id, f.name, f.name_zh])
        for p in card.printings:
            printing_rows.append((card_id, card.name, p.set_id, p.set_name, p.number, p.rarity, p.artist,
                                  p.multiverse_id, p.name_zh, p.flavor, p.flavor_zh, p.watermark, p.source, p.line))
            if p.set_id:
                s = sets.setdefault(p.set_id, {"set_id": p.set_id, "name": p.set_name, "printings": 0,
                                               "cards": set(), "rulings": 0, "source": p.source})
                s["printings"] += 1
                s["cards"].add(card_id)
        for position, r in enumerate(card.rulings, 1):
            ruling_id = stable_id(card.name, r.date, r.text)
            if ruling_id in ruling_ids:  # 2^-52 odds; never silently merge two rulings
                raise SourceError(r.source, r.line, f"two rulings share the id {ruling_id}; change stable_id")
            ruling_ids.add(ruling_id)
            ruling_rows.append((ruling_id, card_id, card.name, r.date, r.text, _json(r.sources), r.line, r.source,
                                position, _json(r.printings), len(r.printings), stable_id(r.date, r.text)))
            for set_id in r.printings:
                if set_id in sets:
                    sets[set_id]["rulings"] += 1
        if len(card.versions) > 1:
            for v in card.versions:
                version_rows.append((card_id, card.name, v.kind, v.source, v.line, v.printings, int(v.used),
                                     _json(list(v.differs))))

    for n in listed.values():
        alias(n.name_ja, "ja", name_rows[n.name_en][0], name_rows[n.name_en][1], "name list") \
            if n.name_en in name_rows and n.name_ja else None
    # Every name: the list's entries first (with their card, where we have it), then the names only the
    # Oracle data has.
    rows = []
    for n in listed.values():
        card_id, face, zh = name_rows.get(n.name_en, (None, None, None))
        rows.append((n.name_en, n.name_ja, int(n.undefined), n.source, n.line, zh, card_id, face))
    for name, (card_id, face, zh) in name_rows.items():
        if name not in listed:
            rows.append((name, None, 0, None, None, zh, card_id, face))
    set_rows = [(s["set_id"], s["name"], s["printings"], len(s["cards"]), s["rulings"], s["source"])
                for s in sorted(sets.values(), key=lambda s: s["set_id"])]
    found = {"cards": card_rows, "card_faces": face_rows, "card_printings": printing_rows,
             "card_rulings": ruling_rows, "card_versions": version_rows, "card_sets": set_rows,
             "card_aliases": list(alias_rows.values()), "card_names": rows}
    return {name: (_columns(name), found[name]) for name in _ROW_TABLES}


# ---------------------------------------------------------------- keywords, once the lineages exist

KEYWORD_TABLES: dict[str, dict] = {
    "card_keywords": dict(
        columns={"id": int, "card_id": int, "card": str, "keyword": str, "section": str, "found_as": str,
                 "lineage_id": int, "release": str, "number": str, "matched": str, "uses": int, "spans": str},
        pk="id",
        foreign_keys=[("card_id", "cards", "id")],
    ),
}


def keyword_titles(db) -> dict[str, tuple[str, int | None, str | None, str | None]]:
    """``{title: (section, lineage_id, newest title, its number in the newest English release)}`` for every
    title a numbered rule of 701 or 702 has had in any English release (old titles through the lineage)."""
    tables = set(db.table_names())
    newest = db.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'").fetchone()[0]
    out: dict[str, tuple[str, int | None, str | None, str | None]] = {}
    if "rule_lineage" in tables and "lineages" in tables:
        sql = """
            select r.title, r.parent, l.lineage_id, max(r.release), ln.title, ln.newest_number, ln.last_number
            from rules r
            left join rule_lineage l on l.lang = 'en' and l.release = r.release and l.number = r.number
            left join lineages ln on ln.lineage_id = l.lineage_id
            where r.lang = 'en' and r.kind = 'numbered' and r.parent in ('701', '702') and r.title is not null
            group by r.title, r.parent order by max(r.release)
        """
        for title, section, lineage, _, newest_title, number, last in db.execute(sql):
            out[title] = (section, lineage, newest_title or title, number or last)
    else:
        for title, section, number in db.execute(
                "select title, parent, number from rules where lang = 'en' and release = ? and kind = 'numbered'"
                " and parent in ('701', '702') and title is not null", [newest]):
            out[title] = (section, None, title, number)
    return out


def link_card_keywords(ctx: BuildContext) -> None:
    """The build step after rule history: each keyword action and ability in each card's Oracle text,
    linked to its rule by title (``card_keywords``), and each card's keyword list (``cards.keywords``)."""
    db = ctx.db
    if "cards" not in db.table_names():
        return
    # Run again when a release is added (kb add): made anew, never appended to.
    if "card_keywords" in db.table_names():
        db["card_keywords"].drop()
    create_tables(db, KEYWORD_TABLES)
    titles = keyword_titles(db)
    newest = db.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'").fetchone()[0]
    cards = db.execute("select id, name_en, text, layout from cards where text is not null or id in"
                       " (select card_id from card_faces) order by id").fetchall()
    faces = db.execute("select card_id, name_en, text from card_faces order by card_id, face").fetchall()
    names = [r[0] for r in db.execute("select name_en from card_names")]
    # Cached by what it reads (every card's text, the names, the titles) and the code that reads it.
    inputs = hashlib.blake2b(digest_size=20)
    for part in (cards, faces, names, sorted(titles.items()), newest):
        inputs.update(repr(part).encode("utf-8"))
    with ctx.task("Card keywords", None) as advance:
        rows, keyword_lists = ctx.cache.memo(
            "card-keywords", code_version("kb.load.cards", "ingest.card_keywords"), [inputs.hexdigest()],
            lambda: _keyword_rows(cards, faces, names, titles, newest))
        advance(1)
    insert_rows(db, "card_keywords", [c for c in KEYWORD_TABLES["card_keywords"]["columns"] if c != "id"], rows)
    with db.conn:
        db.conn.executemany("update cards set keywords = ? where id = ?", keyword_lists)
    for columns in (["card_id"], ["keyword"], ["lineage_id"], ["release", "number"]):
        db["card_keywords"].create_index(columns, if_not_exists=True)


def _keyword_rows(cards: list, faces: list, names: list[str], titles: dict, newest: str) -> tuple[list, list]:
    """``card_keywords`` rows and (keyword list, card id) pairs for ``cards`` (id, name, text, layout)."""
    from ingest.card_keywords import KeywordFinder

    faces_by_card: dict[int, list[tuple[str, str | None]]] = {}
    for card_id, face, text in faces:
        faces_by_card.setdefault(card_id, []).append((face, text))
    finder = KeywordFinder({t: v[0] for t, v in titles.items()}, names)
    rows, keyword_lists = [], []
    for card_id, name, text, layout in cards:
        card_faces = faces_by_card.get(card_id) or [(name, text)]
        own = [name] + [f for f, _ in card_faces] + ([name.split(" // ")[0]] if " // " in name else [])
        found: dict[str, dict] = {}
        for index, (face, face_text) in enumerate(card_faces):
            for use in finder.find(face_text, own):
                section, lineage, keyword, number = titles[use.keyword]
                entry = found.setdefault(keyword, {"section": section, "found_as": use.keyword,
                                                   "lineage": lineage, "number": number,
                                                   "matched": [], "spans": []})
                if use.matched not in entry["matched"]:
                    entry["matched"].append(use.matched)
                entry["spans"].append([index, use.start, use.end])
        for keyword, e in found.items():
            rows.append((card_id, name, keyword, e["section"], e["found_as"], e["lineage"], newest, e["number"],
                         _json(e["matched"]), len(e["spans"]), json.dumps(e["spans"])))
        keyword_lists.append((_json(sorted(found)) if found else None, card_id))
    return rows, keyword_lists
