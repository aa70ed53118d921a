"""Database work of the plugin's pages under a time limit, as Datasette bounds its own SQL.

``db.execute_fn`` runs a function on a read connection with no limit at all;
:func:`execute_bounded` runs it with an SQLite progress handler that stops
every statement once the deadline has passed, and raises :class:`WorkTooLong`
(answered as a 400 with a sentence by :mod:`kb.plugin.errors`). The limit counts
the CPU time of the thread doing the work, so a busy machine (many clients, other
processes) makes pages slower but does not make them fail; a wall-clock backstop
of :data:`WALL_FACTOR` times the limit still stops work that waits. Pure Python
work inside the function is not interrupted, so callers bound their inputs
(query length, number of terms) as well.

Datasette's own time limits (``sql_time_limit_ms`` on table, row and SQL pages,
``facet_time_limit_ms`` on each facet) count wall-clock time: on a loaded server a
query of 0.3 s waited for a core past its 3 s and was a 400, a facet of 20 ms "timed
out". :func:`use_cpu_time_limits` makes them count the thread's CPU time too, with
a wall-clock backstop of :data:`DATASETTE_WALL_FACTOR` times the limit.

>>> from kb.sqlite import sqlite3
>>> conn = sqlite3.connect(":memory:")
>>> slow = "with recursive n(i) as (select 1 union all select i + 1 from n) select count(*) from n"
>>> run_bounded(conn, lambda c: c.execute(slow).fetchone(), 50, "counting")
Traceback (most recent call last):
...
kb.plugin.bounded.WorkTooLong: counting took longer than 50 ms and was stopped; ask for less
>>> run_bounded(conn, lambda c: c.execute("select 1").fetchone(), 50, "one")
(1,)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from kb.sqlite import sqlite3

#: Default limit for one page's database work, as Datasette's ``sql_time_limit_ms`` for SQL.
PAGE_TIME_LIMIT_MS = 2000
#: Work is stopped after this many times its limit in wall-clock time, however little CPU it used.
WALL_FACTOR = 30
#: Datasette's SQL is stopped after this many times its limit in wall-clock time (3 s: 30 s).
DATASETTE_WALL_FACTOR = 10
# SQLite calls the handler every this many virtual-machine instructions.
_STEPS = 2000


class WorkTooLong(Exception):
    """A page's database work ran past its time limit; the message says what to change."""


def run_bounded(conn, fn: Callable[[Any], Any], ms: int, what: str) -> Any:
    """``fn(conn)`` with every SQLite statement stopped after ``ms`` milliseconds in all."""
    # CPU time of this thread: the work itself, not the time spent waiting for a core.
    cpu_deadline = time.thread_time() + ms / 1000
    wall_deadline = time.monotonic() + WALL_FACTOR * ms / 1000
    conn.set_progress_handler(
        lambda: time.thread_time() > cpu_deadline or time.monotonic() > wall_deadline, _STEPS)
    try:
        return fn(conn)
    except sqlite3.OperationalError as e:
        if "interrupted" in str(e):
            raise WorkTooLong(f"{what} took longer than {ms} ms and was stopped; ask for less") from None
        raise
    finally:
        conn.set_progress_handler(None, _STEPS)


async def execute_bounded(db, fn: Callable[[Any], Any], *, ms: int = PAGE_TIME_LIMIT_MS,
                          what: str = "this page") -> Any:
    """``db.execute_fn(fn)`` under a time limit (see :func:`run_bounded`)."""
    return await db.execute_fn(lambda conn: run_bounded(conn, fn, ms, what))


@contextlib.contextmanager
def cpu_timelimit(conn, ms: int):
    """Datasette's ``sqlite_timelimit``, counting this thread's CPU time rather than the clock's."""
    cpu_deadline = time.thread_time() + ms / 1000
    wall_deadline = time.monotonic() + DATASETTE_WALL_FACTOR * ms / 1000
    steps = 1000 if ms > 20 else 1  # as Datasette's: a tiny limit is checked at every step

    def handler() -> int:
        return 1 if time.thread_time() >= cpu_deadline or time.monotonic() >= wall_deadline else 0

    conn.set_progress_handler(handler, steps)
    try:
        yield
    finally:
        conn.set_progress_handler(None, steps)


def use_cpu_time_limits() -> None:
    """Datasette's queries (pages, facets) limited in CPU time (:func:`cpu_timelimit`) from now on."""
    import datasette.database

    datasette.database.sqlite_timelimit = cpu_timelimit
