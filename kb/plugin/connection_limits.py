"""SQLite limits on every Datasette connection, so one function call can't take the server.

Datasette stops slow SQL with a progress handler, but a single function call
is one step of SQLite's virtual machine: ``select randomblob(500000000)`` ran
19 s and left the server at ~1 GB. SQLite's own guard is the length limit
(``SQLITE_LIMIT_LENGTH``: the largest string or blob any expression may
build), which fails such a call at once with "string or blob too big":

- on the standard library's ``sqlite3`` (Python 3.11+) through
  ``Connection.setlimit``;
- on ``pysqlite3`` (which Datasette prefers, and which has no ``setlimit``)
  through SQLite's C function ``sqlite3_limit`` in the library pysqlite3 ships,
  called with ctypes on the connection's ``sqlite3 *`` handle (the first field
  after the object header, as in every pysqlite since 2004). The handle is
  checked before it is used: SQLite must name the same database file for it as
  the connection does, and the limit must then refuse a blob one byte too long.

As a backstop for what the length limit does not see (large sorts, many
mid-sized values at once), ``pragma hard_heap_limit`` caps the memory SQLite
may take in the whole process.

>>> from kb.sqlite import sqlite3
>>> conn = sqlite3.connect(":memory:")
>>> apply_limits(conn)
True
>>> try:
...     conn.execute("select randomblob(20000000)")
... except sqlite3.DataError as e:
...     print(e)
string or blob too big
"""

from __future__ import annotations

import ctypes
import functools
import logging

log = logging.getLogger("kb.serve")

#: The largest string or blob one expression may build (the largest value we store is ~50 kB).
MAX_LENGTH = 16 * 1024 * 1024
#: SQLite's heap in the whole process: page caches, sorts, FTS5 and vectors fit well inside.
HARD_HEAP_LIMIT = 512 * 1024 * 1024
_SQLITE_LIMIT_LENGTH = 0


def apply_limits(conn) -> bool:
    """Set the length and heap limits on ``conn``; True if the length limit is in force."""
    conn.execute(f"pragma hard_heap_limit = {HARD_HEAP_LIMIT}")
    if hasattr(conn, "setlimit"):
        conn.setlimit(_SQLITE_LIMIT_LENGTH, MAX_LENGTH)
        return True
    limit = _c_sqlite3_limit(type(conn).__module__)
    if limit is None:
        return False
    handle = ctypes.c_void_p.from_address(id(conn) + object.__basicsize__).value
    if not handle or not _same_database(conn, handle):
        _warn_once("the SQLite handle of a connection could not be checked; no length limit on it")
        return False
    limit(handle, _SQLITE_LIMIT_LENGTH, MAX_LENGTH)
    try:
        conn.execute(f"select length(randomblob({MAX_LENGTH + 1}))").fetchone()
    except Exception as e:  # the limit refuses it without allocating anything
        if "too big" in str(e):
            return True
    _warn_once("the SQLite length limit did not take effect on a connection")
    return False


@functools.lru_cache(maxsize=None)
def _library(module: str):
    if not module.startswith("pysqlite3"):
        return None
    try:
        import pysqlite3._sqlite3 as extension

        return ctypes.CDLL(extension.__file__)
    except (ImportError, OSError, AttributeError):
        return None


def _c_sqlite3_limit(module: str):
    lib = _library(module)
    if lib is None or not hasattr(lib, "sqlite3_limit"):
        return None
    lib.sqlite3_limit.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    lib.sqlite3_limit.restype = ctypes.c_int
    lib.sqlite3_db_filename.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    lib.sqlite3_db_filename.restype = ctypes.c_char_p
    return lib.sqlite3_limit


def _same_database(conn, handle: int) -> bool:
    """Whether SQLite names, for ``handle``, the file the connection says it has open."""
    lib = _library(type(conn).__module__)
    row = conn.execute("select file from pragma_database_list where name = 'main'").fetchone()
    expected = (row[0] if row else "") or ""
    named = lib.sqlite3_db_filename(handle, b"main")
    return (named or b"").decode("utf-8", "replace") == expected


@functools.lru_cache(maxsize=None)
def _warn_once(message: str) -> None:
    log.warning(message)
