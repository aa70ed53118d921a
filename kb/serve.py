"""Serve the database with Datasette, read-only (``--immutable``), with our metadata and plugin.

``kb serve`` needs the database file and nothing else: the plugin reads
everything (card pool and scenarios too) from its tables. Datasette reads
metadata from a file, so ``kb serve`` writes one to the temp folder
(``kb-metadata-<pid>-….json``), removes it when the server stops (Ctrl-C or
SIGTERM), and removes the files of servers that were killed outright.

``--public`` is for a server on the internet: no arbitrary SQL (canned queries
and every page still work), no download of the whole database file, no CSV
streams of whole tables, and a shorter time limit on each query.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .metadata import metadata_for

_METADATA = re.compile(r"kb-metadata-(\d+)-.*\.json")


def write_metadata(db: Path, *, public: bool = False) -> Path:
    """Write the metadata for ``db`` (named after its file, as Datasette does) to a temp file."""
    remove_stale_metadata()
    metadata = metadata_for(db.stem)
    if public:
        metadata["allow_sql"] = False   # arbitrary SQL off; canned queries stay
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", prefix=f"kb-metadata-{os.getpid()}-", delete=False)
    with handle:
        json.dump(metadata, handle, ensure_ascii=False, indent=2)
    return Path(handle.name)


def remove_stale_metadata(folder: Path | None = None) -> list[Path]:
    """Remove the metadata files of ``kb serve`` processes that no longer run; return them."""
    removed = []
    for path in Path(folder or tempfile.gettempdir()).glob("kb-metadata-*.json"):
        m = _METADATA.fullmatch(path.name)
        if m and _alive(int(m.group(1))):
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def datasette_args(db: Path, metadata: Path, *, host: str = "127.0.0.1", port: int = 8001,
                   public: bool = False) -> list[str]:
    """The ``datasette serve`` arguments ``kb serve`` uses (also used by tests and bench)."""
    args = [
        "serve", "--immutable", str(db), "--metadata", str(metadata),
        "--host", host, "--port", str(port),
        "--setting", "sql_time_limit_ms", "1000" if public else "3000",
        "--setting", "facet_time_limit_ms", "200",
        # Suggested facets cost more than the page itself on a search of 130 releases.
        "--setting", "suggest_facets", "off",
        "--setting", "default_page_size", "50",
        # One more than the dear requests admitted at once (kb.plugin.admission.SLOTS): rule, keyword
        # and card pages always find a thread free, however many searches wait.
        "--setting", "num_sql_threads", "4",
    ]
    if public:
        args += [
            "--setting", "allow_download", "off",      # the whole database file (~300 MB)
            "--setting", "allow_csv_stream", "off",    # CSV of every row of a table
            "--setting", "max_returned_rows", "1000",
        ]
    return args


def serve_database(db: Path, *, host: str = "127.0.0.1", port: int = 8001, public: bool = False) -> None:
    """Run Datasette on ``db`` until it is stopped; its metadata file goes with it."""
    from datasette.cli import cli as datasette_cli

    metadata = write_metadata(db, public=public)
    # uvicorn shuts down on SIGTERM, then raises the signal again for the handler it found:
    # make that handler an exit, so the file below is removed (SIGINT already raises).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        datasette_cli.main(args=datasette_args(db, metadata, host=host, port=port, public=public),
                           prog_name="kb serve")
    finally:
        metadata.unlink(missing_ok=True)


def free_port() -> int:
    """A TCP port free on localhost right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Server:
    """A ``kb serve`` child process: its base URL and process id."""

    base: str
    pid: int


@contextlib.contextmanager
def running_server(db: Path, *, timeout: float = 120.0, public: bool = False,
                   env: dict[str, str] | None = None) -> Iterator[str]:
    """``kb serve`` in a child process on a free port; yields its base URL once it answers,
    and stops it (SIGTERM) afterwards. For tests and benchmarks."""
    with serving(db, timeout=timeout, public=public, env=env) as server:
        yield server.base


@contextlib.contextmanager
def serving(db: Path, *, timeout: float = 120.0, public: bool = False,
            env: dict[str, str] | None = None) -> Iterator[Server]:
    """As :func:`running_server`, yielding a :class:`Server` (benchmarks read its memory)."""
    import httpx

    port = free_port()
    # The server's log goes to a file, not a pipe nobody reads (a full pipe would stall it).
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [sys.executable, "-m", "kb.cli", "serve", "--db", str(db), "--port", str(port),
         *(["--public"] if public else [])],
        stdout=subprocess.DEVNULL, stderr=log, env=env,
    )
    base = f"http://127.0.0.1:{port}"

    def log_text() -> str:
        log.seek(0)
        return log.read().decode("utf-8", "replace")[-4000:]

    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                httpx.get(f"{base}/-/versions.json", timeout=1)
                break
            except httpx.TransportError:
                if process.poll() is not None:
                    raise RuntimeError(f"kb serve exited: {log_text()}") from None
                if time.monotonic() > deadline:
                    raise RuntimeError(f"kb serve did not answer on {base} within {timeout:.0f} s") from None
                time.sleep(0.1)
        yield Server(base, process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
