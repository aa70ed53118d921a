"""A whole build step's tables from the cache, when the step reads only corpus files and code.

A step such as "cards" reads its own files (``cards/``) and writes tables no
other step has written to yet. What it leaves in the database is then a
function of those files and of the code that reads them, so a later build
with the same inputs can copy the tables back instead of parsing again.

:func:`run_cached` does that for a :class:`kb.build.Step` whose
``cache_inputs`` says what its result depends on (code versions and input
digests): the tables the step created go to a row file in the cache
(namespace ``step-<name>``) with their schema (``sqlite_master``: tables,
generated columns, indexes) and the problems the step reported; a hit
replays the schema, copies the rows back in their order (``INSERT …
SELECT``), and reports the same problems. A step that touched a table it did
not create, or created a virtual table, is not cached (it runs every time).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ingest.records import IngestProblem

from .cache import FORMAT, read_row_file

if TYPE_CHECKING:
    from .build import BuildContext, Step


def namespace(step: "Step") -> str:
    return "step-" + re.sub(r"[^a-z0-9]+", "-", step.name.lower()).strip("-")


def _schema(conn) -> dict[str, tuple[str, str, str]]:
    """name → (type, table it belongs to, sql) of every table, index, view and trigger but SQLite's own."""
    return {name: (kind, table, sql or "") for kind, name, table, sql in conn.execute(
        "select type, name, tbl_name, sql from main.sqlite_master where name not like 'sqlite_%'")}


def _counts(conn, tables: list[str]) -> dict[str, int]:
    return {t: conn.execute(f"select count(*) from main.[{t}]").fetchone()[0] for t in tables}


def _columns(conn, table: str, schema: str = "main") -> list[str]:
    """The stored columns of ``table`` (generated columns are made again, never copied)."""
    return [r[1] for r in conn.execute(f"pragma {schema}.table_xinfo([{table}])") if r[6] == 0]


def run_cached(ctx: "BuildContext", step: "Step") -> None:
    """Run ``step`` (a full build's), or restore what it made from the cache; see the module docstring."""
    conn = ctx.db.conn
    key = ctx.cache.key(namespace(step), *step.cache_inputs(ctx))
    path = ctx.cache.rows_path(namespace(step), key)
    entry = read_row_file(path, key) if path is not None else None
    if entry is not None and _restore(ctx, path, entry[0]):
        ctx.cache.hits[namespace(step)] += 1
        return
    ctx.cache.misses[namespace(step)] += 1
    before = _schema(conn)
    counts_before = _counts(conn, [n for n, (k, _t, sql) in before.items()
                                   if k == "table" and not sql.lower().startswith("create virtual")])
    problems_before = len(ctx.problems)
    step.run(ctx)
    after = _schema(conn)
    created = [n for n, v in after.items() if n not in before]
    tables = [n for n in created if after[n][0] == "table"]
    untouched = (all(after.get(n) == v for n, v in before.items())
                 and _counts(conn, list(counts_before)) == counts_before)
    if not untouched or any(after[n][2].lower().startswith("create virtual") for n in tables) \
            or any(after[n][0] != "view" and after[n][1] not in tables for n in created):
        return
    problems = [[p.source, p.line, p.severity, p.code, p.message, p.release, p.lang]
                for p in ctx.problems[problems_before:]]
    try:
        _save(conn, path, key, created, after, tables, problems)
    except Exception as e:  # a cache that can't be written is noted, never fatal
        ctx.cache.errors.append(f"cache entry {namespace(step)}/{key[:12]} not written: {e}")


def _save(conn, path: Path, key: str, created: list[str], schema: dict, tables: list[str], problems: list) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    tmp.unlink(missing_ok=True)
    conn.commit()
    conn.execute("attach database ? as snapshot", [str(tmp)])
    try:
        counts = {}
        with conn:
            for table in tables:
                columns = ", ".join(f"[{c}]" for c in _columns(conn, table))
                conn.execute(f"create table snapshot.[{table}] as select {columns} from main.[{table}] order by rowid")
                counts[table] = conn.execute(f"select count(*) from snapshot.[{table}]").fetchone()[0]
            meta = {"schema": [[n, *schema[n]] for n in created], "problems": problems}
            conn.execute("create table snapshot.entry (key text, value text)")
            conn.executemany("insert into snapshot.entry values (?, ?)", [
                ("key", key), ("format", str(FORMAT)), ("counts", json.dumps(counts)), ("meta", json.dumps(meta))])
    finally:
        conn.execute("detach database snapshot")
    os.replace(tmp, path)


def _restore(ctx: "BuildContext", path: Path, meta: dict) -> bool:
    conn = ctx.db.conn
    schema = meta.get("schema")
    present = _schema(conn)
    if not schema or any(name in present for name, *_ in schema):
        return False   # the database already has one of its tables: run the step instead
    conn.commit()
    conn.execute("attach database ? as snapshot", [str(path)])
    try:
        with conn:
            for name, kind, _table, sql in schema:
                if kind == "table":
                    conn.execute(sql)
                    columns = ", ".join(f"[{c}]" for c in _columns(conn, name, "snapshot"))
                    conn.execute(f"insert into main.[{name}] ({columns}) select {columns} from snapshot.[{name}]"
                                 " order by rowid")
            for name, kind, _table, sql in schema:
                if kind != "table" and sql:
                    conn.execute(sql)
    finally:
        conn.execute("detach database snapshot")
    ctx.problems.extend(IngestProblem(*p) for p in meta.get("problems", []))
    return True


def inputs_of(modules: tuple[str, ...], folder: str):
    """``cache_inputs`` for a step whose result is the code of ``modules`` applied to the corpus files
    under ``folder`` (with the versions of the Japanese segmenter, which search forms come from)."""

    def cache_inputs(ctx: "BuildContext") -> list[str]:
        from .cache import code_version, digest, file_digest, package_versions

        versions = package_versions("sudachipy", "sudachidict_core")
        prefix = folder.rstrip("/") + "/"
        found = sorted((p, d) for p, (d, _size) in ctx.inputs.items() if p.startswith(prefix))
        if not ctx.inputs:   # a context made without the build's inputs (tests, tools)
            root = ctx.corpus / folder
            found = sorted((p.relative_to(ctx.corpus).as_posix(), file_digest(p)) for p in root.rglob("*")
                           if p.is_file() and not p.name.startswith(".")) if root.is_dir() else []
        return [code_version(*modules, "kb.step_cache"), *versions, str(ctx.keep_going),
                digest(*[part for pair in found for part in pair])]

    return cache_inputs
