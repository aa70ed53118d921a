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
        return asdict(self)


_SCOPE = """
    {alias}.lang = coalesce(:lang, {alias}.lang)
    and {alias}.release = coalesce(:release, (
        select max(r.release) from releases r where r.lang = {alias}.lang and r.completeness = 'whole'))
"""

_SECTION_FILTER = """
    and (:section is null or {col} = :section or {col} like :section || '.%'
         or {col} glob :section || '[a-z]' or (length(:section) = 1 and substr({col}, 1, 1) = :section))
"""


def search_sql(kinds: tuple[str, ...] = ("rule", "example", "glossary")) -> str:
    """The SQL behind :func:`search`, with parameters ``:query`` (an FTS5 expression
    from :func:`fts_query`), ``:release``, ``:lang``, ``:section`` (each may be null)
    and ``:limit``."""
    parts = []
    if "rule" in kinds:
        parts.append(
            "select 'rule' as kind, rules.release, rules.lang, rules.number, rules.title, rules.text,"
            " snippet(rules_fts, 0, '[', ']', '…', 16) as snippet, bm25(rules_fts) as rank"
            " from rules_fts join rules on rules.rowid = rules_fts.rowid"
            " where rules_fts match :query and" + _SCOPE.format(alias="rules")
            + _SECTION_FILTER.format(col="rules.number")
        )
    if "example" in kinds:
        parts.append(
            "select 'example', examples.release, examples.lang, examples.rule_number, null, examples.text,"
            " snippet(examples_fts, 0, '[', ']', '…', 16), bm25(examples_fts)"
            " from examples_fts join examples on examples.rowid = examples_fts.rowid"
            " where examples_fts match :query and" + _SCOPE.format(alias="examples")
            + _SECTION_FILTER.format(col="examples.rule_number")
        )
    if "glossary" in kinds:
        parts.append(
            "select 'glossary', glossary.release, glossary.lang, json_extract(glossary.rule_refs, '$[0]'),"
            " glossary.term, glossary.definition,"
            " snippet(glossary_fts, 0, '[', ']', '…', 16), bm25(glossary_fts)"
            " from glossary_fts join glossary on glossary.rowid = glossary_fts.rowid"
            " where glossary_fts match :query and" + _SCOPE.format(alias="glossary")
            + " and (:section is null or json_extract(glossary.rule_refs, '$[0]') like :section || '%')"
        )
    return "\nunion all\n".join(parts) + "\norder by rank limit :limit"


def search(
    db: sqlite_utils.Database,
    query: str,
    *,
    release: str | None = None,
    lang: str | None = None,
    section: str | None = None,
    limit: int = 20,
) -> list[Hit]:
    """Ranked hits for ``query`` (best first). An empty query gives no hits."""
    expression = fts_query(query)
    if not expression:
        return []
    if release is not None:
        check_release(db, release, lang)
    params = {"query": expression, "release": release, "lang": lang, "section": section, "limit": limit}
    rows = db.execute(search_sql(), params).fetchall()
    return [Hit(*row) for row in rows]
