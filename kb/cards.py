"""Reading cards from the database: find a card by any of its names, and everything about it.

:func:`find_card` takes an English, Japanese or Chinese name (a card's or one
of its faces', any case or width, accents optional) and returns the card, or
raises :class:`CardNotFound` with the nearest names (rapidfuzz) so a close
misspelling can be answered with "did you mean". :func:`read_card` gathers
what the card page and ``kb card`` show: names in three languages, faces,
Oracle text with its keywords linked to their rules (by lineage, so the
rule's older numbers come too), rulings (with the rules they apply, where the
rulings linker has made ``card_ruling_rules``), printings, legalities, the
sources and the choice between them, and the scenarios that use the card.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process, utils
from rapidfuzz.distance import Levenshtein

from .load.cards import lookup_key

MAX_NAME = 200
#: A misspelling this close (rapidfuzz ratio, 0–100) to one name, and clearly closer than the next, is
#: taken as that name (the page redirects, saying so); a looser match is only suggested.
REDIRECT_SCORE = 88
SUGGEST_SCORE = 70
# A Japanese or Chinese name is short (塔莫耶夫, 4 characters: one slip is a ratio of 75), but each character
# says much: one character wrong, added or missing, and no other name as near, is taken as that name too.
CJK_SLIPS = 1


class CardNotFound(LookupError):
    """No card by that name; ``suggestions`` are the nearest names (best first)."""

    def __init__(self, name: str, suggestions: list[str]):
        self.name = name
        self.suggestions = suggestions
        hint = f"; did you mean {' or '.join(repr(s) for s in suggestions[:3])}?" if suggestions else ""
        super().__init__(f"no card named {name!r}{hint}")


@dataclass(frozen=True)
class CardMatch:
    """The card a name found: ``exact`` is False when the name was a misspelling of ``matched``."""

    card_id: int
    name: str
    matched: str
    lang: str
    exact: bool
    score: float


class _Names:
    """Every lookup key of a database, read once per database file (it is served immutable)."""

    def __init__(self, rows: list[tuple[str, str, str, int, str]]):
        self.by_key: dict[str, tuple[int, str, str]] = {}
        # A card's own name wins over a face's or a printed variant's; then the lower card id.
        for key, alias, lang, card_id, kind in sorted(rows, key=lambda r: (r[4] != "card", r[3])):
            self.by_key.setdefault(key, (card_id, alias, lang))
        self.keys = list(self.by_key)


_names: dict[str, _Names] = {}
_lock = threading.Lock()


def _names_of(conn, path: str | None) -> _Names:
    key = path or f"memory:{id(conn)}"
    found = _names.get(key)
    if found is None:
        with _lock:   # read once: a second caller waits for the first instead of reading it again
            found = _names.get(key)
            if found is None:
                # No ORDER BY: a sort of 65,000 rows in SQLite can run past a page's time limit on a busy machine.
                rows = conn.execute("select key, alias, lang, card_id, kind from card_aliases").fetchall()
                found = _Names(rows)
                _names[key] = found
    return found


def has_cards(conn) -> bool:
    return bool(conn.execute("select 1 from sqlite_master where name = 'card_aliases'").fetchone())


def find_card(conn, name: str, *, path: str | None = None) -> CardMatch:
    """The card called ``name`` (see the module docstring); :class:`CardNotFound` otherwise."""
    if not has_cards(conn):
        raise CardNotFound(name, [])
    wanted = lookup_key(name)[:MAX_NAME]
    if not wanted:
        raise CardNotFound(name, [])
    names = _names_of(conn, path)
    hit = names.by_key.get(wanted)
    if hit:
        card_id, alias, lang = hit
        return CardMatch(card_id, _card_name(conn, card_id), alias, lang, True, 100.0)
    found = process.extract(wanted, names.keys, scorer=fuzz.ratio, limit=5, score_cutoff=SUGGEST_SCORE,
                            processor=None)
    if found:
        best_key, best, _ = found[0]
        runner_up = found[1][1] if len(found) > 1 else 0
        card_id, alias, lang = names.by_key[best_key]
        if best >= REDIRECT_SCORE and (best - runner_up >= 3 or names.by_key[found[1][0]][0] == card_id):
            return CardMatch(card_id, _card_name(conn, card_id), alias, lang, False, best)
        if _cjk(wanted) and _one_slip_from_one_card(wanted, [(k, names.by_key[k][0]) for k, _, _ in found]):
            return CardMatch(card_id, _card_name(conn, card_id), alias, lang, False, best)
    suggestions: list[str] = []
    for key, _, _ in found:
        card = _card_name(conn, names.by_key[key][0])
        if card not in suggestions:
            suggestions.append(card)
    raise CardNotFound(name, suggestions)


def _cjk(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" for ch in text)


def _one_slip_from_one_card(wanted: str, near: list[tuple[str, int]]) -> bool:
    """The nearest name is CJK_SLIPS edits away and every other name as near belongs to the same card."""
    slips = [(Levenshtein.distance(wanted, key), card_id) for key, card_id in near]
    closest = [card_id for distance, card_id in slips if distance <= CJK_SLIPS]
    return bool(closest) and len(set(closest)) == 1 and slips[0][0] <= CJK_SLIPS


def suggest(conn, name: str, *, path: str | None = None, limit: int = 5) -> list[str]:
    """Card names near ``name`` (for a search box or a 404), best first."""
    if not has_cards(conn):
        return []
    names = _names_of(conn, path)
    out: list[str] = []
    for key, _, _ in process.extract(lookup_key(name)[:MAX_NAME], names.keys, scorer=fuzz.WRatio, limit=limit * 2,
                                     processor=utils.default_process):
        card = _card_name(conn, names.by_key[key][0])
        if card not in out:
            out.append(card)
    return out[:limit]


def _card_name(conn, card_id: int) -> str:
    row = conn.execute("select name_en from cards where id = ?", [card_id]).fetchone()
    return row[0] if row else str(card_id)


def _table_names(conn) -> set[str]:
    return {r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")}


def _rows(conn, sql: str, params: list) -> list[dict]:
    cursor = conn.execute(sql, params)
    keys = [d[0] for d in cursor.description]
    return [dict(zip(keys, row)) for row in cursor.fetchall()]


def _loads(value: str | None, default: Any) -> Any:
    try:
        return json.loads(value) if value else default
    except ValueError:
        return default


def read_card(conn, card_id: int) -> dict:
    """Everything about one card, as plain data (the JSON of ``/-/cards/<name>.json`` and ``kb card --json``)."""
    tables = _table_names(conn)
    [card] = _rows(conn, "select * from cards where id = ?", [card_id]) or [None]
    if card is None:
        raise CardNotFound(str(card_id), [])
    card.pop("search_text", None)
    card.pop("search_ja", None)
    for column, default in (("set_ids", []), ("sources", []), ("supertypes", []), ("types", []),
                            ("subtypes", []), ("legalities", {}), ("keywords", [])):
        card[column] = _loads(card.get(column), default)
    faces = _rows(conn, "select face, name_en, name_ja, name_zh, kind, mana_cost, mana_value, type_line, text,"
                        " power, toughness, loyalty, colors, color_indicator, source, line from card_faces"
                        " where card_id = ? order by face", [card_id])
    keywords = []
    if "card_keywords" in tables:
        keywords = _rows(conn, "select keyword, section, found_as, lineage_id, release, number, matched, uses, spans"
                               " from card_keywords where card_id = ? order by keyword", [card_id])
        for k in keywords:
            k["matched"] = _loads(k["matched"], [])
            k["spans"] = _loads(k["spans"], [])
            k["numbers"] = []
            if k["lineage_id"] is not None and "lineages" in tables:
                row = conn.execute("select numbers from lineages where lineage_id = ?", [k["lineage_id"]]).fetchone()
                k["numbers"] = _loads(row[0] if row else None, [])
    rulings = _rows(conn, "select id, date, text, set_ids, printings, source, line from card_rulings"
                          " where card_id = ? order by position, date", [card_id])
    for r in rulings:
        r["set_ids"] = _loads(r["set_ids"], [])
        r["rules"] = []
    if rulings and "card_ruling_rules" in tables:
        # Made by the rulings linker (issue 13): (card ruling, release, lang, number).
        columns = {row[1] for row in conn.execute("pragma table_info(card_ruling_rules)")}
        id_column = "card_ruling_id" if "card_ruling_id" in columns else "ruling_id"
        marks = ",".join("?" for _ in rulings)
        by_id = {r["id"]: r for r in rulings}
        select = ", ".join(c for c in ("release", "lang", "number", "how") if c in columns)
        for row in _rows(conn, f"select {id_column} as ruling, {select} from card_ruling_rules"
                               f" where {id_column} in ({marks})", [r["id"] for r in rulings]):
            ruling = by_id.get(row.pop("ruling"))
            if ruling is not None and row not in ruling["rules"]:
                ruling["rules"].append(row)
    printings = _rows(conn, "select set_id, set_name, number, rarity, artist, multiverse_id, name_zh, flavor,"
                            " source, line from card_printings where card_id = ? order by set_id, number", [card_id])
    versions = []
    if "card_versions" in tables:
        versions = _rows(conn, "select kind, source, line, printings, used, differs from card_versions"
                               " where card_id = ? order by used desc, id", [card_id])
        for v in versions:
            v["differs"] = _loads(v["differs"], [])
    scenarios = []
    if {"scenario_cards", "scenarios"} <= tables:
        columns = {row[1] for row in conn.execute("pragma table_info(scenarios)")}
        title = "title" if "title" in columns else ("description" if "description" in columns else "id")
        keyword = "keyword" if "keyword" in columns else "null"
        scenarios = _rows(conn, f"select s.id, s.{title} as title, s.{keyword} as keyword,"
                                f" group_concat(distinct sc.role) as role"
                                f" from scenario_cards sc join scenarios s on s.id = sc.scenario_id"
                                f" where sc.card_id = ? group by s.id order by s.id", [card_id])
    wiki = []
    if {"card_mentions", "wiki_pages"} <= tables:
        wiki = _rows(conn, "select distinct p.title, p.name_en, m.how from card_mentions m"
                           " join wiki_pages p on p.id = m.page_id where m.card_id = ? and p.preferred = 1"
                           " order by p.title", [card_id])
    names = {"en": card["name_en"], "ja": card.get("name_ja"), "zh": card.get("name_zh")}
    return {"ok": True, "card": card, "names": names, "faces": faces, "keywords": keywords, "rulings": rulings,
            "printings": printings, "versions": versions, "scenarios": scenarios, "wiki_pages": wiki}


def keyword_spans(data: dict) -> dict[int, list[tuple[int, int, dict]]]:
    """``{face index: [(start, end, keyword)]}``, index 0 for a single-faced card's text."""
    out: dict[int, list[tuple[int, int, dict]]] = {}
    for k in data["keywords"]:
        for face, start, end in k["spans"]:
            out.setdefault(face, []).append((start, end, k))
    for spans in out.values():
        spans.sort(key=lambda s: s[0])
    return out
