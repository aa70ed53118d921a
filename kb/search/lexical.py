"""Relaxed lexical retrieval: FTS5 bm25 over the OR of a question's words.

Every word and phrase of a :class:`~.query.QueryPlan` is a quoted FTS5 phrase
(user input never reaches FTS5 syntax), ORed together, so a rule needs only
some of them; bm25 adds up what each matched phrase is worth (a rare word more
than a common one), so rules matching more, and rarer, words rank first.
Keyword names are listed twice: bm25 counts each phrase of the query, so a
name weighs double. The default search reads the small ``search_current``
index (newest release of each language); a search of one release reads the
CR tables restricted inside the MATCH to that release (:func:`.fts.scoped`).

>>> from .query import Term, QueryPlan
>>> match_expression(QueryPlan("x", terms=[Term("first strike", "en", "name"), Term("stop", "en", "word")]))
'"first strike" OR "first strike" OR "stop"'
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .fts import scope_tokens, scoped, search_sql
from .query import QueryPlan

CR_KINDS = ("rule", "example", "glossary")
WEIGHT = {"name": 2, "alias": 1, "phrase": 1, "word": 1, "correction": 1}


@dataclass(frozen=True)
class LexicalHit:
    rowid: int | None  # in search_current (None for a search of one release)
    kind: str
    release: str
    lang: str
    number: str | None
    title: str | None
    text: str
    rank: float  # bm25: lower is better


def _quoted(phrase: str) -> str:
    return '"' + phrase.replace('"', " ").strip() + '"'


def match_expression(plan: QueryPlan, lang: str | None = None) -> str:
    """The FTS5 MATCH expression of ``plan``: its phrases ORed, names of several words twice;
    with ``lang``, only the phrases of that language (and those of none, numbers). '' when none."""
    parts: list[str] = []
    for term in plan.terms:
        if lang is not None and term.lang not in (lang, None):
            continue
        quoted = _quoted(term.phrase)
        if quoted == '""':
            continue
        weight = WEIGHT.get(term.origin, 1) if " " in term.phrase.strip() else 1
        parts.extend([quoted] * weight)
    return " OR ".join(parts)


CURRENT_OR_SQL = """
select s.id, s.kind, s.release, s.lang, s.number, s.title, s.text, bm25(search_current_fts) as rank
from search_current_fts join search_current s on s.id = search_current_fts.rowid
where search_current_fts match :query
  and (:lang is null or s.lang = :lang)
  and s.kind in (select value from json_each(:kinds))
  and (:section is null or s.number = :section or s.number like :section || '.%'
       or s.number glob :section || '[a-z]' or (length(:section) = 1 and substr(s.number, 1, 1) = :section))
order by rank limit :limit
"""


RANGED_OR_SQL = CURRENT_OR_SQL.replace(
    "where search_current_fts match :query",
    "where search_current_fts match :query and search_current_fts.rowid between :low and :high")

# Rows of card text and card rulings outnumber the rules ten to one, and a common word
# (graveyard) is in thousands of them: bm25 ranks at most this many of them, in row order.
OTHER_CANDIDATES = 800

OTHERS_SQL = """
select s.id, s.kind, s.release, s.lang, s.number, s.title, s.text, ranked.rank
from (select rowid as id, bm25(search_current_fts) as rank from search_current_fts
      where search_current_fts match :query and rowid between :low and :high limit :candidates) ranked
join search_current s on s.id = ranked.id
where (:lang is null or s.lang = :lang) and s.kind in (select value from json_each(:kinds))
order by ranked.rank limit :limit
"""

RULES_OR_SQL = """
select s.id, s.kind, s.release, s.lang, s.number, s.title, s.text, bm25(search_rules_fts) as rank
from search_rules_fts join search_current s on s.id = search_rules_fts.rowid
where search_rules_fts match :query
  and (:lang is null or s.lang = :lang)
  and s.kind in (select value from json_each(:kinds))
  and (:section is null or s.number = :section or s.number like :section || '.%'
       or s.number glob :section || '[a-z]' or (length(:section) = 1 and substr(s.number, 1, 1) = :section))
order by rank limit :limit
"""

RULE_LANGS = ("en", "ja")  # the languages search_rules_fts holds

GAP = 2000  # ranges of rows closer than this are read as one


def row_ranges(conn, kinds, lang: str | None) -> list[tuple[int, int]]:
    """The ranges of ``search_current`` ids holding the rows of ``kinds`` in ``lang`` (any: None).

    FTS5 ranks every row a MATCH finds before ``order by rank limit``; a rowid range inside the
    MATCH keeps that to the rows asked for (the rules, not the 90,000 rows of cards), and the
    kind and language are still checked row by row, so the ranges only ever make it faster.
    """
    spans = _spans(conn)
    wanted = sorted(span for (kind, lg), span in spans.items() if kind in kinds and (lang is None or lg == lang))
    merged: list[list[int]] = []
    for low, high in wanted:
        if merged and low <= merged[-1][1] + GAP:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    return [(low, high) for low, high in merged]


_RULES_INDEX: dict = {}


def has_rules_index(conn) -> bool:
    """The database has ``search_rules_fts`` (built since round 3; older ones rank by id ranges)."""
    path = _path(conn)
    if path not in _RULES_INDEX:
        _RULES_INDEX[path] = conn.execute(
            "select 1 from sqlite_master where name = 'search_rules_fts'").fetchone() is not None
    return _RULES_INDEX[path]


def _path(conn) -> str:
    row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
    return row[2] if row and row[2] else f"memory:{id(conn)}"


_SPANS: dict = {}


def _spans(conn) -> dict:
    """{(kind, lang): (first id, last id)} of ``search_current``, once per database file."""
    import os

    row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
    path = row[2] if row and row[2] else f"memory:{id(conn)}"
    stamp = os.stat(path).st_mtime_ns if os.path.exists(path) else None
    cached = _SPANS.get(path)
    if cached is None or cached[0] != stamp:
        cached = _SPANS[path] = (stamp, {(kind, lg): (low, high) for kind, lg, low, high in conn.execute(
            "select kind, lang, min(id), max(id) from search_current group by kind, lang")})
    return cached[1]


def lexical_hits(conn, plan: QueryPlan, *, lang: str | None = None, kinds=CR_KINDS, section: str | None = None,
                 release: str | None = None, limit: int = 80, terms_lang: str | None = None) -> list[LexicalHit]:
    """The best ``limit`` rows for ``plan``, best first; ``terms_lang`` keeps the phrases of one language.

    Rows of the CR kinds are all ranked by bm25; rows of the other kinds (cards, rulings) only
    the first :data:`OTHER_CANDIDATES` the MATCH finds in each range (they are only listed beside
    the answer).
    """
    expression = match_expression(plan, terms_lang)
    if not expression:
        return []
    if release is None:
        params = {"query": expression, "lang": lang, "kinds": json.dumps(list(kinds)), "section": section,
                  "limit": limit}
        if set(kinds) <= set(CR_KINDS) and lang in RULE_LANGS and has_rules_index(conn):
            return [LexicalHit(*row) for row in conn.execute(RULES_OR_SQL, params).fetchall()]
        rows = []
        bounded = not set(kinds) & set(CR_KINDS)
        for low, high in row_ranges(conn, kinds, lang):
            params = {"query": expression, "lang": lang, "kinds": json.dumps(list(kinds)), "section": section,
                      "limit": limit, "low": low, "high": high, "candidates": OTHER_CANDIDATES}
            rows += conn.execute(OTHERS_SQL if bounded else RANGED_OR_SQL, params).fetchall()
        rows.sort(key=lambda r: r[-1])
        return [LexicalHit(*row) for row in rows[:limit]]
    scopes = scope_tokens(_Database(conn), release, lang)
    cr_kinds = tuple(k for k in CR_KINDS if k in kinds)
    if not scopes or not cr_kinds:
        return []
    params = {"query": scoped(expression, scopes), "release": release, "lang": lang, "section": section,
              "limit": limit}
    return [LexicalHit(None, kind, rel, lg, number, title, text, rank)
            for kind, rel, lg, number, title, text, _snippet, rank
            in conn.execute(search_sql(cr_kinds), params).fetchall()]


class _Database:
    """Enough of sqlite_utils.Database for :func:`.fts.scope_tokens` over a plain connection."""

    def __init__(self, conn):
        self.conn = conn

    def execute(self, sql, params=()):
        return self.conn.execute(sql, params)
