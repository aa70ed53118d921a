"""Datasette metadata for the knowledge base: titles, descriptions, facets, labels, canned queries.

Built in Python rather than kept as a JSON file so that it follows the
database's name (Datasette names a database after its file) and so that
canned queries share their SQL with the library (:func:`kb.search.search_sql`).
"""

from __future__ import annotations

from .search import search_sql

TABLES = {
    "releases": {
        "title": "Releases",
        "description": "One row per Comprehensive Rules document: effective date (the release id, YYYYMMDD) and language, with counts of what was parsed.",
        "facets": ["lang", "completeness"],
        "sort_desc": "release",
    },
    "release_sources": {
        "title": "Release source files",
        "description": "Every CR file read, its encoding and line endings; copies of the same release (original bytes in cr/en/raw/) are compared with the one used.",
        "facets": ["lang", "encoding", "line_endings", "used"],
    },
    "sections": {
        "title": "Sections",
        "description": "Sections of each release, such as 7. Additional Rules.",
        "facets": ["release", "lang"],
        "label_column": "title",
    },
    "rules": {
        "title": "Rules",
        "description": "Rules (701), numbered rules (701.23) and subrules (701.23a) of every release, keyed by (release, lang, number). Search finds English and Japanese words.",
        "facets": ["release", "lang", "kind", "section"],
        "label_column": "title",
        "sort": "position",
        "fts_table": "rules_fts",
    },
    "examples": {
        "title": "Examples",
        "description": "Every Example: paragraph, attached to the (sub)rule it follows.",
        "facets": ["release", "lang"],
        "fts_table": "examples_fts",
    },
    "glossary": {
        "title": "Glossary",
        "description": "Glossary entries: term, other names, definition, the rules it points to, and whether the term is obsolete.",
        "facets": ["release", "lang", "obsolete"],
        "label_column": "term",
        "fts_table": "glossary_fts",
    },
    "rule_references": {
        "title": "Cross-references",
        "description": "Each rule number cited inside a rule, example or glossary entry, as (from, to) within one release; resolved = the target exists in that release.",
        "facets": ["release", "lang", "from_kind", "to_kind", "resolved"],
    },
    "ingest_problems": {
        "title": "Ingest problems",
        "description": "What the parsers could not take as it is: repaired typos (warnings) and sources that could not be parsed (errors), with file and line.",
        "facets": ["severity", "code", "lang"],
    },
}

QUERIES = {
    "keyword_actions_newest": {
        "title": "Keyword actions in the newest release",
        "description": "Every numbered rule under 701 of the newest English release, with its Japanese title where the Japanese CR of that release has it.",
        "sql": (
            "select number, title, title_ja from keyword_actions"
            " where release = (select release from newest_release) order by position"
        ),
    },
    "rule_across_releases": {
        "title": "A rule across releases",
        "description": "One rule number, or a keyword title such as Discover, in every English release that has it, oldest first. Numbers move: search by title to follow a keyword.",
        "sql": (
            "select release, number, kind, title, text from rules"
            " where lang = 'en' and (number = :rule or (kind = 'numbered' and lower(title) = lower(:rule)))"
            " order by release"
        ),
    },
    "search_everything": {
        "title": "Search rules, examples and glossary",
        "description": "Full-text search in both languages (Japanese words are segmented), newest release of each language unless a release is given.",
        "sql": search_sql().replace(":query", "kb_fts_query(:q)")
        .replace(":release", "nullif(:release, '')")
        .replace(":lang", "nullif(:lang, '')")
        .replace(":section", "nullif(:section, '')")
        .replace(":limit", "50"),
    },
}


def metadata_for(database: str) -> dict:
    """Datasette metadata with our tables and queries under the database named ``database``."""
    return {
        "title": "MTG Rules Knowledge Base",
        "description": "Magic: The Gathering Comprehensive Rules, every release 1999–2026, English and Japanese, with rulings and runnable rule checks.",
        "source": "Comprehensive Rules (Wizards of the Coast), MTG Wiki (Japanese)",
        "databases": {
            database: {
                "title": "Comprehensive Rules",
                "tables": TABLES,
                "queries": QUERIES,
            }
        },
    }
