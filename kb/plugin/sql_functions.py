"""SQL functions for Datasette's connections.

``escape_fts(q)`` replaces Datasette's own (which quotes each word) with
:func:`kb.search.fts_query`, which also segments Japanese words, so the table
search box of ``rules``, ``examples`` and ``glossary`` finds 墓地 or 発見 in
Japanese text as it finds "graveyard" in English. ``kb_fts_query`` is the same
function under our own name, for canned queries.
"""

from __future__ import annotations

from kb.search import fts_query


def _fts_query(value):
    if not isinstance(value, str):
        return value
    # An empty MATCH is an FTS5 syntax error; the empty phrase matches nothing, so a canned search
    # query opened without a query shows its form instead of a 400.
    return fts_query(value) or '""'


def register(conn) -> None:
    conn.create_function("escape_fts", 1, _fts_query, deterministic=True)
    conn.create_function("kb_fts_query", 1, _fts_query, deterministic=True)
