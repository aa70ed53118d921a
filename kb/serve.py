"""Serve the database with Datasette, read-only (``--immutable``), with our metadata and plugin."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

from .metadata import metadata_for


def write_metadata(db: Path) -> Path:
    """Write the metadata for ``db`` (named after its file, as Datasette does) to a temp file."""
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", prefix="kb-metadata-", delete=False)
    with handle:
        json.dump(metadata_for(db.stem), handle, ensure_ascii=False, indent=2)
    return Path(handle.name)


def datasette_args(db: Path, metadata: Path, *, host: str = "127.0.0.1", port: int = 8001) -> list[str]:
    """The ``datasette serve`` arguments ``kb serve`` uses (also used by tests and bench)."""
    return [
        "serve", "--immutable", str(db), "--metadata", str(metadata),
        "--host", host, "--port", str(port),
        "--setting", "sql_time_limit_ms", "3000",
        "--setting", "facet_time_limit_ms", "200",
        # Suggested facets cost more than the page itself on a search of 130 releases.
        "--setting", "suggest_facets", "off",
        "--setting", "default_page_size", "50",
    ]


def serve_database(db: Path, *, host: str = "127.0.0.1", port: int = 8001) -> None:
    from datasette.cli import cli as datasette_cli

    metadata = write_metadata(db)
    datasette_cli.main(args=datasette_args(db, metadata, host=host, port=port), prog_name="kb serve")


def free_port() -> int:
    """A TCP port free on localhost right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(db: Path, *, timeout: float = 30.0) -> Iterator[str]:
    """``datasette serve`` as ``kb serve`` runs it, in a child process on a free port; yields
    its base URL once it answers, and stops it afterwards. For tests and benchmarks."""
    import httpx

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "datasette", *datasette_args(db, write_metadata(db), port=port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                httpx.get(f"{base}/-/versions.json", timeout=1)
                break
            except httpx.TransportError:
                if process.poll() is not None:
                    raise RuntimeError(f"datasette exited: {process.stderr.read().decode()}") from None
                if time.monotonic() > deadline:
                    raise RuntimeError(f"datasette did not answer on {base} within {timeout:.0f} s") from None
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
