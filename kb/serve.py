"""Serve the database with Datasette, read-only (``--immutable``), with our metadata and plugin."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

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
