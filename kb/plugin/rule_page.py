"""The rule page: ``/-/rules/<number>`` (``?release=YYYYMMDD``, ``?show=both|en|ja``; ``.json`` for tools).

One page per rule, for a judge to keep open: the rule and every subrule
under it, English and Japanese side by side (one row per subrule, with an
anchor), its examples, the rules it cites and that cite it, the wiki rulings
and the cards linked to it, its history across releases (each number it has
had, and in which releases), and the scenarios of the executable rules that
illustrate it, each with a "run" control.

The release is the English one unless only Japanese has it. The other
language comes from the same release when it has one; otherwise from its
newest whole release not after it (the Japanese CR trails the English one),
paired through the rule lineage (``rule_lineage``) so that a renumbered rule
still meets its translation, and the page says so. Every part of the page
that needs a table the database lacks (wiki, history, scenarios) is left out
and named in ``missing``; the page still works.

The database is served immutable, so what a page reads is kept per process
(:class:`PageCache`).
"""

from __future__ import annotations

import os
import re
from kb.sqlite import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import sqlite_utils
from datasette.utils.asgi import Response

from kb.database import RuleNotFound, UnknownRelease, check_release
from kb.history import fold_history
from kb.rules import RuleView

from . import fragments, links
from .bounded import execute_bounded

NUMBER = r"(?P<number>\d(?:\d\d(?:\.\d+[a-z]?)?)?)"
_RELEASE = re.compile(r"\d{8}")
SHOW = ("both", "en", "ja", "zh", "ko")
# The languages a page can show, two side by side (?with=zh: English and Chinese).
LANGUAGES = {"en": "English", "ja": "日本語", "zh": "中文", "ko": "한국어"}
# Lists on a page are cut at this many entries (the JSON says how many there were).
MAX_LIST = 200
# A rule with more rows than this (701 has some 290, 702 some 760) is shown as contents: its
# numbered rules only, each linking to its own page.
MAX_ROWS = 150
MAX_CONTENTS = 400
# A keyword rule's page shows this many of the cards that use the keyword (most printed first), and the count.
KEYWORD_CARDS_SHOWN = 12
# A page with more keyword rules than this links to their pages for rulings and cards.
MAX_KEYWORDS = 3
# Scenarios shown on a page (the JSON has them all; /-/scenarios lists every one).
MAX_SCENARIOS = 40
# Card rulings drawn on a page: a rule such as 613 has hundreds, and drawing them (card names linked in
# each) was most of its render. The JSON has them all (up to MAX_LIST), as for "cited by".
MAX_CARD_RULINGS_SHOWN = 50


class BadParameter(ValueError):
    pass


class PageCache:
    """A small per-process LRU of page data, for immutable databases only."""

    def __init__(self, size: int = 512):
        self.size = size
        self.items: OrderedDict[tuple, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> Any:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: tuple, value: Any) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)


CACHE = PageCache()
MISSES = PageCache(256)


class HtmlCache:
    """Rendered pages by address, for immutable databases and visitors without an account: LRU bounded
    by the bytes it holds (rendering a large page, 140 kB of rule text and rulings, takes 10-20 ms)."""

    def __init__(self, max_bytes: int = 64 * 2**20, max_item: int = 2 * 2**20):
        self.max_bytes, self.max_item = max_bytes, max_item
        self.items: OrderedDict[tuple, str] = OrderedDict()
        self.bytes = 0
        self.lock = threading.Lock()

    @staticmethod
    def key(db, request, *parts) -> tuple | None:
        """The page's key, or None when it must be rendered for this request (a mutable database, a
        signed-in actor, a message to show)."""
        if db.is_mutable or getattr(request, "actor", None) is not None or "ds_messages" in request.cookies:
            return None
        return (db.path, request.path, request.query_string, *parts)

    def get(self, key: tuple | None) -> str | None:
        if key is None:
            return None
        with self.lock:
            html = self.items.get(key)
            if html is not None:
                self.items.move_to_end(key)
            return html

    def put(self, key: tuple | None, html: str) -> None:
        if key is None or len(html) > self.max_item:
            return
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.bytes -= len(old)
            self.items[key] = html
            self.bytes += len(html)
            while self.bytes > self.max_bytes and self.items:
                _, dropped = self.items.popitem(last=False)
                self.bytes -= len(dropped)


HTML = HtmlCache()


def _fresh_copy(error: Exception) -> Exception:
    """A new exception like ``error`` (its args and attributes), without calling its ``__init__``:
    ``CardNotFound(name, suggestions)`` cannot be made again from its message alone.

    >>> from kb.cards import CardNotFound
    >>> again = _fresh_copy(CardNotFound("nosuch", ["Nosy Goblin"]))
    >>> (str(again), again.suggestions, again.__traceback__)
    ("no card named 'nosuch'; did you mean 'Nosy Goblin'?", ['Nosy Goblin'], None)
    """
    fresh = type(error).__new__(type(error), *error.args)
    fresh.__dict__.update(error.__dict__)
    return fresh


async def cached_read(db, key: tuple, read: Callable[[sqlite3.Connection], Any]) -> Any:
    """``read(conn)`` in Datasette's executor, kept per process when the database is immutable."""
    if db.is_mutable:
        return await execute_bounded(db, read)
    full_key = (db.path, *key)
    value = CACHE.get(full_key)
    if value is None:
        missing = MISSES.get(full_key)
        if missing is not None:
            raise _fresh_copy(missing)   # a fresh one: no traceback piles up on it
        try:
            value = await execute_bounded(db, read)
        except LookupError as e:
            # Not found in an immutable database stays not found: answer the next asker at once
            # (kept apart, so a flood of missing pages can't push real pages out of CACHE).
            MISSES.put(full_key, e)
            raise
        CACHE.put(full_key, value)
    return value


def wants_json(request) -> bool:
    return request.url_vars.get("format") == "json" or request.args.get("_format") == "json"


async def error_response(datasette, request, as_json: bool, status: int, message: str, *, title: str = "Error"):
    """A 400/404 answer: JSON ``{"ok": false, "error": ...}`` or a page with the sentence."""
    if as_json:
        return Response.json({"ok": False, "error": message}, status=status)
    html = await datasette.render_template(
        "kb_error.html", {"title": title, "message": message, "status": status}, request=request)
    return Response.html(html, status=status)


# ---------------------------------------------------------------- reading the database


def table_names(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")}


def release_index(conn: sqlite3.Connection) -> dict[str, dict[str, str]]:
    """``{lang: {release: completeness}}``."""
    out: dict[str, dict[str, str]] = {"en": {}, "ja": {}}
    for release, lang, completeness in conn.execute("select release, lang, completeness from releases"):
        out.setdefault(lang, {})[release] = completeness or "whole"
    return out


# What every page of one served (immutable) file reads first: its tables and releases, read once.
_FILE_FACTS = PageCache(8)


def file_facts(conn: sqlite3.Connection, path: str | None) -> tuple[set[str], dict[str, dict[str, str]]]:
    """``(table names, release index)`` of the database; kept per process for a served file (``path``).

    Callers must not change what they get. Tests and the CLI pass ``path=None``: read each time."""
    try:
        stat = os.stat(path) if path else None
    except OSError:
        stat = None
    if stat is None:
        return table_names(conn), release_index(conn)
    key = (path, stat.st_mtime_ns, stat.st_size)   # a file built again at the same path is read again
    facts = _FILE_FACTS.get(key)
    if facts is None:
        facts = (frozenset(table_names(conn)), release_index(conn))
        _FILE_FACTS.put(key, facts)
    return facts


def newest_whole(releases: dict[str, dict[str, str]], lang: str, *, not_after: str | None = None) -> str | None:
    whole = [r for r, c in releases.get(lang, {}).items() if c == "whole" and (not_after is None or r <= not_after)]
    return max(whole) if whole else None


def numbered_of(number: str) -> str:
    """The numbered rule a subrule belongs to (701.57a → 701.57); a rule or numbered rule itself."""
    m = re.match(r"^(\d{3}\.\d+)[a-z]$", number)
    return m.group(1) if m else number


def _depth(number: str) -> int:
    if len(number) == 1:
        return 0
    if "." not in number:
        return 1
    return 3 if number[-1].isalpha() else 2


def _plain(v: RuleView) -> dict:
    return {"release": v.release, "lang": v.lang, "number": v.number, "kind": v.kind, "parent": v.parent,
            "title": v.title, "title_en": v.title_en, "text": v.text, "examples": list(v.examples)}


def _view(v) -> dict:
    return {"number": v.number, "kind": v.kind, "title": v.title, "text": v.text, "examples": list(v.examples)}


def _find(db: sqlite_utils.Database, number: str, release: str, lang: str) -> list[RuleView]:
    """The rule ``number`` and everything under it in one release and language, in document order.

    As :func:`kb.rules.find_rule` for a number, read as one range of the primary key (faster than its
    ``like``/``glob`` over the release, which the page pays for twice per request).
    """
    if number is None:
        return []
    conn = db.conn
    if len(number) == 1:
        rows = conn.execute(
            "select number, kind, parent, title, title_en, text from rules"
            " where release = ? and lang = ? and section = ? order by position", [release, lang, number]).fetchall()
    else:
        rows = [r for r in conn.execute(
            "select number, kind, parent, title, title_en, text, position from rules"
            " where release = ? and lang = ? and number >= ? and number < ? order by position",
            [release, lang, number, number + "~"]) if _is_under(r[0], number)]
    if not rows:
        return []
    numbers = [r[0] for r in rows]
    examples: dict[str, list[str]] = {}
    for start in range(0, len(numbers), 500):
        chunk = numbers[start:start + 500]
        marks = ",".join("?" for _ in chunk)
        for rule_number, text in conn.execute(
                f"select rule_number, text from examples where release = ? and lang = ? and rule_number in ({marks})"
                " order by rule_number, seq", [release, lang, *chunk]):
            examples.setdefault(rule_number, []).append(text)
    return [RuleView(release, lang, r[0], r[1], r[2], r[3], r[4], r[5] or "", examples.get(r[0], [])) for r in rows]


def _is_under(candidate: str, number: str) -> bool:
    """701.57a is under 701.57; 701.570 is not; 701.57 is under 701."""
    if candidate == number:
        return True
    rest = candidate[len(number):]
    if "." not in number:
        return rest.startswith(".")
    return len(rest) == 1 and rest.isalpha()


def _lineage_map(conn, lang: str, release: str, numbers: list[str]) -> dict[str, int]:
    if not numbers:
        return {}
    marks = ",".join("?" for _ in numbers)
    return {n: lid for n, lid in conn.execute(
        f"select number, lineage_id from rule_lineage where lang = ? and release = ? and number in ({marks})",
        [lang, release, *numbers])}


def _pair_rows(primary_lang: str, primary: list, other: list, partner: dict[str, str],
               other_lang: str | None = None) -> list[dict]:
    """One row per subrule: the primary language's rows in order, the other's beside them
    (``partner``: other number → primary number), rows only the other has after their predecessor."""
    other_lang = other_lang or ("ja" if primary_lang == "en" else "en")
    rows = [{"number": v.number, "depth": _depth(v.number), primary_lang: _view(v), other_lang: None}
            for v in primary]
    at = {r["number"]: i for i, r in enumerate(rows)}
    extra: dict[int, list[dict]] = {}
    last = -1
    for v in other:
        target = partner.get(v.number)
        if target is not None and target in at:
            rows[at[target]][other_lang] = _view(v)
            last = at[target]
        else:
            extra.setdefault(last, []).append(
                {"number": v.number, "depth": _depth(v.number), primary_lang: None, other_lang: _view(v)})
    out = extra.get(-1, [])
    for i, row in enumerate(rows):
        out.append(row)
        out.extend(extra.get(i, []))
    # Each row's anchor: its number, unless a row of the other language alone has a number the
    # page already uses (the Japanese 805.10f, unpaired, beside the English 805.10f): "ja-805.10f".
    for row in out:
        alone = row[primary_lang] is None and row["number"] in at
        row["id"] = f"{other_lang}-{row['number']}" if alone else row["number"]
    return out


def _titles(conn, release: str, lang: str, numbers: set[str]) -> dict[str, str | None]:
    """Each number's title, else its numbered rule's (701.8c → Destroy), else its rule's (120.6 → Damage)."""
    wanted = sorted(numbers | {numbered_of(n) for n in numbers} | {n[:3] for n in numbers})
    if not wanted:
        return {}
    marks = ",".join("?" for _ in wanted)
    found = {n: t for n, t in conn.execute(
        f"select number, title from rules where release = ? and lang = ? and number in ({marks})",
        [release, lang, *wanted])}
    return {n: found.get(n) or found.get(numbered_of(n)) or found.get(n[:3]) for n in numbers}


def _references(conn, release: str, lang: str, numbers: list[str]) -> tuple[list[dict], list[dict]]:
    inside = set(numbers)
    marks = ",".join("?" for _ in numbers)
    cites = {r[0] for r in conn.execute(
        f"select distinct to_number from rule_references where release = ? and lang = ? and from_number in ({marks})",
        [release, lang, *numbers])} - inside
    cited_by = {r[0] for r in conn.execute(
        f"select distinct from_number from rule_references where release = ? and lang = ?"
        f" and to_number in ({marks}) and from_kind in ('rule', 'example')",
        [release, lang, *numbers])} - inside
    titles = _titles(conn, release, lang, cites | cited_by)

    def listed(items: set[str]) -> list[dict]:
        return [{"number": n, "title": titles.get(n)} for n in sorted(items, key=_sort_key)]
    return listed(cites), listed(cited_by)


def _sort_key(number: str) -> tuple:
    parts = re.findall(r"\d+|[a-z]", number)
    return tuple(int(p) if p.isdigit() else ord(p) for p in parts)


_RUN_COLUMNS = ("lang", "first_release", "last_release", "releases", "number", "status", "title", "completeness",
                "previous_release", "previous_number")


def _history(conn, number: str, release: str, lang: str, tables: set[str] | None = None) -> list[dict]:
    """Every release where the rule (its lineage) exists, in both languages: runs of releases with
    the same number folded into one entry (first and last release, how many), English first.

    Read from ``rule_history_runs`` (folded by the build, :mod:`kb.load.page_tables`) when the
    database has it: joining each step to its ``rules`` row reads a page of the file per release."""
    row = conn.execute("select lineage_id from rule_lineage where lang = ? and release = ? and number = ?",
                       [lang, release, number]).fetchone()
    if not row:
        return []
    if tables is not None and "rule_history_runs" in tables:
        return [{**dict(zip(_RUN_COLUMNS, r))} for r in conn.execute(
            f"select {', '.join(_RUN_COLUMNS)} from rule_history_runs where lineage_id = ? order by seq", [row[0]])]
    steps = conn.execute("""
        select l.lang, l.release, l.number, l.status, l.previous_release, l.previous_number, r.title,
               rel.completeness
        from rule_lineage l
        join rules r on r.release = l.release and r.lang = l.lang and r.number = l.number
        join releases rel on rel.release = l.release and rel.lang = l.lang
        where l.lineage_id = ? order by l.lang, l.release""", [row[0]]).fetchall()
    return fold_history(steps)


def _newest_numbers(conn, lang: str, release: str, numbers: list[str], tables: set[str]) -> list[str]:
    """The numbers these rules have in the newest CR (scenarios cite those)."""
    if "lineages" not in tables or "rule_lineage" not in tables:
        return numbers
    ids = list(_lineage_map(conn, lang, release, numbers).values())
    if not ids:
        return numbers
    marks = ",".join("?" for _ in ids)
    return [r[0] for r in conn.execute(
        f"select newest_number from lineages where lineage_id in ({marks}) and newest_number is not null", ids)]


def keyword_material(conn, titles: list[str], tables: set[str], card_index: links.CardIndex,
                     card_rulings_wanted: int = MAX_LIST * 4) -> dict:
    """Wiki rulings, card rulings and cards of the keywords titled ``titles`` (English titles); from the
    precomputed ``keyword_card_rulings``, the first ``card_rulings_wanted`` card rulings."""
    out: dict[str, list] = {"rulings": [], "card_rulings": [], "cards": []}
    if not titles:
        return out
    marks = ",".join("?" for _ in titles)
    if "rulings" in tables:
        out["rulings"] = [dict(zip(("id", "page_title", "keyword", "section", "depth", "parent_id", "text",
                                    "is_example", "quoted_release"), r)) for r in conn.execute(
            f"select id, page_title, keyword, section, depth, parent_id, text, is_example, quoted_release"
            f" from rulings where preferred = 1 and keyword in ({marks}) order by page_title, position",
            titles)]
    words = [re.compile(r"\b(?:" + "|".join(re.escape(t) for t in titles) + ")", re.IGNORECASE)]
    if "card_keywords" in tables:
        # The card step linked every card's keywords (card_keywords): how many cards, and the most printed few.
        out["card_count"] = conn.execute(
            f"select count(distinct card_id) from card_keywords where keyword in ({marks})", titles).fetchone()[0]
        out["cards"] = [{"id": i, "name_en": en, "name_ja": ja, "mana_cost": cost, "type_line": t,
                         "why": "its text uses the keyword"} for i, en, ja, cost, t in conn.execute(
            f"select c.id, c.name_en, c.name_ja, c.mana_cost, c.type_line from cards c where c.id in"
            f" (select card_id from card_keywords where keyword in ({marks}))"
            f" order by c.printings desc, c.name_en limit ?", [*titles, KEYWORD_CARDS_SHOWN])]
    elif "cards" in tables:
        rows = conn.execute(
            "select id, name_en, name_ja, mana_cost, type_line, text from cards where "
            + " or ".join("text like ?" for _ in titles) + " order by name_en",
            [f"%{t}%" for t in titles]).fetchall()
        for card_id, name_en, name_ja, cost, type_line, text in rows:
            # "search" is in "research": the keyword must start a word, and not be the card's own name.
            body = (text or "").replace(name_en or "\0", "CARDNAME")
            if any(w.search(body) for w in words):
                out["cards"].append({"id": card_id, "name_en": name_en, "name_ja": name_ja, "mana_cost": cost,
                                     "type_line": type_line, "why": "its text uses the keyword"})
    if {"card_rulings", "keyword_card_rulings"} <= tables:
        # Found by the build (kb.load.page_tables): the same rulings, without reading every card ruling.
        rows = conn.execute(
            f"select c.id, c.card_id, c.card, c.date, c.text from"
            f" (select distinct card_ruling_id, card, date from keyword_card_rulings where keyword in ({marks})"
            f"  order by card, date, card_ruling_id limit ?) k"
            f" join card_rulings c on c.id = k.card_ruling_id order by k.card, k.date, k.card_ruling_id",
            [*titles, card_rulings_wanted]).fetchall()
        out["card_rulings"] = [{"id": i, "card_id": c, "card": name, "date": d, "text": t}
                               for i, c, name, d, t in rows]
    elif "card_rulings" in tables:
        # Bounded: tens of thousands of card rulings; the page lists MAX_LIST of them.
        rows = conn.execute(
            "select id, card_id, card, date, text from card_rulings where "
            + " or ".join("text like ?" for _ in titles) + " order by card, date limit ?",
            [f"%{t}%" for t in titles] + [MAX_LIST * 4]).fetchall()
        out["card_rulings"] = [{"id": i, "card_id": c, "card": name, "date": d, "text": t}
                               for i, c, name, d, t in rows if any(w.search(t or "") for w in words)]
    return out


def _linked_rulings(conn, lang: str, release: str, numbers: list[str], tables: set[str]) -> tuple[list[dict], list[dict]]:
    """(wiki rulings, card rulings) linked to these rules by the ruling linker, in any release (by lineage).

    Each says how it was linked (cited, keyword+similarity, similarity), how strongly, the number
    of this release it applies and the number it had in the release it was written for.
    """
    from kb.ruling_links.read import rulings_of_rules

    found = rulings_of_rules(conn, lang, release, numbers, limit=MAX_LIST * 2)["rulings"]
    wiki, card = [], []
    for r in found:
        best = max(r["links"], key=lambda link: link["score"] or 0)
        common = {"how": best["how"], "score": best["score"], "linked_number": best["number"],
                  "written": best["written"], "lang": r["lang"]}
        if r["kind"] == "wiki":
            if not r["preferred"]:
                continue  # the same ruling from another copy of its page
            row = conn.execute("select page_title, keyword, section, depth, parent_id, is_example, quoted_release"
                               " from rulings where id = ?", [r["id"]]).fetchone()
            wiki.append({"id": r["id"], "text": r["text"], **common, **dict(zip(
                ("page_title", "keyword", "section", "depth", "parent_id", "is_example", "quoted_release"), row))})
        else:
            card.append({"id": r["id"], "card_id": r["card_id"], "card": r["card"], "date": r["date"],
                         "text": r["text"], **common})
    return wiki, card


def _cards_of_rulings(conn, ruling_ids: list[int], tables: set[str]) -> list[dict]:
    if not ruling_ids or not {"card_mentions", "cards"} <= tables:
        return []
    marks = ",".join("?" for _ in ruling_ids)
    return [{"id": i, "name_en": en, "name_ja": ja, "mana_cost": cost, "type_line": t,
             "why": "named in a ruling"} for i, en, ja, cost, t in conn.execute(
        f"select distinct c.id, c.name_en, c.name_ja, c.mana_cost, c.type_line from card_mentions m"
        f" join cards c on c.id = m.card_id where m.ruling_id in ({marks}) order by c.name_en", ruling_ids)]


def _scenario_cards(conn, names: list[str], index: links.CardIndex, tables: set[str]) -> list[dict]:
    ids = sorted({i for i in (index.find(n) for n in names) if i is not None})
    if not ids or "cards" not in tables:
        return []
    marks = ",".join("?" for _ in ids)
    return [{"id": i, "name_en": en, "name_ja": ja, "mana_cost": cost, "type_line": t, "why": "used by a scenario"}
            for i, en, ja, cost, t in conn.execute(
                f"select id, name_en, name_ja, mana_cost, type_line from cards where id in ({marks}) order by name_en",
                ids)]


def merge_cards(*groups: list[dict]) -> list[dict]:
    """Cards from several sources, each once, with every reason it is listed."""
    out: dict[int, dict] = {}
    for group in groups:
        for card in group:
            if card["id"] in out:
                if card["why"] not in out[card["id"]]["why"]:
                    out[card["id"]]["why"] += "; " + card["why"]
            else:
                out[card["id"]] = dict(card)
    return sorted(out.values(), key=lambda c: c["name_en"] or "")


def _elsewhere(conn, number: str, release: str, lang: str, tables: set[str]) -> str:
    """Where to look instead: the number this rule (numbered so today) had in ``release``, or where
    ``number`` exists."""
    if {"rule_lineage", "lineages"} <= tables:
        row = conn.execute(
            "select l.number from lineages g join rule_lineage l on l.lineage_id = g.lineage_id"
            " where g.newest_number = ? and l.lang = ? and l.release = ?", [number, lang, release]).fetchone()
        if row:
            return (f"; the rule numbered {number} today was {row[0]} in that release:"
                    f" /-/rules/{row[0]}?release={release}")
    row = conn.execute("select min(release), max(release) from rules where lang = ? and number = ?",
                       [lang, number]).fetchone()
    if row and row[0]:
        return f"; releases {row[0]} to {row[1]} have a rule {number}: try /-/rules/{number}?release={row[1]}"
    return "; search for it at /-/search"


def _aligned_partner(conn, tables: set[str], release: str, lang: str, other_lang: str,
                     other: list[RuleView]) -> dict[str, str]:
    """other number → our number within one release: by ``rule_alignment`` where the build aligned
    the translation (the Japanese 805.10g is the English 805.10f), else by number."""
    partner = {v.number: v.number for v in other}
    if "rule_alignment" not in tables or {lang, other_lang} == {lang} or "en" not in (lang, other_lang):
        return partner
    translation = other_lang if lang == "en" else lang
    rows = conn.execute("select number, number_en from rule_alignment where release = ? and lang = ?",
                        [release, translation]).fetchall()
    if not rows:
        return partner
    to_en = dict(rows)
    if other_lang == translation:
        return {v.number: to_en.get(v.number) for v in other}
    from_en = {en: n for n, en in rows if en}
    return {v.number: from_en.get(v.number) for v in other}


def _other_language(db: sqlite_utils.Database, releases: dict, tables: set[str], number: str, release: str,
                    lang: str, primary: list[RuleView], other_lang: str | None = None
                    ) -> tuple[str | None, list[RuleView], dict[str, str], str | None]:
    """The rule in the other language: ``(its release, its rows, other number → our number, a note)``.

    The same release when it has that language; else the newest whole release of that language not
    after ``release``, paired through the lineage (so a renumbered rule meets its translation).
    """
    conn = db.conn
    numbers = [v.number for v in primary]
    other_lang = other_lang or ("ja" if lang == "en" else "en")
    language = {"ja": "Japanese", "zh": "Chinese", "ko": "Korean"}.get(other_lang, "English")
    if release in releases.get(other_lang, {}):
        other = _find(db, number, release, other_lang)
        if not other and "rule_alignment" in tables and lang == "en":
            # The rule under another number in the translation (805.10f is the Japanese 805.10g).
            row = conn.execute("select number from rule_alignment where release = ? and lang = ? and number_en = ?",
                               [release, other_lang, number]).fetchone()
            other = _find(db, row[0], release, other_lang) if row else []
        # A release known only from a quoted excerpt lacks most rules: then the newest whole one.
        if other or releases[other_lang][release] == "whole":
            return release, other, _aligned_partner(conn, tables, release, lang, other_lang, other), None
    other_release = newest_whole(releases, other_lang, not_after=release)
    if other_release is None:
        whole = sorted(r for r, c in releases.get(other_lang, {}).items() if c == "whole")
        return None, [], {}, (f"No whole {language} release on or before {release}"
                              + (f"; the first is {whole[0]}" if whole else ""))
    other: list[RuleView] = []
    partner: dict[str, str] = {}
    if "rule_lineage" in tables:
        by_lineage = {lid: n for n, lid in _lineage_map(conn, lang, release, numbers).items()}
        marks = ",".join("?" for _ in by_lineage) or "null"
        found = {n: lid for n, lid in conn.execute(
            f"select number, lineage_id from rule_lineage where lang = ? and release = ?"
            f" and lineage_id in ({marks})", [other_lang, other_release, *by_lineage])}
        # The top of the other language's subtree: its number for our rule's lineage.
        head = next((n for n, lid in found.items() if by_lineage.get(lid) == primary[0].number), None)
        if head:
            other = [v for v in _find(db, head, other_release, other_lang) if v.number in found]
            partner = {v.number: by_lineage[found[v.number]] for v in other}
    note = (f"{language} from release {other_release}, the newest {language} release before {release}"
            + ("" if other else f"; it has no {language} text for this rule"))
    return other_release, other, partner, note


def read_rule(conn: sqlite3.Connection, path: str | None, number: str, release: str | None,
              pair: tuple[str, str] | None = None) -> dict:
    """Everything the rule page shows, as plain data. Raises ``UnknownRelease`` or ``RuleNotFound``.

    ``pair`` is the two languages side by side (default English and Japanese); the first is the
    page's language when the release has it."""
    from . import resolution

    db = sqlite_utils.Database(conn)
    tables, releases = file_facts(conn, path)
    if release is None:
        release = (newest_whole(releases, pair[0]) if pair else None) or newest_whole(releases, "en") \
            or newest_whole(releases, "ja")
        if release is None:
            raise UnknownRelease("the database has no release; run `kb build`")
    first, second = pair or ("en", "ja")
    if release in releases.get(first, {}):
        lang = first
    elif release in releases.get(second, {}):
        lang, second = second, first
    elif release in releases.get("en", {}):
        lang = "en"
    else:
        check_release(db, release)
        lang = "en"
    if second == lang:
        second = "ja" if lang == "en" else "en"
    primary = _find(db, number, release, lang)
    if not primary and lang == "en" and release in releases.get(second, {}):
        # A rule only the translation of the release has (the Japanese 805.10f, which English removed).
        lang, second = second, "en"
        primary = _find(db, number, release, lang)
        if not primary:
            lang, second = "en", lang
    if not primary:
        raise RuleNotFound(f"no rule {number} in release {release} ({lang})" + _elsewhere(conn, number, release, lang, tables))
    numbers = [v.number for v in primary]
    other_lang = second
    other_release, other, partner, note = _other_language(db, releases, tables, number, release, lang, primary,
                                                          other_lang)
    rows = _pair_rows(lang, primary, other, partner, other_lang)
    contents = None
    if len(rows) > MAX_ROWS:
        for depth in (2, 1, 0):
            kept = [r for r in rows if r["depth"] <= depth]
            if len(kept) <= MAX_CONTENTS or depth == 0:
                contents = {"rows": len(rows), "depth": depth}
                rows = kept
                break
    head_views = {lang: primary[0], other_lang: other[0] if other and partner.get(other[0].number) == primary[0].number else None}
    data: dict[str, Any] = {
        "ok": True, "number": primary[0].number, "release": release, "lang": lang, "langs": [lang, other_lang],
        "releases": {lang: release, other_lang: other_release},
        "title": {k: (v.title if v else None) for k, v in head_views.items()},
        "note": note, "rows": rows, "contents": contents, "missing": [],
        # Each language's rules as found (the same rows, for tools that read one language).
        lang: [_plain(v) for v in primary[:MAX_ROWS]], other_lang: [_plain(v) for v in other[:MAX_ROWS]],
    }
    cites, cited_by = _references(conn, release, lang, numbers)
    data["cites"], data["cited_by"] = cites[:MAX_LIST], cited_by[:MAX_LIST]
    data["counts"] = {"cites": len(cites), "cited_by": len(cited_by)}
    index = links.card_index_for(path, conn)
    # A keyword rule (701.x, 702.x) brings its keyword's rulings, cards and card rulings; a page of
    # many keywords (701, 702) leaves them to each keyword's page.
    keyword_titles = sorted({(v.title_en or v.title) for v in primary
                             if v.kind == "numbered" and v.parent in ("701", "702") and (v.title_en or v.title)})
    if len(keyword_titles) > MAX_KEYWORDS:
        keyword_titles = []
    linked, linked_cards = _linked_rulings(conn, lang, release, numbers, tables)
    # The page keeps MAX_LIST card rulings, the linked ones first: the keyword's first MAX_LIST + as many
    # as were linked are enough (those linked too are left out below). Flying has 900, Cast 9,000.
    material = keyword_material(conn, keyword_titles, tables, index, MAX_LIST + len(linked_cards))
    seen = {r["id"] for r in linked}
    rulings = linked + [{**r, "how": "its page's keyword"} for r in material["rulings"] if r["id"] not in seen]
    data["rulings"] = rulings[:MAX_LIST]
    seen_cards = {r["id"] for r in linked_cards}
    data["card_rulings"] = (linked_cards + [{**r, "how": "names the keyword"} for r in material["card_rulings"]
                                            if r["id"] not in seen_cards])[:MAX_LIST]
    if "scenario_rules" in tables:
        # The build linked each scenario to its rules in every release, by title: old numbers too.
        marks = ",".join("?" for _ in numbers)
        ids = [r[0] for r in conn.execute(
            f"select distinct scenario_id from scenario_rules where release = ? and lang = ? and number in ({marks})",
            [release, lang, *numbers])]
        scenarios = resolution.scenarios_by_id(ids)
    else:
        newest = _newest_numbers(conn, lang, release, numbers[:1], tables) if lang == "en" else numbers[:1]
        scenarios = resolution.scenarios_for_rules(newest or numbers[:1])
    data["scenarios"] = scenarios
    data["card_count"] = material.get("card_count")
    data["cards"] = merge_cards(material["cards"], _cards_of_rulings(conn, [r["id"] for r in rulings], tables),
                                _scenario_cards(conn, [n for s in scenarios for n in s.get("cards", [])], index, tables)
                                )[:MAX_LIST]
    if "rule_lineage" in tables:
        data["history"] = _history(conn, primary[0].number, release, lang, tables)
    else:
        data["history"] = []
        data["missing"].append("rule_lineage")
    for table in ("rulings", "cards"):
        if table not in tables:
            data["missing"].append(table)
    if not resolution.executable_rules_available():
        data["missing"].append("scenarios")
    return data


# ---------------------------------------------------------------- the view


def parse_rule_args(args) -> dict:
    """Validate the query string of a rule page; raise :class:`BadParameter`.

    >>> parse_rule_args({"release": "20260116", "show": "ja"})
    {'release': '20260116', 'show': 'ja'}
    >>> parse_rule_args({"show": "fr"})
    Traceback (most recent call last):
    ...
    kb.plugin.rule_page.BadParameter: show must be both, en, ja, zh or ko, not 'fr'
    >>> parse_rule_args({"with": "zh"})
    {'release': None, 'show': 'both', 'pair': ('en', 'zh')}
    >>> parse_rule_args({"lang": "zh", "with": "zh"})
    Traceback (most recent call last):
    ...
    kb.plugin.rule_page.BadParameter: lang and with must be two different languages, not 'zh' twice
    """
    release = (args.get("release") or "").strip() or None
    if release is not None and not _RELEASE.fullmatch(release):
        raise BadParameter(f"release must be a date as YYYYMMDD, not {release!r}")
    show = args.get("show") or "both"
    if show not in SHOW:
        raise BadParameter(f"show must be both, en, ja, zh or ko, not {show!r}")
    pair = ("en", "ja")
    if args.get("lang") or args.get("with"):
        first, second = (args.get("lang") or "en"), (args.get("with") or "")
        for value, name in ((first, "lang"), (second, "with")):
            if value and value not in LANGUAGES:
                raise BadParameter(f"{name} must be one of {', '.join(LANGUAGES)}, not {value!r}")
        second = second or ("ja" if first == "en" else "en")
        if second == first:
            raise BadParameter(f"lang and with must be two different languages, not {first!r} twice")
        pair = (first, second)
    out = {"release": release, "show": show}
    if pair != ("en", "ja"):
        out["pair"] = pair
    return out


def _with_html(item: dict | None, datasette, release: str | None) -> dict | None:
    if not item:
        return item
    return {**item, "text_html": links.link_text(item["text"], datasette, release=release),
            "examples_html": [links.link_text(e, datasette, release=release) for e in item["examples"]]}


def decorate(datasette, database: str, index: links.CardIndex, data: dict) -> dict:
    """The page data with what templates need added: texts escaped with rule numbers and card names
    linked, and every URL built. A new dict; ``data`` (cached, and served as JSON) is left as it is."""
    releases = data["releases"]
    page = dict(data)
    contents = data.get("contents")
    langs = data.get("langs") or ["en", "ja"]
    page["rows"] = [{**row, **{lg: _with_html(row.get(lg), datasette, releases.get(lg)) for lg in langs},
                     # As contents, a row links to its own page; else to its anchor on this one.
                     "href": links.rule_url(datasette, row["number"], data["release"])
                     if contents and row["number"] != data["number"] else f"#{row.get('id', row['number'])}"}
                    for row in data["rows"]]

    def rule_url(number, release=None):
        return links.rule_url(datasette, number, release)

    page["rulings"] = [{**r, "url": datasette.urls.row(database, "rulings", str(r["id"])),
                        "text_html": links.link_text(r["text"], datasette, database=database, cards=index)}
                       for r in data.get("rulings", [])]
    page["card_rulings"] = [{**r, "url": datasette.urls.row(database, "card_rulings", str(r["id"])),
                             "card_url": links.card_url(datasette, database, r["card_id"]) if r["card_id"] else None,
                             "text_html": links.link_text(r["text"], datasette, database=database, cards=index)}
                            for r in data.get("card_rulings", [])[:MAX_CARD_RULINGS_SHOWN]]
    page["card_rulings_total"] = len(data.get("card_rulings", []))
    page["cards"] = [{**c, "url": links.card_url(datasette, database, c["id"], c.get("name_en"))}
                     for c in data.get("cards", [])]
    page["cites"] = [{**r, "url": rule_url(r["number"], data["release"])} for r in data.get("cites", [])]
    page["cited_by"] = [{**r, "url": rule_url(r["number"], data["release"])} for r in data.get("cited_by", [])]
    page["history"] = [{**h, "url": rule_url(h["number"], h["first_release"])} for h in data.get("history", [])]
    page["scenarios"] = [{**sc, "page_url": datasette.urls.path(sc["url"]),
                          "rule_links": [(n, rule_url(n)) for n in sc["rules"]]}
                         for sc in data.get("scenarios", [])[:MAX_SCENARIOS]]
    page["scenarios_total"] = len(data.get("scenarios", []))
    page["database"] = database
    return page


async def rule_view(datasette, request):
    number = request.url_vars["number"]
    as_json = wants_json(request)
    try:
        params = parse_rule_args(request.args)
    except BadParameter as e:
        return await error_response(datasette, request, as_json, 400, str(e), title=f"Rule {number}")
    db = datasette.get_database()
    try:
        data = await cached_read(db, ("rule", number, params["release"], params.get("pair")),
                                 lambda conn: read_rule(conn, db.path, number, params["release"], params.get("pair")))
    except UnknownRelease as e:
        return await error_response(datasette, request, as_json, 400, str(e), title=f"Rule {number}")
    except RuleNotFound as e:
        return await error_response(datasette, request, as_json, 404, str(e), title=f"Rule {number}")
    if as_json:
        return Response.json(data)
    html_key = HtmlCache.key(db, request, "rule")
    html = HTML.get(html_key)
    if html is None:
        page = await page_context(datasette, request, db, data, params["show"],
                                  key=("rule", number, params["release"], params.get("pair")))
        html = await fragments.render_page(datasette, "kb_rule.html", page, request)
        HTML.put(html_key, html)
    return Response.html(html)


def switch_urls(request) -> dict[str, str]:
    """The page's address with ``show`` set to each language (other parameters kept)."""
    from urllib.parse import urlencode

    kept = [(k, v) for k in request.args.keys() if k not in ("show", "_format") for v in request.args.getlist(k)]
    return {show: request.path + "?" + urlencode(kept + [("show", show)]) for show in SHOW}


def language_picker(request, data: dict) -> dict:
    """The two languages shown and the links that pick another pair (any two languages side by side)."""
    from urllib.parse import urlencode

    langs = data.get("langs") or ["en", "ja"]
    kept = [(k, v) for k in request.args.keys() if k not in ("lang", "with", "show", "_format")
            for v in request.args.getlist(k)]
    choices = []
    for lg, name in LANGUAGES.items():
        if lg == langs[0]:
            continue
        choices.append({"lang": lg, "name": name, "current": lg == langs[1],
                        "url": request.path + "?" + urlencode(kept + [("lang", langs[0]), ("with", lg)])})
    return {"langs": langs, "names": [LANGUAGES.get(lg, lg) for lg in langs], "choices": choices}


def json_url(request) -> str:
    from urllib.parse import urlencode

    kept = [(k, v) for k in request.args.keys() if k not in ("show", "_format") for v in request.args.getlist(k)]
    return request.path + ".json" + ("?" + urlencode(kept) if kept else "")


async def page_context(datasette, request, db, data: dict, show: str, key: tuple | None = None) -> dict:
    """Template variables: the page data decorated (:func:`decorate`, kept per process with the data
    when ``key`` is given and the database immutable), and what depends on this request."""
    decorated = CACHE.get((db.path, "decorated", *key)) if key and not db.is_mutable else None
    if decorated is None:
        index = await links.load_card_index(datasette, db.name)
        decorated = decorate(datasette, db.name, index, data)
        if key and not db.is_mutable:
            CACHE.put((db.path, "decorated", *key), decorated)
    page = dict(decorated)
    page["show"] = show
    page["switch"] = switch_urls(request)
    page["picker"] = language_picker(request, data)
    page["json_url"] = json_url(request)
    return page


async def rule_by_name_view(datasette, request):
    """``/-/rules/Discover``, ``/-/rules/発見``: a redirect to the rule's number in the release asked for
    (the newest by default), or a 404 saying when the rule was there or which title is nearest."""
    from urllib.parse import unquote, urlencode

    from kb.rules import resolve_name

    name = unquote(request.url_vars["name"]).strip()
    as_json = wants_json(request)
    try:
        params = parse_rule_args(request.args)
    except BadParameter as e:
        return await error_response(datasette, request, as_json, 400, str(e), title=name)
    if len(name) > 100:
        return await error_response(datasette, request, as_json, 404,
                                    "a rule is named by its number (701.57a) or a keyword title, not "
                                    f"{len(name)} characters", title="Rule not found")
    db = datasette.get_database()

    def read(conn):
        import sqlite_utils

        from kb.database import newest_release

        database = sqlite_utils.Database(conn)
        release = params["release"] or newest_release(database)
        check_release(database, release, "en")
        return release, resolve_name(database, name, release)

    try:
        release, number = await cached_read(db, ("rule-name", name.casefold(), params["release"]), read)
    except UnknownRelease as e:
        return await error_response(datasette, request, as_json, 400, str(e), title=name)
    except RuleNotFound as e:
        return await error_response(datasette, request, as_json, 404, str(e), title=name)
    kept = [(k, v) for k in request.args.keys() if k != "_format" for v in request.args.getlist(k)]
    target = datasette.urls.path(f"/-/rules/{number}" + (".json" if as_json else ""))
    return Response.redirect(target + ("?" + urlencode(kept) if kept else ""))


ROUTES = [
    (rf"^/-/rules/{NUMBER}(?:\.(?P<format>json))?$", rule_view),
    (r"^/-/rules/(?P<name>[^/]+?)(?:\.(?P<format>json))?$", rule_by_name_view),
]
