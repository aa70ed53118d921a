"""Admission of the dear requests: a few at a time, the rest queued for a bounded wait, then 503.

Searches, resolutions, diffs and Datasette's own SQL pages cost 0.1–1 s of CPU each. Forty of them
at once used to be run all together: Datasette's three SQL threads took them in turn while every
client waited, the last for tens of seconds, past its own timeout. The plugin's ``asgi_wrapper``
sends each dear request through :class:`Admission` instead: :data:`SLOTS` run at once (fewer than
Datasette's SQL threads, so that rule, keyword and card pages always find a free one), the others
wait in arrival order, and one that cannot start within :data:`MAX_WAIT` seconds, or finds
:data:`MAX_QUEUE` already waiting, is answered at once with a 503 and a ``Retry-After`` estimated
from how long requests take now. A request that waited (the server is busy) is marked in its ASGI
scope (:data:`BUSY`): the search then answers lexically, with a note, rather than embed the query.

Cheap pages (rule, keyword, card and scenario pages, mostly kept in memory once read; static
files; ``/-/versions.json``) are not queued.

>>> is_dear("/-/search.json") and is_dear("/kb/rules") and is_dear("/-/run/discover")
True
>>> is_dear("/-/rules/701.57") or is_dear("/-/static-plugins/mtg-rules-kb/kb.css") or is_dear("/")
False
"""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
from collections import deque

#: Dear requests that run at once (``kb serve`` gives Datasette four SQL threads: one stays for the cheap pages).
SLOTS = 3
#: Dear requests that may wait for a slot; one more is refused at once.
MAX_QUEUE = 64
#: Seconds a dear request may wait for a slot before it is answered 503.
MAX_WAIT = 20.0
#: The ASGI scope key set on a request that had to wait: the server is busy.
BUSY = "kb.busy"
#: A request that waited at least this long counts as having met a busy server.
BUSY_AFTER = 0.5

# Our pages that do a request's worth of work each time (search, runs, diffs, the lists of everything);
# every other path outside /-/ is Datasette's database, table, row and SQL pages.
_DEAR_PAGES = ("/-/search", "/-/run/", "/-/diff", "/-/coverage")
_CHEAP_DATASETTE = ("/-/static", "/-/versions", "/favicon.ico", "/robots.txt")


def is_dear(path: str, query_string: bytes = b"") -> bool:
    """Whether a request for ``path`` goes through the queue.

    A CSV stream of a whole table (``?_stream=on``) is not: it runs for minutes, one page of rows
    at a time, each under Datasette's time limit, and would hold a slot all that while.

    >>> is_dear("/kb/rules.csv", b"_stream=on"), is_dear("/kb/rules.csv", b"_size=10")
    (False, True)
    """
    if b"_stream=" in query_string:
        return False
    if path.startswith(_CHEAP_DATASETTE) or path == "/":
        return False
    if path.startswith("/-/"):
        return path.startswith(_DEAR_PAGES)
    return True


class _Waiter:
    """One request waiting for a slot: woken in its own event loop, whichever thread frees the slot."""

    __slots__ = ("abandoned", "future", "granted")

    def __init__(self, future: asyncio.Future) -> None:
        self.future, self.granted, self.abandoned = future, False, False

    def wake(self) -> None:
        if not self.future.done():
            self.future.set_result(None)


class Admission:
    """At most ``slots`` requests at once; up to ``queue`` more wait (first come, first served)
    for at most ``wait`` seconds each.

    Safe across threads and event loops (Datasette's client may be driven from several threads,
    each with its own loop): the counts change under a lock, and a waiter is woken in its own loop
    with ``call_soon_threadsafe``; whether it got the slot is decided under the lock, never by the
    future, so a slot handed over just as the wait ends is taken, not lost.
    """

    def __init__(self, slots: int = SLOTS, queue: int = MAX_QUEUE, wait: float = MAX_WAIT):
        self.slots, self.queue, self.wait = slots, queue, wait
        self.running = 0
        self.waiters: deque[_Waiter] = deque()
        self.mean_seconds = 0.3  # moving average of a dear request's time once started
        self._lock = threading.Lock()

    async def enter(self) -> float | None:
        """Wait for a slot: the seconds waited, or None if refused (the queue full, or waited too long)."""
        with self._lock:
            if self.running < self.slots and not self.waiters:
                self.running += 1
                return 0.0
            if len(self.waiters) >= self.queue:
                return None
            waiter = _Waiter(asyncio.get_running_loop().create_future())
            self.waiters.append(waiter)
        started = time.monotonic()
        try:
            await asyncio.wait_for(asyncio.shield(waiter.future), self.wait)
        except TimeoutError:
            with self._lock:
                if not waiter.granted:
                    waiter.abandoned = True
                    self._forget(waiter)
                    return None
            return time.monotonic() - started  # given a slot just as the wait ended: take it
        except asyncio.CancelledError:  # the client went away while waiting
            with self._lock:
                granted = waiter.granted
                if not granted:
                    waiter.abandoned = True
                    self._forget(waiter)
            if granted:
                self.leave()  # it was handed a slot: pass it on
            raise
        return time.monotonic() - started

    def _forget(self, waiter: _Waiter) -> None:
        if waiter in self.waiters:
            self.waiters.remove(waiter)

    def leave(self, seconds: float | None = None) -> None:
        """A request that entered is done, after ``seconds``: its slot goes to the first waiter."""
        with self._lock:
            if seconds is not None:
                self.mean_seconds = 0.8 * self.mean_seconds + 0.2 * seconds
            while self.waiters:
                waiter = self.waiters.popleft()
                if not waiter.abandoned:
                    waiter.granted = True  # the slot passes on; running stays the same
                    break
            else:
                self.running -= 1
                return
        try:
            waiter.future.get_loop().call_soon_threadsafe(waiter.wake)
        except RuntimeError:  # its loop has closed: the request is gone, so is its slot
            self.leave()

    def retry_after(self) -> int:
        """Seconds after which a refused client may find a slot: the queue ahead at today's pace."""
        ahead = len(self.waiters) + self.running
        return max(1, min(60, math.ceil(ahead * self.mean_seconds / self.slots)))

    def refusal_headers(self) -> dict[bytes, bytes]:
        return {b"retry-after": str(self.retry_after()).encode()}


def admitted(app, admission: Admission):
    """``app`` with every dear HTTP request going through ``admission``."""
    async def gated(scope, receive, send):
        if scope["type"] != "http" or not is_dear(scope.get("path", ""), scope.get("query_string", b"")):
            await app(scope, receive, send)
            return
        waited = await admission.enter()
        if waited is None:
            await _busy(send, scope, admission.retry_after())
            return
        if waited >= BUSY_AFTER:
            scope = {**scope, BUSY: waited}
        started = time.monotonic()
        try:
            await app(scope, receive, send)
        finally:
            admission.leave(time.monotonic() - started)

    return gated


async def _busy(send, scope, retry_after: int) -> None:
    sentence = (f"the server is busy with other requests; try again in {retry_after} s "
                "(the Retry-After header says the same)")
    as_json = scope.get("path", "").endswith(".json") or b"_format=json" in scope.get("query_string", b"")
    if as_json:
        body = json.dumps({"ok": False, "error": sentence, "status": 503}).encode("utf-8")
        content_type = b"application/json; charset=utf-8"
    else:
        body = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Busy</title></head>'
                f'<body><h1>Busy</h1><p role="alert">{sentence}</p><p><a href="/">Home</a></p>'
                "</body></html>").encode()
        content_type = b"text/html; charset=utf-8"
    await send({"type": "http.response.start", "status": 503, "headers": [
        (b"content-type", content_type), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(retry_after).encode())]})
    await send({"type": "http.response.body", "body": body})
