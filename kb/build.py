"""Build the whole database from the corpus, atomically.

``build_database`` writes to a temporary file beside the target and renames it
over the target only when every step has succeeded, so a failed build leaves
the previous database as it was. Each source has its own load step (a function
taking a :class:`BuildContext`), listed in :data:`STEPS` in the order they run.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import sqlite_utils
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ingest.records import IngestProblem, SourceError

DEFAULT_DB = "kb.db"


class BuildFailed(Exception):
    """The build stopped; the message names the file and line. The old database is untouched."""


@dataclass
class BuildContext:
    """What a load step gets: the database being built, the corpus, progress and problems."""

    db: sqlite_utils.Database
    corpus: Path
    keep_going: bool = False
    progress: Progress | None = None
    problems: list[IngestProblem] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    @contextlib.contextmanager
    def task(self, description: str, total: int | None) -> Iterator[Callable[[int], None]]:
        """A progress bar for one step; yields ``advance(n)``."""
        if self.progress is None:
            yield lambda n=1: None
            return
        task_id = self.progress.add_task(description, total=total)
        try:
            yield lambda n=1: self.progress.advance(task_id, n)
        finally:
            # A step that could not say its size up front shows 1/1 when done, and its clock stops.
            self.progress.update(task_id, total=total or 1, completed=total or 1)
            self.progress.stop_task(task_id)

    def source_failed(self, error: SourceError) -> None:
        """An unreadable source: stop the build, or with ``keep_going`` keep it as a problem."""
        if not self.keep_going:
            raise BuildFailed(str(error)) from error
        self.problems.append(
            IngestProblem(error.path, error.line, "error", "unreadable", error.message)
        )


def insert_rows(db: sqlite_utils.Database, table: str, columns: list[str], rows) -> None:
    """Insert ``rows`` (tuples in the order of ``columns``) in one ``executemany`` and commit.

    The tables are created with sqlite-utils (:mod:`kb.schema` and each step's
    own); for the hundreds of thousands of rows of known shape the CR and the
    history have, a plain ``executemany`` of tuples is three times as fast as
    ``insert_all``, which checks and converts every row.
    """
    sql = f"insert into [{table}] ({', '.join(f'[{c}]' for c in columns)}) values ({', '.join('?' for _ in columns)})"
    with db.conn:
        db.conn.executemany(sql, rows)


@dataclass
class BuildSummary:
    """What a build produced, for the CLI to print."""

    path: Path
    seconds: float
    counts: dict[str, int]
    warnings: int
    errors: int
    timings: dict[str, float]


def _steps() -> list[tuple[str, Callable[[BuildContext], None]]]:
    """The load steps in the order they run.

    Sources that add CR rows (English, Japanese, rules quoted by wiki pages)
    come before "finish CR", which builds the indexes and FTS of the CR tables;
    "search index" indexes ``search_current`` once every step has added its
    rows; executable rules and history read everything before them; ruling links
    read the history's lineages.
    """
    # Imported here so that a step's import errors name the step.
    from . import schema
    from .load import cards, checks, cr, history, japanese, ruling_links, search_extra, translations, wiki

    return [
        ("schema", lambda ctx: schema.create_cr_tables(ctx.db)),
        ("English CR", cr.load_english_cr),
        ("Japanese CR", japanese.load_japanese_cr),
        ("Chinese CR", translations.load_chinese_cr),
        ("Korean CR", translations.load_korean_cr),
        ("cards", cards.load_cards),
        ("MTG Wiki", wiki.load_wiki),
        ("finish CR", lambda ctx: schema.finish_cr_tables(ctx.db)),
        ("search extra", search_extra.load_search_extra),
        ("search index", lambda ctx: schema.finish_search_current(ctx.db)),
        ("executable rules", checks.load_checks),
        ("rule history", history.load_history),
        ("ruling links", ruling_links.load_ruling_links),
        ("card keywords", cards.link_card_keywords),
    ]


def _write_problems(ctx: BuildContext) -> None:
    ctx.db["ingest_problems"].insert_all(
        (
            {
                "source": p.source, "line": p.line, "severity": p.severity, "code": p.code,
                "message": p.message, "release": p.release, "lang": p.lang,
            }
            for p in ctx.problems
        ),
        batch_size=1000,
    )


def build_database(
    db_path: str | os.PathLike,
    corpus: Path,
    *,
    show_progress: bool = True,
    keep_going: bool = False,
    console: Console | None = None,
) -> BuildSummary:
    """Build the database at ``db_path`` from ``corpus``; see the module docstring."""
    target = Path(db_path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    tmp.unlink(missing_ok=True)
    started = time.perf_counter()
    progress = (
        Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), console=console or Console(stderr=True), transient=False,
        )
        if show_progress
        else None
    )
    db = sqlite_utils.Database(tmp)
    # A build is written once, by one process, from scratch: no journal needed.
    db.execute("pragma journal_mode = off")
    db.execute("pragma synchronous = off")
    ctx = BuildContext(db=db, corpus=corpus, keep_going=keep_going, progress=progress)
    try:
        with progress or contextlib.nullcontext():
            for name, step in _steps():
                t0 = time.perf_counter()
                step(ctx)
                ctx.timings[name] = time.perf_counter() - t0
        _write_problems(ctx)
        counts = {name: db[name].count for name in db.table_names() if not _is_internal(name)}
        db.execute("analyze")
        db.close()
        os.replace(tmp, target)
    except BaseException:
        db.close()
        tmp.unlink(missing_ok=True)
        raise
    return BuildSummary(
        path=target,
        seconds=time.perf_counter() - started,
        counts=counts,
        warnings=sum(p.severity == "warning" for p in ctx.problems),
        errors=sum(p.severity == "error" for p in ctx.problems),
        timings=ctx.timings,
    )


def _is_internal(table: str) -> bool:
    return table.startswith("sqlite_") or "_fts" in table
