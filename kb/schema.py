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

# Porter stemming matches "searching" to "search"; it leaves non-ASCII words alone.
FTS_TOKENIZE = "porter unicode61 remove_diacritics 2"

FTS_TABLES: dict[str, list[str]] = {
    "rules": ["search_text"],
    "examples": ["search_text"],
    "glossary": ["search_text"],
}

INDEXES: list[tuple[str, list[str]]] = [
    ("rules", ["number"]),
    ("rules", ["release", "lang", "parent"]),
    ("rules", ["title"]),
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


def create_cr_tables(db: sqlite_utils.Database) -> None:
    """Create the CR core tables (empty) in ``db``."""
    for name, spec in CR_TABLES.items():
        db[name].create(**spec)
    for name, expression in SEARCH_TEXT.items():
        db.execute(
            f"alter table [{name}] add column search_text text generated always as ({expression}) virtual"
        )


def finish_cr_tables(db: sqlite_utils.Database) -> None:
    """Indexes, FTS and views, once the rows are in (faster than indexing as we insert)."""
    for table, columns in INDEXES:
        db[table].create_index(columns, if_not_exists=True)
    for table, columns in FTS_TABLES.items():
        db[table].enable_fts(columns, fts_version="FTS5", tokenize=FTS_TOKENIZE,
                             create_triggers=False, replace=True)
    for name, sql in VIEWS.items():
        db.create_view(name, sql, replace=True)
