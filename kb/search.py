"""Full-text search over rules, examples and glossary (SQLite FTS5).

``search_sql()`` builds the query, ``search()`` runs it; the CLI, the Datasette
plugin and ``bench/`` share that one string (``kb search --sql`` prints it).
User input never reaches FTS5 syntax: :func:`fts_query` quotes every word, so
``AND``, ``*``, ``"`` or ``:`` in a query are searched for, not interpreted.

>>> fts_query('search "library" OR')
'"search" "library" "OR"'
>>> fts_query('   ')
''
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

import sqlite_utils
from markupsafe import Markup, escape

from .database import check_release

# Japanese text is matched word by word after segmentation (kb.japanese).
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]")


def has_japanese(text: str) -> bool:
    """True when ``text`` has kana or kanji.

    >>> has_japanese("発見"), has_japanese("discover")
    (True, False)
    """
    return bool(_JAPANESE.search(text))


def query_terms(query: str) -> list[str]:
    """The words of a query, as FTS5 will see them (Japanese segmented into words)."""
    terms: list[str] = []
    for word in query.split():
        if has_japanese(word):
            from .japanese import segment_query

            terms.extend(segment_query(word))
        else:
            terms.append(word)
    return terms


def fts_query(query: str) -> str:
    """A safe FTS5 MATCH expression: every word a quoted phrase, all required."""
    # Quotes in the input are dropped rather than escaped: a word is a word.
    terms = (term.replace('"', "") for term in query_terms(query))
    return " ".join(f'"{term}"' for term in terms if term.strip())


# Snippets mark matches with control characters no rule text contains, so that
# brackets in the text ("[Cost]: [Effect]") are never mistaken for marks.
MARK_START, MARK_END = "\x02", "\x03"


@dataclass(frozen=True)
class Hit:
    """One search result."""

    kind: str  # "rule", "example" or "glossary"
    release: str
    lang: str
    number: str | None  # the rule (for an example, the rule it belongs to; for a glossary entry, its first reference)
    title: str | None  # rule title or glossary term
    text: str
    snippet: str
    rank: float

    def as_dict(self) -> dict:
        """The hit as plain data; the snippet marks the matched words [like this]."""
        data = asdict(self)
        data["snippet"] = self.snippet.replace(MARK_START, "[").replace(MARK_END, "]")
        return data

    def snippet_html(self) -> Markup:
        """The snippet, escaped, with the matched words in ``<mark>``."""
        return Markup(str(escape(self.snippet)).replace(MARK_START, "<mark>").replace(MARK_END, "</mark>"))


_SCOPE = """
    {alias}.lang = coalesce(:lang, {alias}.lang)
    and {alias}.release = coalesce(:release, (
        select max(r.release) from releases r where r.lang = {alias}.lang and r.completeness = 'whole'))
"""

_SECTION_FILTER = """
    and (:section is null or {col} = :section or {col} like :section || '.%'
         or {col} glob :section || '[a-z]' or (length(:section) = 1 and substr({col}, 1, 1) = :section))
"""


CURRENT_SQL = """
select search_current.kind, search_current.release, search_current.lang, search_current.number,
       search_current.title, search_current.text,
       snippet(search_current_fts, 0, char(2), char(3), '…', 16) as snippet,
       bm25(search_current_fts) as rank
from search_current_fts join search_current on search_current.rowid = search_current_fts.rowid
where search_current_fts match :query
  and (:lang is null or search_current.lang = :lang)
  and (:section is null or search_current.number = :section or search_current.number like :section || '.%'
       or search_current.number glob :section || '[a-z]'
       or (length(:section) = 1 and substr(search_current.number, 1, 1) = :section))
order by rank limit :limit
"""


def current_sql() -> str:
    """The SQL of the default search: the newest release of each language, one small index.

    Parameters: ``:query`` (from :func:`fts_query`), ``:lang``, ``:section`` (may be null), ``:limit``.
    """
    return CURRENT_SQL


def search_sql(kinds: tuple[str, ...] = ("rule", "example", "glossary")) -> str:
    """The SQL of a search in any release, with parameters ``:query`` (an FTS5
    expression from :func:`fts_query`, restricted with :func:`scoped`),
    ``:release``, ``:lang``, ``:section`` (each may be null) and ``:limit``."""
    parts = []
    if "rule" in kinds:
        parts.append(
            "select 'rule' as kind, rules.release, rules.lang, rules.number, rules.title, rules.text,"
            " snippet(rules_fts, 0, char(2), char(3), '…', 16) as snippet, bm25(rules_fts, 1.0, 0.0) as rank"
            " from rules_fts join rules on rules.rowid = rules_fts.rowid"
            " where rules_fts match :query and" + _SCOPE.format(alias="rules")
            + _SECTION_FILTER.format(col="rules.number")
        )
    if "example" in kinds:
        parts.append(
            "select 'example', examples.release, examples.lang, examples.rule_number, null, examples.text,"
            " snippet(examples_fts, 0, char(2), char(3), '…', 16), bm25(examples_fts, 1.0, 0.0)"
            " from examples_fts join examples on examples.rowid = examples_fts.rowid"
            " where examples_fts match :query and" + _SCOPE.format(alias="examples")
            + _SECTION_FILTER.format(col="examples.rule_number")
        )
    if "glossary" in kinds:
        parts.append(
            "select 'glossary', glossary.release, glossary.lang, json_extract(glossary.rule_refs, '$[0]'),"
            " glossary.term, glossary.definition,"
            " snippet(glossary_fts, 0, char(2), char(3), '…', 16), bm25(glossary_fts, 1.0, 0.0)"
            " from glossary_fts join glossary on glossary.rowid = glossary_fts.rowid"
            " where glossary_fts match :query and" + _SCOPE.format(alias="glossary")
            + " and (:section is null or json_extract(glossary.rule_refs, '$[0]') like :section || '%')"
        )
    return "\nunion all\n".join(parts) + "\norder by rank limit :limit"


def scope_tokens(db: sqlite_utils.Database, release: str | None, lang: str | None) -> list[str]:
    """The ``search_scope`` tokens (``r20260116en``) of the releases a search covers:
    ``release`` in ``lang`` (or in every language that has it), else the newest
    whole release of each language."""
    if release is not None:
        rows = db.execute(
            "select release, lang from releases where release = ? and (? is null or lang = ?)",
            [release, lang, lang],
        ).fetchall()
    else:
        rows = db.execute(
            "select max(release), lang from releases where completeness = 'whole'"
            " and (? is null or lang = ?) group by lang",
            [lang, lang],
        ).fetchall()
    return [f"r{r}{lg}" for r, lg in rows if r]


def scoped(expression: str, scopes: list[str]) -> str:
    """Restrict an FTS5 expression to some releases inside the MATCH itself.

    >>> scoped('"discover"', ["r20260116en", "r20260116ja"])
    '("discover") AND search_scope : ("r20260116en" OR "r20260116ja")'
    """
    return f"({expression}) AND search_scope : (" + " OR ".join(f'"{s}"' for s in scopes) + ")"


def search(
    db: sqlite_utils.Database,
    query: str,
    *,
    release: str | None = None,
    lang: str | None = None,
    section: str | None = None,
    limit: int = 20,
) -> list[Hit]:
    """Ranked hits for ``query`` (best first). An empty query gives no hits.

    Without ``release``, the newest release of each language is searched
    (the ``search_current`` index); with it, that release.
    """
    expression = fts_query(query)
    if not expression:
        return []
    if release is None:
        params = {"query": expression, "lang": lang, "section": section, "limit": limit}
        return [Hit(*row) for row in db.execute(current_sql(), params).fetchall()]
    if release is not None:
        check_release(db, release, lang)
    scopes = scope_tokens(db, release, lang)
    if not scopes:
        return []
    params = {"query": scoped(expression, scopes), "release": release, "lang": lang, "section": section, "limit": limit}
    rows = db.execute(search_sql(), params).fetchall()
    return [Hit(*row) for row in rows]
