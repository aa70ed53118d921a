"""The ruling-links step from the cache when none of what it reads changed.

Linking 49,000 card rulings and the wiki's rulings to rules scores each
distinct text against every rule of the newest release: seconds of work
whose result depends only on the rows it reads (the rules, their lineages,
examples and glossaries, the rulings, pages and cards) and the linking code.
:func:`load_ruling_links` keys the step's output by a digest of those tables
(their stored columns, in rowid order) and of the code, in the build cache
(namespace ``ruling-links``): the two link tables (with their indexes), the
``linked_rules``/``link_how`` columns of ``rulings`` and ``card_rulings``,
and the problems the step reported. Without a cache, or on a miss, the step
runs (:func:`kb.load.ruling_links.load_ruling_links`).
"""

from __future__ import annotations

import hashlib

from ingest.records import IngestProblem

from ..build import BuildContext
from ..cache import code_version
from . import ruling_links

NAMESPACE = "ruling-links"
MODULES = ("kb.load.ruling_links", "kb.load.ruling_links_cache", "kb.ruling_links.functions", "kb.ruling_links.index",
           "kb.ruling_links.linker", "kb.ruling_links.similarity", "kb.ruling_links.text", "kb.ruling_links.topics", "ingest.rule_refs")
READS = ("rules", "rule_lineage", "examples", "glossary_pairs", "releases", "rulings", "wiki_pages",
         "card_rulings", "cards", "card_keywords")
# Of the big tables, the linker reads only these columns, or only the newest releases' rows (see
# kb.ruling_links.index): digesting all 290,000 rules of every release took 3 of the step's 7 s on a
# cache hit. A linker that reads more must widen these (its code change alone misses the cache).
COLUMNS = {"rule_lineage": ("lineage_id", "lang", "release", "number")}
NEWEST_ONLY = ("rules", "examples")
_NEWEST = ("(lang = 'en' and release = (select release from releases where lang = 'en' and completeness = 'whole'"
           " and effective_date is not null order by effective_date desc limit 1))"
           " or (lang = 'ja' and release = (select max(release) from releases where lang = 'ja'"
           " and completeness = 'whole'))")
UPDATED = {"rulings": "id", "card_rulings": "id"}
UPDATED_COLUMNS = ("linked_rules", "link_how")


def _stored_columns(conn, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"pragma table_xinfo([{table}])") if r[6] == 0]


def tables_digest(conn, tables) -> str:
    """A digest of the stored columns of ``tables`` (those present), row by row in rowid order."""
    h = hashlib.blake2b(digest_size=20)
    present = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    for table in tables:
        h.update(f"\x00{table}\x00".encode())
        if table not in present:
            continue
        columns = [c for c in _stored_columns(conn, table) if c not in UPDATED_COLUMNS
                   and c in COLUMNS.get(table, (c,))]
        h.update(repr(columns).encode())
        where = f" where {_NEWEST}" if table in NEWEST_ONLY else ""
        cursor = conn.execute(f"select {', '.join(f'[{c}]' for c in columns)} from [{table}]{where} order by rowid")
        while rows := cursor.fetchmany(20000):
            h.update(repr(rows).encode())
    return h.hexdigest()


def load_ruling_links(ctx: BuildContext) -> None:
    """The "ruling links" step, from the cache when it can be (see the module docstring)."""
    if not ctx.cache.enabled:
        ruling_links.load_ruling_links(ctx)
        return
    conn = ctx.db.conn
    key = ctx.cache.key(NAMESPACE, code_version(*MODULES), tables_digest(conn, READS))
    found = ctx.cache.get(NAMESPACE, key)
    if isinstance(found, dict) and _restore(ctx, found):
        return
    before = len(ctx.problems)
    ruling_links.load_ruling_links(ctx)
    value = _saved(ctx, before)
    if value is not None:
        ctx.cache.put(NAMESPACE, key, value)


def _saved(ctx: BuildContext, problems_from: int) -> dict | None:
    conn = ctx.db.conn
    present = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    if not set(ruling_links.LINK_TABLES) <= present:
        return None   # the step had nothing to link
    tables = {}
    for table in ruling_links.LINK_TABLES:
        columns = _stored_columns(conn, table)
        tables[table] = (columns, conn.execute(
            f"select {', '.join(f'[{c}]' for c in columns)} from [{table}] order by rowid").fetchall())
    indexes = [sql for (sql,) in conn.execute(
        "select sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (?, ?)"
        " order by rowid", list(ruling_links.LINK_TABLES))]
    updates = {table: conn.execute(f"select [{UPDATED[table]}], linked_rules, link_how from [{table}]"
                                   " where linked_rules is not null or link_how is not null").fetchall()
               for table in UPDATED if table in present}
    problems = [(p.source, p.line, p.severity, p.code, p.message, p.release, p.lang)
                for p in ctx.problems[problems_from:]]
    return {"tables": tables, "indexes": indexes, "updates": updates, "problems": problems}


def _restore(ctx: BuildContext, value: dict) -> bool:
    db = ctx.db
    if set(value.get("tables", ())) != set(ruling_links.LINK_TABLES):
        return False
    ruling_links._create(db)   # the link tables, empty, and the rulings' link columns
    with db.conn:
        for table, (columns, rows) in value["tables"].items():
            db.conn.executemany(f"insert into [{table}] ({', '.join(f'[{c}]' for c in columns)})"
                                f" values ({', '.join('?' for _ in columns)})", rows)
        for table, rows in value["updates"].items():
            db.conn.executemany(f"update [{table}] set linked_rules = ?, link_how = ? where [{UPDATED[table]}] = ?",
                                [(linked, how, key) for key, linked, how in rows])
    for sql in value["indexes"]:
        db.execute(sql)
    ctx.problems.extend(IngestProblem(*p) for p in value["problems"])
    return True
