"""The SQLite schema of the knowledge base, created with sqlite-utils.

Everything from the Comprehensive Rules is keyed by ``(release, lang, number)``:
``release`` is the effective date ``YYYYMMDD``, ``lang`` is ``en`` or ``ja``.
Links between tables go by those keys, never by a bare rule number, because
numbers move between releases.

Other parts of the build (Japanese, wiki, cards, executable rules, history)
add their own tables in their own modules; this one holds the CR core.
"""

from __future__ import annotations

import sqlite_utils

# One place for the table definitions; the README's schema table is checked
# against this dict by tests/test_docs.py.
CR_TABLES: dict[str, dict] = {
    "releases": dict(
        columns={
            "release": str, "lang": str, "effective_date": str, "source": str,
            "completeness": str, "version_label": str, "encoding": str, "line_endings": str,
            "sections": int, "rules": int, "numbered_rules": int, "subrules": int,
            "examples": int, "glossary_entries": int, "warnings": int, "errors": int,
        },
        pk=("release", "lang"),
        not_null={"release", "lang", "effective_date", "source"},
    ),
    "release_sources": dict(
        columns={
            "source": str, "release": str, "lang": str, "encoding": str, "line_endings": str,
            "compressed": int, "used": int, "same_as_used": int, "note": str,
        },
        pk="source",
    ),
    "sections": dict(
        columns={
            "release": str, "lang": str, "number": str, "title": str, "position": int,
            "source": str, "line": int,
        },
        pk=("release", "lang", "number"),
        foreign_keys=[(("release", "lang"), "releases", ("release", "lang"))],
    ),
    "rules": dict(
        columns={
            "release": str, "lang": str, "number": str, "kind": str, "parent": str,
            "section": str, "title": str, "title_en": str, "text": str, "position": int,
            "source": str, "line": int, "search_ja": str,
        },
        pk=("release", "lang", "number"),
        not_null={"release", "lang", "number", "kind"},
    ),
    "examples": dict(
        columns={
            "id": int, "release": str, "lang": str, "rule_number": str, "seq": int,
            "text": str, "source": str, "line": int, "search_ja": str,
        },
        pk="id",
    ),
    "glossary": dict(
        columns={
            "id": int, "release": str, "lang": str, "term": str, "reading": str, "term_en": str,
            "aliases": str, "definition": str, "rule_refs": str, "obsolete": int,
            "source": str, "line": int, "search_ja": str,
        },
        pk="id",
    ),
    "rule_references": dict(
        columns={
            "id": int, "release": str, "lang": str, "from_number": str, "from_kind": str,
            "to_number": str, "to_kind": str, "cited": str, "resolved": int,
            "source": str, "line": int,
        },
        pk="id",
    ),
    # The newest whole release of each language (and, as later steps add them,
    # rulings and cards) in one small table with its own FTS index: the default
    # search. FTS5's bm25 reads whole doclists to weigh a word, so ranking in an
    # index of all 130 releases costs ~2 ms a query; here ~0.3 ms.
    "search_current": dict(
        columns={
            "id": int, "kind": str, "release": str, "lang": str, "number": str, "title": str,
            "text": str, "search_text": str, "link": str,
        },
        pk="id",
    ),
    "ingest_problems": dict(
        columns={
            "id": int, "source": str, "line": int, "severity": str, "code": str,
            "message": str, "release": str, "lang": str,
        },
        pk="id",
    ),
}

# ``search_text`` is what full-text search indexes: a VIRTUAL generated column
# (no storage) that is the display text, or for Japanese rows the normalised,
# word-segmented ``search_ja`` the build computes (SQLite's tokenizers cannot
# split Japanese into words).
SEARCH_TEXT: dict[str, str] = {
    "rules": "coalesce(search_ja, coalesce(title || ' ', '') || text)",
    "examples": "coalesce(search_ja, text)",
    "glossary": "coalesce(search_ja, term || ' ' || coalesce(definition, ''))",
}

# ``search_scope`` is one token per row, "r<release><lang>" (r20260116en): the
# search adds "search_scope : r20260116en" to its MATCH so that FTS5 itself
# keeps only one release, instead of ranking every release's hits and
# filtering afterwards (50x faster for common words).
SEARCH_SCOPE = "'r' || release || lang"

# Porter stemming matches "searching" to "search"; it leaves non-ASCII words alone.
FTS_TOKENIZE = "porter unicode61 remove_diacritics 2"

FTS_TABLES: dict[str, list[str]] = {
    "rules": ["search_text", "search_scope"],
    "examples": ["search_text", "search_scope"],
    "glossary": ["search_text", "search_scope"],
}

INDEXES: list[tuple[str, list[str]]] = [
    ("rules", ["number"]),
    ("rules", ["release", "lang", "parent"]),
    ("rules", ["title"]),
    # The rules table page (every release at once) facets by kind and section and sorts by
    # position: covering indexes make those scans of ~280k rows cheap (0.75 s → ~0.25 s, no facet timeouts).
    ("rules", ["kind"]),
    ("rules", ["section"]),
    ("rules", ["position"]),
    ("examples", ["release", "lang", "rule_number"]),
    ("glossary", ["release", "lang", "term"]),
    ("rule_references", ["release", "lang", "from_number"]),
    ("rule_references", ["release", "lang", "to_number"]),
]

VIEWS: dict[str, str] = {
    # The newest English release: the CR "as of today" for this database.
    "newest_release": """
        select release, effective_date from releases
        where lang = 'en' and completeness = 'whole'
        order by release desc limit 1
    """,
    "newest_rules": """
        select rules.* from rules
        where rules.lang = 'en' and rules.release = (select release from newest_release)
        order by position
    """,
    "keyword_actions": """
        select rules.release, rules.number, rules.title, ja.title as title_ja, rules.position
        from rules
        left join rules ja on ja.release = rules.release and ja.lang = 'ja' and ja.number = rules.number
        where rules.lang = 'en' and rules.parent = '701' and rules.kind = 'numbered'
        order by rules.release, rules.position
    """,
}


def create_tables(db: sqlite_utils.Database, tables: dict[str, dict],
                  generated: dict[str, dict[str, str]] | None = None) -> None:
    """Create each table of ``tables`` (sqlite-utils ``create`` arguments) unless it exists, and
    add its VIRTUAL generated columns (``{table: {column: expression}}``) unless they exist.

    sqlite-utils cannot declare generated columns; SQLite adds VIRTUAL ones with ALTER TABLE.
    """
    for name, spec in tables.items():
        db[name].create(**spec, if_not_exists=True)
    for name, columns in (generated or {}).items():
        present = {row[1] for row in db.execute(f"pragma table_xinfo([{name}])")}
        for column, expression in columns.items():
            if column not in present:
                db.execute(f"alter table [{name}] add column [{column}] text"
                           f" generated always as ({expression}) virtual")


def create_cr_tables(db: sqlite_utils.Database) -> None:
    """Create the CR core tables (empty) in ``db``."""
    create_tables(db, CR_TABLES, {
        name: {"search_text": expression, "search_scope": SEARCH_SCOPE}
        for name, expression in SEARCH_TEXT.items()
    })


_CURRENT_SOURCES = """
    with newest as (
        select lang, max(release) as release from releases where completeness = 'whole' group by lang
    )
    insert into search_current (kind, release, lang, number, title, text, search_text, link)
    select 'rule', r.release, r.lang, r.number, r.title, r.text, r.search_text,
           '/-/rules/' || r.number || '?release=' || r.release
      from rules r join newest n on n.lang = r.lang and n.release = r.release
    union all
    select 'example', e.release, e.lang, e.rule_number, null, e.text, e.search_text,
           '/-/rules/' || e.rule_number || '?release=' || e.release
      from examples e join newest n on n.lang = e.lang and n.release = e.release
    union all
    select 'glossary', g.release, g.lang, json_extract(g.rule_refs, '$[0]'), g.term, g.definition,
           g.search_text, null
      from glossary g join newest n on n.lang = g.lang and n.release = g.release
"""


def fill_search_current(db: sqlite_utils.Database) -> None:
    """Copy the newest release of each language into ``search_current``."""
    db.execute(_CURRENT_SOURCES)


def finish_search_current(db: sqlite_utils.Database) -> None:
    """Index ``search_current``; runs last, after every step has added its rows."""
    db["search_current"].create_index(["kind", "lang"], if_not_exists=True)
    db["search_current"].enable_fts(["search_text"], fts_version="FTS5", tokenize=FTS_TOKENIZE,
                                    create_triggers=False, replace=True)


_RESOLVE_REFERENCES = """
    update rule_references set resolved = (
        exists (select 1 from rules r where r.release = rule_references.release
                and r.lang = rule_references.lang and r.number = rule_references.to_number)
        or exists (select 1 from sections s where s.release = rule_references.release
                and s.lang = rule_references.lang and s.number = rule_references.to_number)
    )
"""


def finish_cr_tables(db: sqlite_utils.Database) -> None:
    """Indexes, resolved references, FTS and views, once every source's CR rows are in
    (faster than indexing as we insert)."""
    for table, columns in INDEXES:
        db[table].create_index(columns, if_not_exists=True)
    # A reference is resolved when its target exists in the same release and language.
    db.execute(_RESOLVE_REFERENCES)
    for table, columns in FTS_TABLES.items():
        db[table].enable_fts(columns, fts_version="FTS5", tokenize=FTS_TOKENIZE,
                             create_triggers=False, replace=True)
    for name, sql in VIEWS.items():
        db.create_view(name, sql, replace=True)
    fill_search_current(db)
