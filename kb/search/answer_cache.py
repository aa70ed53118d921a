"""Answers remembered: the same search of the same database asked again costs a copy, not a search.

Many players ask the same few questions ("what does hexproof stop"); a search reads only the
database (opened read-only by the server and the CLI) and its arguments, so its answer is kept,
keyed by the database file (path, size and modification time: a rebuilt file is another key), the
query as typed and every argument, the embedder's name included. What is not kept: answers of an
in-memory database, searches that failed (their time limit, a bad release: they fail again), and answers that fell back
to the lexical path because dense search was not ready (the model busy, vectors being filled):
those depend on the moment, not on the question.

An answer is kept pickled (21 kB on average over the evaluation sets; pickling 0.13 ms, reading
0.16 ms, a third of `copy.deepcopy`), so that every caller gets its own copy (the search page and
the CLI may change what they are given).
"""

from __future__ import annotations

import functools
import os
import pickle
import threading
import time
from collections import OrderedDict

from . import dense as dense_module

# Answers kept, least recently used dropped first (about 21 MB);
# KB_ANSWER_CACHE=0 turns the cache off (the test suite does: its spies on the engine must run).
SIZE = 1024
# Notes of answers that are lexical only because dense search could not run this time.
MOMENTARY = ("dense search is being prepared", "the embedding model was busy")

_lock = threading.Lock()
_answers: OrderedDict[tuple, bytes] = OrderedDict()
hits = 0  # answers given from the cache since the process started


def size() -> int:
    """The number of answers kept: ``KB_ANSWER_CACHE``, else :data:`SIZE` (read at each search)."""
    return int(os.environ.get("KB_ANSWER_CACHE", SIZE))


def clear() -> None:
    """Forget every answer (the bench times first searches this way)."""
    with _lock:
        _answers.clear()


def _database(conn) -> tuple | None:
    """(path, size, mtime) of the main database file and of its write-ahead log if it has one
    (a write in WAL mode changes only the log), or None for an in-memory database."""
    row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
    if not row or not row[2] or not os.path.exists(row[2]):
        return None
    stat = os.stat(row[2])
    wal = os.stat(row[2] + "-wal") if os.path.exists(row[2] + "-wal") else None
    return (row[2], stat.st_size, stat.st_mtime_ns, wal and (wal.st_size, wal.st_mtime_ns))


def _momentary(result) -> bool:
    # An embedder that can't be loaded stays so for the process (dense._problems): not momentary.
    return any(note.startswith(MOMENTARY) for note in result.notes)


def cached(answer):
    """``answer`` (:func:`.engine.answer`) remembering its answers."""

    @functools.wraps(answer)
    def remembering(conn, query, **options):
        global hits
        kept_at_most = size()
        database = _database(conn) if kept_at_most > 0 else None
        if database is None:
            return answer(conn, query, **options)
        embedder = options.get("embedder_name") or os.environ.get("KB_EMBEDDER") or dense_module.DEFAULT
        key = (database, query, embedder, tuple(sorted(options.items())))
        started = time.monotonic()
        with _lock:
            kept = _answers.get(key)
            if kept is not None:
                _answers.move_to_end(key)
                hits += 1
        if kept is not None:
            result = pickle.loads(kept)
            result.seconds = time.monotonic() - started
            return result
        result = answer(conn, query, **options)
        if not _momentary(result):
            try:
                kept = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
            except (pickle.PicklingError, TypeError, AttributeError):  # a value that can't be kept
                return result
            with _lock:
                _answers[key] = kept
                while len(_answers) > kept_at_most:
                    _answers.popitem(last=False)
        return result

    remembering.uncached = answer
    return remembering
