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


def lexical_hits(conn, plan: QueryPlan, *, lang: str | None = None, kinds=CR_KINDS, section: str | None = None,
                 release: str | None = None, limit: int = 80, terms_lang: str | None = None) -> list[LexicalHit]:
    """The best ``limit`` rows for ``plan``, best first; ``terms_lang`` keeps the phrases of one language."""
    expression = match_expression(plan, terms_lang)
    if not expression:
        return []
    if release is None:
        rows = conn.execute(CURRENT_OR_SQL, {"query": expression, "lang": lang, "kinds": json.dumps(list(kinds)),
                                             "section": section, "limit": limit}).fetchall()
        return [LexicalHit(*row) for row in rows]
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
