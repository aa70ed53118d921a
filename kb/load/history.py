"""The build step for rule history: matches, lineages and stale citations.

Runs after every source is loaded and the CR tables are finished. It

1. matches every pair of consecutive releases of each language
   (:func:`kb.history.release_pairs`; excerpts hang off the nearest whole
   release) and writes ``rule_matches`` and a summary per pair to
   ``release_pairs``;
2. chains the matches into lineages (:func:`kb.lineage.build_lineages`):
   ``rule_lineage`` (one row per rule of every release) and ``lineages``
   (one row per lineage: first appearance, number today);
3. checks every citation of a rule by number (:mod:`kb.stale`) and writes
   ``stale_citations``.

Rows are written with ``executemany`` on one prepared statement: these tables
have a row per rule of every release (some 270,000), and that is several
times faster than building dicts for ``insert_all``.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict

import sqlite_utils

from ingest.records import IngestProblem

from ..build import BuildContext, insert_rows, BuildFailed
from ..history import STATUSES, database_release_pairs, match_pairs, read_all_rules
from ..lineage import Link, build_lineages

HISTORY_TABLES: dict[str, dict] = {
    "rule_matches": dict(
        columns={
            "lang": str, "old_release": str, "old_number": str, "new_release": str,
            "new_number": str, "status": str, "similarity": float, "matched_by": str,
        },
        not_null={"lang", "old_release", "new_release", "status"},
    ),
    "release_pairs": dict(
        columns={
            "lang": str, "old_release": str, "new_release": str, "old_completeness": str,
            "new_completeness": str, **{status: int for status in STATUSES},
        },
        pk=("lang", "old_release", "new_release"),
    ),
    "rule_lineage": dict(
        columns={
            "lineage_id": int, "lang": str, "release": str, "number": str, "kind": str,
            "previous_release": str, "previous_number": str, "status": str, "similarity": float,
        },
        pk=("lang", "release", "number"),
        not_null={"lineage_id", "lang", "release", "number"},
    ),
    "lineages": dict(
        columns={
            "lineage_id": int, "kind": str, "title": str, "first_release": str, "first_lang": str,
            "first_number": str, "last_release": str, "last_number": str, "newest_number": str,
            "releases": int, "numbers": str,
        },
        pk="lineage_id",
    ),
    "stale_citations": dict(
        columns={
            "id": int, "source_kind": str, "source": str, "line": int, "cited": str,
            "cited_number": str, "written_for": str, "read_in": str, "about": str,
            "about_from": str, "cited_title": str, "reason": str, "suggested_number": str,
            "suggested_title": str, "message": str, "source_title": str,
        },
        pk="id",
    ),
}

HISTORY_INDEXES: list[tuple[str, list[str]]] = [
    ("rule_matches", ["lang", "old_release", "old_number"]),
    ("rule_matches", ["lang", "new_release", "new_number"]),
    ("rule_matches", ["status"]),
    ("rule_lineage", ["lineage_id"]),
    ("rule_lineage", ["number"]),
    ("lineages", ["newest_number"]),
    ("stale_citations", ["source"]),
]

HISTORY_VIEWS: dict[str, str] = {
    # Every move, with the titles of both sides (a subrule shows its rule's title).
    "rule_moves": """
        select m.lang, m.old_release, m.old_number, m.new_release, m.new_number, m.status,
               m.similarity, coalesce(o.title, op.title) as old_title, coalesce(n.title, np.title) as new_title
        from rule_matches m
        join rules o on o.release = m.old_release and o.lang = m.lang and o.number = m.old_number
        join rules n on n.release = m.new_release and n.lang = m.lang and n.number = m.new_number
        left join rules op on op.release = m.old_release and op.lang = m.lang and op.number = o.parent
        left join rules np on np.release = m.new_release and np.lang = m.lang and np.number = n.parent
        where m.status in ('moved', 'moved_changed')
    """,
}


def match_workers() -> int:
    """Processes for matching: ``KB_MATCH_WORKERS`` (default: one per core, at most 4)."""
    value = os.environ.get("KB_MATCH_WORKERS", str(min(os.cpu_count() or 1, 4)))
    if not value.isdigit() or int(value) < 1:
        raise BuildFailed(f"KB_MATCH_WORKERS must be a number of processes (1 or more), not {value!r}")
    return int(value)


def create_history_tables(db: sqlite_utils.Database) -> None:
    """Create the (empty) history tables, replacing any left from an earlier run."""
    for name, spec in HISTORY_TABLES.items():
        db[name].create(**spec, replace=True)


def load_history(ctx: BuildContext) -> None:
    """The build step; see the module docstring."""
    db = ctx.db
    create_history_tables(db)
    rules = read_all_rules(db)
    pairs = database_release_pairs(db)
    # One process per core: on a quiet 2-core machine two save about a third of the
    # matching time; on a loaded one they gain little (bench/bench_history.py prints both).
    with ctx.task("Matching releases", len(pairs)) as advance:
        results = match_pairs(pairs, rules, workers=match_workers(), progress=advance)
    completeness = {(r["lang"], r["release"]): r["completeness"] for r in db.query(
        "select lang, release, completeness from releases")}

    insert_rows(db, "rule_matches", list(HISTORY_TABLES["rule_matches"]["columns"]), (
        (r.pair.lang, r.pair.old_release, m.old_number, r.pair.new_release, m.new_number,
         m.status, m.similarity, m.how)
        for r in results for m in r.matches
    ))
    pair_columns = list(HISTORY_TABLES["release_pairs"]["columns"])
    pair_rows = []
    for r in results:
        counts = Counter(m.status for m in r.matches)
        pair_rows.append((
            r.pair.lang, r.pair.old_release, r.pair.new_release,
            completeness.get((r.pair.lang, r.pair.old_release)),
            completeness.get((r.pair.lang, r.pair.new_release)),
            *(counts.get(status, 0) for status in STATUSES),
        ))
    insert_rows(db, "release_pairs", pair_columns, pair_rows)

    with ctx.task("Chaining lineages", 1) as advance:
        _load_lineages(ctx, rules, results, completeness)
        advance(1)

    for table, columns in HISTORY_INDEXES:
        db[table].create_index(columns, if_not_exists=True)
    for name, sql in HISTORY_VIEWS.items():
        db.create_view(name, sql, replace=True)

    with ctx.task("Checking citations", 1) as advance:
        from ..stale import find_stale_citations

        found = list(find_stale_citations(db, problems=ctx.problems))
        insert_rows(db, "stale_citations", [c for c in HISTORY_TABLES["stale_citations"]["columns"] if c != "id"],
                     (finding.as_row() for finding in found))
        advance(1)


def _load_lineages(ctx: BuildContext, rules, results, completeness) -> None:
    db = ctx.db
    nodes = []
    info: dict[tuple[str, str, str], tuple] = {}
    for (lang, release), rows in rules.items():
        for number, kind, _parent, title, _text, position, _title_en in rows:
            node = (lang, release, number)
            nodes.append((node, position))
            info[node] = (kind, title)

    def order(r):  # whole-to-whole pairs first: they form the trunk
        return (r.pair.old_is_excerpt or r.pair.new_is_excerpt, r.pair.lang != "en", r.pair.new_release)

    links: list[Link] = []
    for r in sorted(results, key=order):
        p = r.pair
        for m in r.matches:
            if m.old_number and m.new_number:
                links.append(Link((p.lang, p.old_release, m.old_number), (p.lang, p.new_release, m.new_number),
                                  m.status, m.similarity))
    # A translation shares its lineage with the English rule of the same release and number.
    for (lang, release, number) in info:
        if lang != "en" and ("en", release, number) in info:
            links.append(Link(("en", release, number), (lang, release, number), "translation"))
    result = build_lineages(nodes, links)
    for message in result.conflicts:
        ctx.problems.append(IngestProblem("rule_lineage", None, "warning", "lineage-conflict",
                                          f"link left out: {message}"))
    added: set[tuple[str, str, str]] = {
        (r.pair.lang, r.pair.new_release, m.new_number)
        for r in results for m in r.matches if m.status == "added"
    }

    def lineage_rows():
        # In primary-key order: SQLite appends to its index instead of inserting all over it.
        for node, _position in sorted(nodes):
            lang, release, number = node
            link = result.previous.get(node)
            status = link.status if link else ("added" if node in added else None)
            yield (result.lineage_of[node], lang, release, number, info[node][0],
                   link.old[1] if link else None, link.old[2] if link else None,
                   status, link.similarity if link else None)

    insert_rows(db, "rule_lineage", list(HISTORY_TABLES["rule_lineage"]["columns"]), lineage_rows())

    newest_en = max((rel for (lang, rel), c in completeness.items() if lang == "en" and c == "whole"), default=None)
    members: dict[int, list[tuple]] = defaultdict(list)
    for node, position in nodes:
        members[result.lineage_of[node]].append(node)

    def lineage_summary():
        for lineage_id, group in members.items():
            group.sort(key=lambda n: (n[1], n[0] != "en", n[0]))
            trunk = [n for n in group if n[0] == "en"] or group
            first, last = group[0], trunk[-1]
            kind = info[last][0]
            title = next((info[n][1] for n in reversed(trunk) if info[n][1]), None)
            newest = next((n[2] for n in trunk if n[0] == "en" and n[1] == newest_en), None)
            numbers = list(dict.fromkeys(n[2] for n in trunk))
            yield (lineage_id, kind, title, first[1], first[0], first[2], last[1], last[2], newest,
                   len({n[1] for n in trunk}), json.dumps(numbers))

    insert_rows(db, "lineages", list(HISTORY_TABLES["lineages"]["columns"]), lineage_summary())
