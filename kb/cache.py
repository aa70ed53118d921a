"""Build caches: results keyed by the content of their inputs and the code that made them.

A build parses 130 releases and matches 133 pairs of them; when a release
arrives, almost all of that is what the last build did. The results are kept
outside the database, in ``~/.cache/mtg-rules-kb/`` (``$XDG_CACHE_HOME``
respected; ``KB_CACHE_DIR`` or ``kb build --cache-dir DIR`` elsewhere; ``kb
build --no-cache`` to build without), so worktrees and databases share them.

Each entry lives in a *namespace* (``cr-en``: one parsed English release;
``pairs``: the matches of two releases; ``lineages``) and has a key made of

- the namespace's **code version**: a digest of the source files of the
  modules that compute it (:func:`code_version`), with the Python version and
  this module's format number, so a cache made by other code is never read;
- the digests of its inputs (a file's bytes, the rules of a release, ...).

Entries are written atomically (a temporary file renamed into place) and read
back only when the header repeats their key and the payload's digest: a
truncated, foreign or corrupt entry is a miss, never a wrong answer. Values
are what :mod:`marshal` stores (None, numbers, strings, bytes, tuples, lists,
dicts, sets): no code runs when an entry is read.

A new build step opts in with :meth:`Cache.memo`::

    rows = ctx.cache.memo("my-step", code_version("kb.load.my_step"), [file_digest(path)],
                          lambda: compute_rows(path))

>>> import tempfile
>>> cache = Cache(Path(tempfile.mkdtemp()))
>>> key = cache.key("demo", "v1", "input digest")
>>> cache.get("demo", key) is None
True
>>> cache.put("demo", key, {"rows": [(1, "a")]})
>>> cache.get("demo", key)
{'rows': [(1, 'a')]}
>>> cache.get("demo", cache.key("demo", "v2", "input digest")) is None   # other code: a miss
True
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")

# Bump when the entry layout changes: older entries then stop matching any key.
FORMAT = 1
_MAGIC = b"mtg-rules-kb cache\n"


def default_cache_dir() -> Path:
    """``KB_CACHE_DIR``, else ``$XDG_CACHE_HOME/mtg-rules-kb``, else ``~/.cache/mtg-rules-kb``."""
    if os.environ.get("KB_CACHE_DIR"):
        return Path(os.environ["KB_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mtg-rules-kb"


def digest(*parts: bytes | str) -> str:
    """A hex digest of ``parts`` (each length-prefixed, so ``("ab", "c")`` ≠ ``("a", "bc")``).

    >>> digest("ab", "c") != digest("a", "bc")
    True
    """
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def file_digest(path: str | os.PathLike) -> str:
    """The digest of a file's bytes."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, lambda: hashlib.blake2b(digest_size=20)).hexdigest()


_CODE_VERSIONS: dict[tuple[str, ...], str] = {}


def package_versions(*packages: str) -> list[str]:
    """``"name version"`` of each installed package (its bare name when it is not installed): part of a cache key
    when what is cached depends on a package's data, as Japanese rows do on SudachiPy's dictionary."""
    from importlib import metadata

    versions = []
    for package in packages:
        try:
            versions.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            versions.append(package)
    return versions


def code_version(*modules: str) -> str:
    """A digest of the source of ``modules`` (dotted names), the Python version and :data:`FORMAT`.

    Computed once per process for each set of modules (the source does not
    change under a running build).
    """
    if modules not in _CODE_VERSIONS:
        parts: list[bytes | str] = [f"format {FORMAT}", sys.version, f"marshal {marshal.version}"]
        for name in modules:
            spec = importlib.util.find_spec(name)
            if spec is None or not spec.origin:
                raise ModuleNotFoundError(f"no module {name!r} to version the cache by")
            parts += [name, Path(spec.origin).read_bytes()]
        _CODE_VERSIONS[modules] = digest(*parts)
    return _CODE_VERSIONS[modules]


class Cache:
    """A directory of entries by namespace and key; ``root=None`` is a cache that keeps nothing."""

    def __init__(self, root: Path | None):
        self.root = root
        self.hits: Counter[str] = Counter()
        self.misses: Counter[str] = Counter()
        self.errors: list[str] = []

    @classmethod
    def disabled(cls) -> "Cache":
        return cls(None)

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def key(self, namespace: str, code: str, *inputs: str) -> str:
        """The key of an entry of ``namespace`` made by ``code`` (a :func:`code_version`) from ``inputs``."""
        return digest(namespace, code, *inputs)

    def _path(self, namespace: str, key: str) -> Path:
        assert self.root is not None
        return self.root / namespace / key[:2] / f"{key}.marshal"

    def has(self, namespace: str, key: str) -> bool:
        """Whether an entry exists (it may still fail its checks when read)."""
        return self.root is not None and self._path(namespace, key).is_file()

    def get(self, namespace: str, key: str) -> object | None:
        """The value stored under ``key``, or None (a miss) when there is none or it doesn't check out."""
        if self.root is None:
            return None
        path = self._path(namespace, key)
        try:
            data = path.read_bytes()
        except OSError:
            self.misses[namespace] += 1
            return None
        head = _MAGIC + key.encode() + b"\n"
        body = data[len(head) + 40 + 1:]
        if (not data.startswith(head) or data[len(head):len(head) + 40].decode("ascii", "replace")
                != digest(body) or data[len(head) + 40:len(head) + 41] != b"\n"):
            self.misses[namespace] += 1
            return None
        try:
            value = marshal.loads(body)
        except (EOFError, ValueError, TypeError):
            self.misses[namespace] += 1
            return None
        self.hits[namespace] += 1
        try:
            os.utime(path)  # last use, for pruning
        except OSError:
            pass
        return value

    def put(self, namespace: str, key: str, value: object) -> None:
        """Store ``value`` under ``key``; a cache that can't be written is noted, never fatal."""
        if self.root is None:
            return
        path = self._path(namespace, key)
        body = marshal.dumps(value)
        data = _MAGIC + key.encode() + b"\n" + digest(body).encode() + b"\n" + body
        tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except (OSError, ValueError) as e:
            tmp.unlink(missing_ok=True)
            self.errors.append(f"cache entry {namespace}/{key[:12]} not written: {e}")

    def memo(self, namespace: str, code: str, inputs: Iterable[str], compute: Callable[[], T]) -> T:
        """The cached value for ``inputs``, or ``compute()`` stored for next time."""
        key = self.key(namespace, code, *inputs)
        found = self.get(namespace, key)
        if found is not None:
            return found  # type: ignore[return-value]
        value = compute()
        self.put(namespace, key, value)
        return value

    # --- rows, as small SQLite files -----------------------------------------------------
    #
    # Rows bound for the database go into the cache as an SQLite file of the same
    # tables: copying them in with INSERT ... SELECT costs a fifth of inserting
    # them from Python, and worker processes write them in parallel.

    def rows_path(self, namespace: str, key: str) -> Path | None:
        """Where the row file of ``key`` lives (None for a cache that keeps nothing)."""
        return self._path(namespace, key).with_suffix(".sqlite") if self.root is not None else None

    def summary(self) -> str:
        """``cr-en 130/130, pairs 131/133`` (hits/lookups per namespace)."""
        names = sorted(set(self.hits) | set(self.misses))
        return ", ".join(f"{n} {self.hits[n]}/{self.hits[n] + self.misses[n]}" for n in names)

    # --- housekeeping ---------------------------------------------------------------

    def entries(self) -> list[tuple[Path, int, float]]:
        """(path, size, last use) of every entry."""
        if self.root is None or not self.root.is_dir():
            return []
        out = []
        # oracle-parse/<version>.sqlite: executable_rules.oracle.parse_cache's parsed Oracle lines, one file a grammar.
        for path in [*self.root.glob("*/*/*.marshal"), *self.root.glob("*/*/*.sqlite"),
                     *self.root.glob("oracle-parse/*.sqlite")]:
            try:
                st = path.stat()
            except OSError:
                continue
            out.append((path, st.st_size, st.st_mtime))
        return out

    def prune(self, max_bytes: int, *, keep_newer_than: float = 3600) -> int:
        """Remove the least recently used entries until the cache holds at most ``max_bytes``
        (entries used in the last ``keep_newer_than`` seconds stay); also left-over temporary files.
        Returns the bytes freed."""
        if self.root is None or not self.root.is_dir():
            return 0
        freed = 0
        now = time.time()
        for tmp in [*self.root.glob("*/*/*.marshal.tmp-*"), *self.root.glob("*/*/*.sqlite.tmp-*")]:
            try:
                if now - tmp.stat().st_mtime > 3600:
                    freed += tmp.stat().st_size
                    tmp.unlink()
            except OSError:
                pass
        entries = sorted(self.entries(), key=lambda e: e[2])
        total = sum(size for _, size, _ in entries)
        for path, size, used in entries:
            if total <= max_bytes or now - used < keep_newer_than:
                break
            try:
                _unlink(path)
            except OSError:
                continue
            total -= size
            freed += size
        return freed

    def clear(self) -> int:
        """Remove every entry; returns how many."""
        count = 0
        for path, _size, _used in self.entries():
            try:
                _unlink(path)
                count += 1
            except OSError:
                pass
        return count


def _unlink(path: Path) -> None:
    """Remove an entry; an SQLite one with its write-ahead log (a log left beside a new file would be replayed)."""
    path.unlink()
    if path.suffix == ".sqlite":
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


# What a build keeps at most; the least recently used entries go first.
DEFAULT_MAX_BYTES = int(os.environ.get("KB_CACHE_MAX_MB", "1024")) * 1_000_000


def write_row_file(path: Path, key: str, tables: dict[str, tuple[list[str], list[tuple]]],
                   meta: dict[str, object]) -> None:
    """Write ``tables`` (name → (columns, rows)) and ``meta`` (JSON values) to the SQLite file ``path``
    atomically; the file records ``key`` and each table's row count, which :func:`read_row_file` checks."""
    import json

    from .sqlite import sqlite3

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    tmp.unlink(missing_ok=True)
    conn = sqlite3.connect(str(tmp))
    try:
        conn.execute("pragma journal_mode = off")
        conn.execute("pragma synchronous = off")
        counts = {}
        for name, (columns, rows) in tables.items():
            conn.execute(f"create table [{name}] ({', '.join(f'[{c}]' for c in columns)})")
            conn.executemany(f"insert into [{name}] values ({', '.join('?' for _ in columns)})", rows)
            counts[name] = len(rows)
        conn.execute("create table entry (key text, value text)")
        conn.executemany("insert into entry values (?, ?)", [
            ("key", key), ("format", str(FORMAT)), ("counts", json.dumps(counts)), ("meta", json.dumps(meta))])
        conn.commit()
    finally:
        conn.close()
    os.replace(tmp, path)


def read_row_file(path: Path, key: str) -> tuple[dict, dict[str, int]] | None:
    """(meta, row counts) of the row file at ``path`` if it is whole and made for ``key``, else None."""
    import json

    from .sqlite import sqlite3

    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            entry = dict(conn.execute("select key, value from entry"))
            if entry.get("key") != key or entry.get("format") != str(FORMAT):
                return None
            counts = json.loads(entry["counts"])
            for name, count in counts.items():
                if conn.execute(f"select count(*) from [{name}]").fetchone()[0] != count:
                    return None
            return json.loads(entry["meta"]), counts
        finally:
            conn.close()
    except (sqlite3.Error, KeyError, ValueError):
        return None


def copy_row_file(conn, path: Path, tables: dict[str, list[str]]) -> None:
    """Copy the rows of the row file ``path`` (checked with :func:`read_row_file`) into the tables of
    ``conn``, columns by name, in one INSERT ... SELECT per table."""
    conn.execute("attach database ? as row_file", [str(path)])
    try:
        with conn:
            for name, columns in tables.items():
                cols = ", ".join(f"[{c}]" for c in columns)
                conn.execute(f"insert into main.[{name}] ({cols}) select {cols} from row_file.[{name}]")
    finally:
        conn.execute("detach database row_file")
