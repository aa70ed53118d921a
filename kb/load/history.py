"""The build step for rule history: matches, lineages and stale citations.

Runs after every source is loaded and the CR tables are finished. It brings
the history tables up to date with the releases in the database, so the same
code serves a full build (the tables are empty) and an added release (only
its pairs are new):

1. works out the pairs to compare (:func:`kb.history.release_pairs`:
   consecutive whole releases of each language; excerpts hang off the nearest
   whole release), drops the rows of pairs that no longer hold (a release
   added between two others splits their pair in two) and matches the pairs
   not yet in ``release_pairs``: from the cache when the rules of both
   releases are unchanged (``pairs``, keyed by :func:`kb.history.rules_digest`
   of each side), else with :func:`kb.history.match_pairs`, in worker
   processes when that pays (:func:`kb.build.useful_processes`,
   ``KB_MATCH_WORKERS``); writes ``rule_matches`` and a summary per pair to
   ``release_pairs``;
2. chains every match into lineages (:func:`kb.lineage.chain_nodes`):
   ``rule_lineage`` (one row per rule of every release; only rows that changed
   are written) and ``lineages`` (one row per lineage: first appearance,
   number today);
3. checks every citation of a rule by number (:mod:`kb.stale`) and writes
   ``stale_citations``.

The rules are read a release at a time, never all at once, and rows are
written with ``executemany`` on one prepared statement: these tables have a
row per rule of every release (some 280,000).
"""

from __future__ import annotations

import functools
import hashlib
import json
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from ingest.records import IngestProblem

from ..build import BuildContext, IdleCores, insert_rows
from ..cache import code_version, copy_row_file, read_row_file, write_row_file
from ..history import (
    STATUSES,
    DatabaseRules,
    PairResult,
    ReleasePair,
    database_release_pairs,
    match_pairs,
    read_rule_rows,
    rules_digest,
)
from ..lineage import chain_nodes
from ..schema import create_tables

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
            "new_completeness": str, **{status: int for status in STATUSES}, "matches_key": str,
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


def create_history_tables(db: sqlite_utils.Database) -> None:
    """Create the history tables unless they exist."""
    create_tables(db, HISTORY_TABLES)


MATCH_MODULES = ("kb.history", "kb.japanese")
_MATCH_COLUMNS = ["lang", "old_release", "old_number", "new_release", "new_number", "status", "similarity",
                  "matched_by"]


def load_history(ctx: BuildContext) -> None:
    """The build step; see the module docstring."""
    db = ctx.db
    create_history_tables(db)
    db.execute("delete from ingest_problems where step = ?", [ctx.step or "rule history"])
    pairs = database_release_pairs(db)
    wanted = {(p.lang, p.old_release, p.new_release) for p in pairs}
    present = {tuple(r) for r in db.execute("select lang, old_release, new_release from release_pairs")}
    for gone in sorted(present - wanted):
        db.execute("delete from rule_matches where lang = ? and old_release = ? and new_release = ?", gone)
        db.execute("delete from release_pairs where lang = ? and old_release = ? and new_release = ?", gone)
    db.conn.commit()
    todo = [p for p in pairs if (p.lang, p.old_release, p.new_release) not in present]
    if todo:
        _match(ctx, todo)
    with ctx.task("Chaining lineages", 3) as advance:
        _load_lineages(ctx, advance)
        for table, columns in HISTORY_INDEXES:
            db[table].create_index(columns, if_not_exists=True)
        for name, sql in HISTORY_VIEWS.items():
            db.create_view(name, sql, replace=True)
        advance(1)
    with ctx.task("Checking citations", 1) as advance:
        from ..stale import find_stale_citations

        found = list(find_stale_citations(db, problems=ctx.problems))
        db.execute("delete from stale_citations")
        insert_rows(db, "stale_citations", [c for c in HISTORY_TABLES["stale_citations"]["columns"] if c != "id"],
                    (finding.as_row() for finding in found))
        advance(1)


@dataclass
class MatchedPair:
    """A pair matched into its row file: what the build needs besides the rows themselves."""

    pair: ReleasePair
    counts: dict[str, int]
    seconds: float


def write_matches(outs: dict[ReleasePair, tuple[str, str]], result: PairResult) -> MatchedPair:
    """Write a pair's matches to its row file (in the process that matched it); see :func:`match_pairs`."""
    p = result.pair
    out, key = outs[p]
    rows = [(p.lang, p.old_release, m.old_number, p.new_release, m.new_number, m.status, m.similarity, m.how)
            for m in result.matches]
    counts = dict(Counter(m.status for m in result.matches))
    write_row_file(Path(out), key, {"rule_matches": (_MATCH_COLUMNS, rows)}, {"counts": counts})
    return MatchedPair(p, counts, result.seconds)


def _match(ctx: BuildContext, todo) -> None:
    """Match the pairs of ``todo`` (from the cache where it has them) and write their rows."""
    db = ctx.db
    code = code_version(*MATCH_MODULES)
    read = DatabaseRules(ctx.path) if ctx.path else _ConnectionRules(db)
    digests = dict(ctx.rules_digests)
    sizes = {(r[1], r[0]): r[2] for r in db.execute(
        "select release, lang, coalesce(rules, 0) + coalesce(numbered_rules, 0) + coalesce(subrules, 0)"
        " from releases")}

    def digest_of(lang: str, release: str) -> str:
        if (lang, release) not in digests:
            digests[(lang, release)] = rules_digest(read_rule_rows(db.conn, lang, release))
        return digests[(lang, release)]

    keys = {p: ctx.cache.key("pairs", code, digest_of(p.lang, p.old_release), digest_of(p.lang, p.new_release),
                             str(int(p.old_is_excerpt)), str(int(p.new_is_excerpt))) for p in todo}
    completeness = {(r[1], r[0]): r[2] for r in db.execute("select release, lang, completeness from releases")}
    with tempfile.TemporaryDirectory(prefix="kb-build-") as scratch:
        outs = {p: (str(ctx.cache.rows_path("pairs", keys[p]) or Path(scratch) / f"{i}.sqlite"), keys[p])
                for i, p in enumerate(todo)}
        counts: dict[ReleasePair, dict[str, int]] = {}
        for p in todo:
            entry = read_row_file(Path(outs[p][0]), keys[p]) if ctx.cache.enabled else None
            if entry is not None:
                counts[p] = entry[0]["counts"]
                ctx.cache.hits["pairs"] += 1
            else:
                ctx.cache.misses["pairs"] += 1
        missing = [p for p in todo if p not in counts]
        with ctx.task("Matching releases", len(todo)) as advance:
            advance(len(todo) - len(missing))
            if missing:
                # The first pair is matched here and timed; workers only if the rest would pay for them.
                idle = IdleCores()  # read once the first pair is matched here
                matched = match_pairs(
                    missing, read, workers=lambda seconds: _workers(ctx, seconds, len(missing), idle()),
                    progress=advance,
                    sizes=sizes, finish=functools.partial(write_matches, {p: outs[p] for p in missing}))
                for m in matched:
                    counts[m.pair] = m.counts
        for p in todo:  # in pair order, whichever way they were matched
            copy_row_file(db.conn, Path(outs[p][0]), {"rule_matches": _MATCH_COLUMNS})
            insert_rows(db, "release_pairs", list(HISTORY_TABLES["release_pairs"]["columns"]), [(
                p.lang, p.old_release, p.new_release, completeness.get((p.lang, p.old_release)),
                completeness.get((p.lang, p.new_release)), *(counts[p].get(status, 0) for status in STATUSES),
                keys[p],
            )])


def _workers(ctx: BuildContext, seconds: float, pairs: int, idle: float | None) -> int:
    workers = ctx.processes_for(seconds, "KB_MATCH_WORKERS", idle)
    ctx.notes.append(f"matched {pairs} pairs of releases in {workers} process{'es' if workers > 1 else ''}"
                     + (f" ({idle:.1f} idle cores)" if idle is not None else ""))
    return workers


class _ConnectionRules:
    """Rules read through the build's own connection (when the database has no file to share)."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db

    def __call__(self, lang: str, release: str):
        return read_rule_rows(self.db.conn, lang, release)


NODES_SQL = """
select lang, release, number, kind, title from rules
order by release, lang != 'en', lang, position
"""

LINKS_SQL = """
select lang, old_release, old_number, new_release, new_number, status, similarity from rule_matches
where old_number is not null and new_number is not null
"""


def _load_lineages(ctx: BuildContext, advance) -> None:
    """``rule_lineage`` and ``lineages`` from the rules and their matches: from the cache (namespace
    ``lineages``, keyed by a digest of exactly what chaining reads) in a full build, else chained."""
    if ctx.mode != "full" or not ctx.cache.enabled:
        _chain_lineages(ctx, advance)
        return
    db = ctx.db
    h = hashlib.blake2b(digest_size=20)
    # A pair's matches are what its key (code and both releases' rules) made them: the keys stand
    # for the 280,000 rows (a second of reading), unless a pair has none.
    pairs = "select lang, old_release, new_release, matches_key from release_pairs order by lang, old_release, new_release"
    if db.conn.execute("select 1 from release_pairs where matches_key is null limit 1").fetchone():
        pairs = "select * from rule_matches order by rowid"
    for sql in (NODES_SQL, pairs, "select lang, release, completeness from releases order by lang, release"):
        cursor = db.conn.execute(sql)
        while rows := cursor.fetchmany(20000):
            h.update(repr(rows).encode())
    key = ctx.cache.key("lineages", code_version("kb.lineage", "kb.load.history"), h.hexdigest())
    found = ctx.cache.get("lineages", key)
    if isinstance(found, dict) and set(found) == {"rule_lineage", "lineages", "conflicts"}:
        for message in found["conflicts"]:
            ctx.problems.append(IngestProblem("rule_lineage", None, "warning", "lineage-conflict", message))
        for table in ("rule_lineage", "lineages"):
            db.execute(f"delete from [{table}]")
            insert_rows(db, table, list(HISTORY_TABLES[table]["columns"]), found[table])
        advance(2)
        return
    before = len(ctx.problems)
    _chain_lineages(ctx, advance)
    columns = {t: ", ".join(f"[{c}]" for c in HISTORY_TABLES[t]["columns"]) for t in ("rule_lineage", "lineages")}
    ctx.cache.put("lineages", key, {
        **{t: db.execute(f"select {cols} from [{t}] order by rowid").fetchall() for t, cols in columns.items()},
        "conflicts": [p.message for p in ctx.problems[before:] if p.code == "lineage-conflict"],
    })


def _chain_lineages(ctx: BuildContext, advance) -> None:
    db = ctx.db
    nodes: list[tuple[str, str, str]] = []
    kinds: list[str] = []
    titles: list[str | None] = []
    index: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    for lang, release, number, kind, title in db.execute(NODES_SQL):
        index[(lang, release)][number] = len(nodes)
        nodes.append((lang, release, number))
        kinds.append(kind)
        titles.append(title)
    excerpts = {(r[0], r[1]) for r in db.execute("select lang, release from releases where completeness = 'excerpt'")}

    def links():
        # Whole-to-whole pairs first (they form the trunk), English first, oldest first;
        # within a pair in match order (its rows are written together, in order).
        by_pair: dict[tuple[str, str, str], list[tuple]] = defaultdict(list)
        for lang, old_release, old_number, new_release, new_number, status, similarity in db.execute(LINKS_SQL):
            old = index[(lang, old_release)].get(old_number)
            new = index[(lang, new_release)].get(new_number)
            if old is not None and new is not None:
                by_pair[(lang, old_release, new_release)].append((old, new, status, similarity))
        for pair in sorted(by_pair, key=lambda p: ((p[0], p[1]) in excerpts or (p[0], p[2]) in excerpts,
                                                    p[0] != "en", p[0], p[2], p[1])):
            yield from by_pair[pair]
        # A translation shares its lineage with the English rule of the same release and number.
        for (lang, release), numbers in index.items():
            if lang == "en" or ("en", release) not in index:
                continue
            english = index[("en", release)]
            for number, i in numbers.items():
                if number in english:
                    yield english[number], i, "translation", None

    chains = chain_nodes(nodes, links())
    del index
    advance(1)
    for message in chains.conflicts:
        ctx.problems.append(IngestProblem("rule_lineage", None, "warning", "lineage-conflict",
                                          f"link left out: {message}"))
    added = {tuple(r) for r in db.execute(
        "select lang, new_release, new_number from rule_matches where status = 'added'")}

    def row(i: int) -> tuple:
        lang, release, number = nodes[i]
        before = chains.previous[i]
        status = chains.status[i] if before >= 0 else ("added" if nodes[i] in added else None)
        return (chains.lineage[i], lang, release, number, kinds[i],
                nodes[before][1] if before >= 0 else None, nodes[before][2] if before >= 0 else None,
                status, chains.similarity[i] if before >= 0 else None)

    columns = list(HISTORY_TABLES["rule_lineage"]["columns"])
    # In primary-key order: SQLite appends to its index instead of inserting all over it.
    order = sorted(range(len(nodes)), key=nodes.__getitem__)
    if ctx.mode == "add":
        _update_lineage_rows(db, columns, (row(i) for i in order))
    else:
        db.execute("delete from rule_lineage")
        insert_rows(db, "rule_lineage", columns, (row(i) for i in order))
    advance(1)

    newest_en = db.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'"
                           ).fetchone()[0]
    members: dict[int, list[int]] = defaultdict(list)
    for i in range(len(nodes)):
        members[chains.lineage[i]].append(i)

    def lineage_summary():
        for lineage_id in sorted(members):
            group = sorted(members[lineage_id], key=lambda i: (nodes[i][1], nodes[i][0] != "en", nodes[i][0]))
            trunk = [i for i in group if nodes[i][0] == "en"] or group
            first, last = nodes[group[0]], nodes[trunk[-1]]
            kind = kinds[trunk[-1]]
            title = next((titles[i] for i in reversed(trunk) if titles[i]), None)
            newest = next((nodes[i][2] for i in trunk if nodes[i][0] == "en" and nodes[i][1] == newest_en), None)
            numbers = list(dict.fromkeys(nodes[i][2] for i in trunk))
            yield (lineage_id, kind, title, first[1], first[0], first[2], last[1], last[2], newest,
                   len({nodes[i][1] for i in trunk}), json.dumps(numbers))

    db.execute("delete from lineages")
    insert_rows(db, "lineages", list(HISTORY_TABLES["lineages"]["columns"]), lineage_summary())


def _update_lineage_rows(db: sqlite_utils.Database, columns: list[str], rows) -> None:
    """Write only the ``rule_lineage`` rows that differ from those in the table (an added release
    changes its own rows and, at most, the numbering of lineages that start after it).

    ``rows`` come in primary-key order and are merged with the table read in that order, so the
    280,000 rows already there are never held at once (a dict of them was 170 MB of ``kb add``'s peak).
    """
    stored = db.conn.execute(f"select {', '.join(columns)} from rule_lineage order by lang, release, number")
    gone, changed = [], []
    old = next(stored, None)
    for r in rows:
        key = (r[1], r[2], r[3])
        while old is not None and (old[1], old[2], old[3]) < key:
            gone.append((old[1], old[2], old[3]))
            old = next(stored, None)
        if old is not None and (old[1], old[2], old[3]) == key:
            if old != r:
                changed.append(r)
            old = next(stored, None)
        else:
            changed.append(r)
    while old is not None:
        gone.append((old[1], old[2], old[3]))
        old = next(stored, None)
    # Deleted first, then written: a row out of order (it can't be: the keys are ASCII) is still right.
    with db.conn:
        db.conn.executemany("delete from rule_lineage where lang = ? and release = ? and number = ?", gone)
    placeholders = ", ".join("?" for _ in columns)
    with db.conn:
        db.conn.executemany(f"insert or replace into rule_lineage ({', '.join(columns)}) values ({placeholders})",
                            changed)
