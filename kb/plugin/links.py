"""Links in cells and texts: rule numbers to rule pages, card names to card rows.

Only our own tables' text cells are touched; everything else is left to
Datasette (``render_cell`` returns ``None``). Text is escaped before links are
put in, so nothing from the database is ever rendered as HTML.

Card names are found with a :class:`CardIndex` of the ``cards`` table, read
once per database file (the database is served immutable) and kept for the
life of the process.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from kb.sqlite import sqlite3
import threading
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from ingest.rule_refs import find_citations

_NUMBER_CELL = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
# A text without a decimal digit cites no rule (find_citations needs one).
_DIGIT = re.compile(r"\d")
# Columns whose value is itself one rule number.
_NUMBER_COLUMNS = {"number", "rule_number", "parent", "from_number", "to_number", "cr_number",
                   "old_number", "new_number", "newest_number", "first_number", "last_number",
                   "previous_number", "suggested_number", "cited_number"}
# Columns whose value is one card name (outside the cards table itself).
_CARD_COLUMNS = {"card", "name_en", "name_ja", "other_face", "card_name"}
_CARD_TABLES = {"card_rulings", "card_mentions", "wiki_card_blocks", "card_faces", "card_names",
                "scenario_cards", "cards"}
# Text columns in which card names (as well as rule numbers) are linked.
_CARD_TEXT_TABLES = {"rulings", "card_rulings", "wiki_sections", "stale_citations", "scenarios"}
_LATIN = re.compile(r"[A-Za-z]")


def rule_url(datasette, number: str, release: str | None = None) -> str:
    url = datasette.urls.path(f"/-/rules/{number}")
    return f"{url}?release={release}" if release else url


def card_url(datasette, database: str, card_id: int, name: str | None = None) -> str:
    """The card's page (``/-/cards/<name>``) when its name is known, else its row in the ``cards`` table."""
    if name:
        return datasette.urls.path("/-/cards/" + quote(name, safe=""))
    return datasette.urls.row(database, "cards", str(card_id))


@dataclass
class CardIndex:
    """Card names (English and Japanese) → card id, and one pattern finding them in text."""

    ids: dict[str, int] = field(default_factory=dict)
    pattern: re.Pattern | None = None
    names: dict[int, str] = field(default_factory=dict)  # card id → English name, for card page links

    @classmethod
    def from_connection(cls, conn: sqlite3.Connection) -> CardIndex:
        if not conn.execute("select 1 from sqlite_master where name = 'cards'").fetchone():
            return cls()
        ids: dict[str, int] = {}
        english: dict[int, str] = {}
        in_text: set[str] = set()
        columns = {row[1] for row in conn.execute("pragma table_info(cards)")}
        sources = "sources" if "sources" in columns else "null"
        for card_id, name_en, name_ja, card_sources in conn.execute(
                f"select id, name_en, name_ja, {sources} from cards order by id"):
            if name_en:
                english[card_id] = name_en
            # Names are found in running text only for the cards the wiki, the chosen Oracle records or
            # Forge speak of: a pattern of every card of every set (45,000 names) takes seconds to build,
            # and finds "Exile" and "Opt" in ordinary sentences. A cell holding a card name links for all.
            if card_sources is None or _has_other_sources(card_sources):
                in_text.update(n for n in (name_en, name_ja) if n)
            for name in (name_en, name_ja):
                if name and name not in ids:
                    ids[name] = card_id
            # "Fire // Ice" is also found as its halves' names written with one slash.
            if name_en and " // " in name_en:
                ids.setdefault(name_en.replace(" // ", "/"), card_id)
        # Short names ("Ice", "Fire") would be found inside ordinary words: three characters at least.
        names = sorted((n for n in ids if len(n) >= 3 and (n in in_text or n.replace("/", " // ") in in_text)),
                       key=len, reverse=True)
        if not names:
            return cls(ids, names=english)
        # A Latin name must stand as a word of its own; a Japanese one may touch other text.
        pattern = re.compile(rf"(?<![A-Za-z0-9])(?:{trie_pattern(names)})(?![A-Za-z0-9])")
        return cls(ids, pattern, english)

    def find(self, name: str | None) -> int | None:
        return self.ids.get(name) if name else None

    def spans(self, text: str) -> list[tuple[int, int, int]]:
        """``(start, end, card_id)`` of every card name in ``text``."""
        if self.pattern is None or not text:
            return []
        return [(m.start(), m.end(), self.ids[m.group(0)]) for m in self.pattern.finditer(text)]


def _has_other_sources(sources: str) -> bool:
    """Whether a ``sources`` JSON list names a file outside ``cards/oracle_sets/`` (counted, not parsed:
    this runs for every card when a server first links a page)."""
    if "oracle_sets/" not in sources:
        return True
    entries = sources.count('", "') + 1
    return entries > sources.count("oracle_sets/")


def trie_pattern(words: list[str]) -> str:
    """One regular expression for ``words`` with their common prefixes shared (a trie), longest first:
    hundreds of card names are matched in one pass instead of trying each name at each position.

    >>> trie_pattern(["Shock", "Shockwave", "Shivan"])
    'Sh(?:ivan|ock(?:wave)?)'
    >>> bool(re.fullmatch(trie_pattern(["Fire // Ice", "Fire"]), "Fire // Ice"))
    True
    """
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        ends = "" in node
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends:
            return f"(?:{body})?"
        return body

    return build(trie)


_indexes: dict[str, CardIndex] = {}
_lock = threading.Lock()


def card_index_for(path: str | None, conn: sqlite3.Connection) -> CardIndex:
    """The card index of the database at ``path`` (read with ``conn`` the first time)."""
    key = path or f"memory:{id(conn)}"
    index = _indexes.get(key)
    if index is None:
        index = CardIndex.from_connection(conn)
        with _lock:
            _indexes[key] = index
    return index


def cached_card_index(path: str | None) -> CardIndex | None:
    return _indexes.get(path) if path else None


async def load_card_index(datasette, database: str) -> CardIndex:
    db = datasette.get_database(database)
    cached = cached_card_index(db.path)
    if cached is not None:
        return cached
    return await db.execute_fn(lambda conn: card_index_for(db.path, conn))


def _rule_spans(text: str) -> list[tuple[int, int, str]]:
    if not _DIGIT.search(text):
        return []
    spans, last = [], 0
    for cite in find_citations(text):
        if cite.kind != "rule":
            continue
        # The cited text may be "rules 701.23a–c"; link the first number's digits.
        start = text.find(cite.number, cite.start)
        if start < last or start < 0:
            continue
        spans.append((start, start + len(cite.number), cite.number))
        last = start + len(cite.number)
    return spans


def link_text(text: str | None, datasette, *, release: str | None = None, database: str | None = None,
              cards: CardIndex | None = None) -> Markup:
    """``text`` escaped, with rule numbers linked to rule pages and (given ``cards``) card names to card rows.

    >>> class Urls:
    ...     def path(self, p): return p
    ...     def row(self, db, table, pk): return f"/{db}/{table}/{pk}"
    >>> class DS: urls = Urls()
    >>> str(link_text("<b>see 701.57a</b> and Shock", DS(), release="20260116", database="kb",
    ...               cards=CardIndex({"Shock": 7}, re.compile("Shock"))))
    '&lt;b&gt;see <a href="/-/rules/701.57a?release=20260116">701.57a</a>&lt;/b&gt; and <a class="kb-card" href="/kb/cards/7">Shock</a>'
    """
    if not text:
        return Markup("")
    spans: list[tuple[int, int, str, object]] = [(s, e, "rule", n) for s, e, n in _rule_spans(text)]
    if cards is not None and database:
        spans += [(s, e, "card", c) for s, e, c in cards.spans(text)]
    if not spans:
        return Markup(escape(text))
    spans.sort(key=lambda s: (s[0], -s[1]))
    out, last = [], 0
    for start, end, kind, value in spans:
        if start < last:
            continue  # overlaps a link already made
        out.append(escape(text[last:start]))
        shown = escape(text[start:end])
        if kind == "rule":
            out.append(Markup(f'<a href="{escape(rule_url(datasette, str(value), release))}">{shown}</a>'))
        else:
            url = card_url(datasette, database, int(value), cards.names.get(int(value)) if cards else None)
            out.append(Markup(f'<a class="kb-card" href="{escape(url)}">{shown}</a>'))
        last = end
    out.append(escape(text[last:]))
    return Markup("").join(out)


def _release_of(row) -> str | None:
    for key in ("release", "new_release", "read_in"):
        try:
            value = row[key]
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(value, str) and re.fullmatch(r"[0-9]{8}", value):
            return value
    return None


def render_rule_links(row, value, column, table, datasette):
    """Rule numbers in a text cell (or a number column) as links; ``None`` when there are none."""
    if not isinstance(value, str) or not value:
        return None
    release = _release_of(row)
    if column in _NUMBER_COLUMNS and _NUMBER_CELL.fullmatch(value):
        return Markup(f'<a href="{escape(rule_url(datasette, value, release))}">{escape(value)}</a>')
    if not _rule_spans(value):
        return None
    return link_text(value, datasette, release=release)


def render_cell_links(row, value, column, table, database, datasette):
    """The ``render_cell`` hook's work: card names and rule numbers as links, else ``None``.

    Card names need the card index, read once per database; until it is read
    this returns an awaitable (Datasette 0.65 and 1.0 both await one).
    """
    if not isinstance(value, str) or not value or database is None:
        return None
    if table is None:  # a canned query or SQL: rule numbers of its rows link as in a table
        return render_rule_links(row, value, column, table, datasette)
    wants_cards = (table in _CARD_TABLES and column in _CARD_COLUMNS and not (table == "cards" and column != "other_face")) \
        or (table in _CARD_TEXT_TABLES and column == "text")
    if not wants_cards:
        return render_rule_links(row, value, column, table, datasette)
    try:
        path = datasette.get_database(database).path
    except KeyError:
        return render_rule_links(row, value, column, table, datasette)
    index = cached_card_index(path)
    if index is None:
        async def later():
            loaded = await load_card_index(datasette, database)
            return _render_with_cards(row, value, column, table, database, datasette, loaded)
        return later()
    return _render_with_cards(row, value, column, table, database, datasette, index)


def _render_with_cards(row, value, column, table, database, datasette, index: CardIndex):
    if column in _CARD_COLUMNS:
        card_id = index.find(value)
        if card_id is None:
            return None
        url = card_url(datasette, database, card_id, index.names.get(card_id))
        return Markup(f'<a class="kb-card" href="{escape(url)}">{escape(value)}</a>')
    if not index.spans(value) and not _rule_spans(value):
        return None
    return link_text(value, datasette, release=_release_of(row), database=database, cards=index)
