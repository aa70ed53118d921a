"""Open the built database: from ``--db``, ``KB_DB``, or the default ``kb.db`` in the project."""

from __future__ import annotations

import os
from .sqlite import sqlite3
from pathlib import Path

import sqlite_utils

from .corpus import PROJECT_ROOT

DEFAULT_DB_PATH = PROJECT_ROOT / "kb.db"


class DatabaseNotFound(Exception):
    """No database at the path; the message says how to build one."""


class RuleNotFound(LookupError):
    """No rule with that number in that release."""


class UnknownRelease(LookupError):
    """No release with that id in the database."""


def db_path(option: str | os.PathLike | None = None) -> Path:
    """The database path: ``option``, else ``KB_DB``, else ``kb.db`` in the project root."""
    if option:
        return Path(option)
    if os.environ.get("KB_DB"):
        return Path(os.environ["KB_DB"])
    return DEFAULT_DB_PATH


def open_db(option: str | os.PathLike | None = None, *, read_only: bool = True) -> sqlite_utils.Database:
    """Open the built database (read-only by default), or raise :class:`DatabaseNotFound`."""
    path = db_path(option)
    if not path.exists():
        raise DatabaseNotFound(
            f"no database at {path}; build it with `kb build --db {path}` "
            "(or point --db / KB_DB at an existing one)"
        )
    if read_only:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    else:
        conn = sqlite3.connect(str(path), check_same_thread=False)
    return sqlite_utils.Database(conn)


def newest_release(db: sqlite_utils.Database, lang: str = "en") -> str:
    """The newest whole release of ``lang`` in the database."""
    row = db.execute(
        "select max(release) from releases where lang = ? and completeness = 'whole'", [lang]
    ).fetchone()
    if not row or row[0] is None:
        raise UnknownRelease(f"the database has no {lang} release; run `kb build`")
    return row[0]


def check_release(db: sqlite_utils.Database, release: str, lang: str | None = None) -> str:
    """Return ``release`` if the database has it, else raise :class:`UnknownRelease` listing nearby ones."""
    params = [release] + ([lang] if lang else [])
    found = db.execute(
        "select 1 from releases where release = ?" + (" and lang = ?" if lang else ""), params
    ).fetchone()
    if found:
        return release
    releases = [r[0] for r in db.execute("select distinct release from releases order by release")]
    near = sorted(releases, key=lambda r: abs(int(r) - int(release)) if release.isdigit() else 0)[:3]
    raise UnknownRelease(
        f"no release {release!r}" + (f" in {lang}" if lang else "")
        + f"; releases are YYYYMMDD dates, e.g. {', '.join(sorted(near))} (see `kb releases`)"
    )
