"""Parsed Oracle lines kept between processes, keyed by the grammar and the line.

An Earley parse of one line costs ~30 ms of CPU, and the same lines are parsed
again by every process that plays cards out: each build, each test worker,
each ``kb`` command. What :func:`~executable_rules.oracle.parser.parse_line`
makes of a *normalised* line depends only on that line and on the parser's
code, so its result (the :class:`~executable_rules.oracle.parser.Ability`
with its lark tree, less its line number) is stored here under

- the **parser version** (:func:`parser_version`): a digest of
  ``oracle.lark``, ``parser.py``, ``keywords.py``, lark's version and this
  module's :data:`FORMAT` — a changed grammar never reads an old entry, since
  each version has its own file;
- the normalised line itself (the primary key of that file).

The store is one SQLite file per version,
``~/.cache/mtg-rules-kb/oracle-parse/<version>.sqlite`` (``KB_CACHE_DIR``, else
``KB_CACHE``, else ``$XDG_CACHE_HOME/mtg-rules-kb``; ``KB_CACHE=off`` or
:func:`configure(None) <configure>` — ``kb build --no-cache`` — keeps nothing):
SQLite's transactions make each entry whole or absent under concurrent
writers (pytest-xdist workers, a build's workers), WAL lets readers go on
while one writes. Values are :mod:`marshal` data (strings, numbers, tuples
and lists; the tree written out as nested lists) checked against a digest:
no code runs when an entry is read, and an entry that doesn't decode is a
miss. A file that isn't a database is set aside and made again; a cache that
can't be written is simply not used.

>>> import dataclasses, tempfile
>>> from executable_rules.oracle.parser import parse_line
>>> store = LineCache(Path(tempfile.mkdtemp()) / "lines.sqlite", "v1")
>>> ability = parse_line("Flying", "Serra Angel")
>>> store.put("flying", ability)
>>> again = store.get("flying", 3)
>>> again == dataclasses.replace(ability, line=3) and again.tree == ability.tree
True
>>> LineCache(store.path, "v2").get("flying", 1) is None     # another parser: never read
True
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from lark import Token, Tree

if TYPE_CHECKING:
    from .parser import Ability

# Bump when the encoding of an entry changes.
FORMAT = 1

_HERE = Path(__file__).parent


@functools.lru_cache(maxsize=1)
def parser_version() -> str:
    """The digest of what a parse depends on: the grammar, the parser and keyword modules, lark, :data:`FORMAT`."""
    from importlib import metadata

    h = hashlib.blake2b(digest_size=12)
    for name in ("oracle.lark", "parser.py", "keywords.py"):
        data = (_HERE / name).read_bytes()
        h.update(name.encode() + len(data).to_bytes(8, "little") + data)
    try:
        lark_version = metadata.version("lark")
    except metadata.PackageNotFoundError:
        lark_version = "-"
    h.update(f"lark {lark_version} format {FORMAT} marshal {marshal.version}".encode())
    return h.hexdigest()


def default_root() -> Path | None:
    """The cache directory (see the module docstring); None when ``KB_CACHE=off``."""
    if os.environ.get("KB_CACHE_DIR"):
        return Path(os.environ["KB_CACHE_DIR"])
    if os.environ.get("KB_CACHE") == "off":
        return None
    if os.environ.get("KB_CACHE"):
        return Path(os.environ["KB_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mtg-rules-kb"


# --- the tree as marshal data -------------------------------------------------------------
#
# A Tree is a list [data, child, ...], a Token a tuple of its fields; lark's
# rule names are Tokens too (type RULE), so they round-trip as such.

def _encode(node: Any) -> Any:
    if isinstance(node, Tree):
        return [_encode(node.data), *(_encode(c) for c in node.children)]
    if isinstance(node, Token):
        return (node.type, str(node), node.start_pos, node.line, node.column, node.end_line, node.end_column,
                node.end_pos)
    if node is None or isinstance(node, str):
        return node
    raise TypeError(f"no encoding for {type(node).__name__} in a parse tree")


def _decode(node: Any) -> Any:
    if isinstance(node, list):
        return Tree(_decode(node[0]), [_decode(c) for c in node[1:]])
    if isinstance(node, tuple):
        type_, value, start_pos, line, column, end_line, end_column, end_pos = node
        return Token(type_, value, start_pos, line, column, end_line, end_column, end_pos)
    return node


def encode_ability(ability: "Ability") -> bytes:
    """An Ability (all but its line number) as marshal bytes."""
    return marshal.dumps((ability.kind, ability.text, None if ability.tree is None else _encode(ability.tree),
                          tuple(tuple(k) for k in ability.keywords), ability.trigger, tuple(ability.effects),
                          ability.static, bool(ability.once_each_turn), ability.error))


def decode_ability(data: bytes, line: int) -> "Ability":
    """The Ability of :func:`encode_ability`, at ``line``; raises ValueError on anything else."""
    from .parser import Ability

    try:
        kind, text, tree, keywords, trigger, effects, static, once, error = marshal.loads(data)
        return Ability(kind, text, line, None if tree is None else _decode(tree),
                       tuple((str(k), str(a)) for k, a in keywords), trigger, tuple(effects), static, bool(once),
                       error)
    except (EOFError, ValueError, TypeError) as e:
        raise ValueError(f"not a cached parse: {e}") from None


def _check(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=8).hexdigest()


class LineCache:
    """Parsed lines of one parser version in the SQLite file ``path``; every failure is a miss."""

    def __init__(self, path: Path, version: str):
        self.path = path
        self.version = version
        self.hits = 0
        self.misses = 0
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._broken = False
        self._lock = threading.Lock()

    def _open(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        self._conn = None  # a connection inherited across fork() is never used
        for attempt in (1, 2):
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None, check_same_thread=False)
                conn.execute("pragma journal_mode = wal")
                conn.execute("pragma synchronous = normal")
                conn.execute("create table if not exists line (text text primary key, value blob, checksum text)")
                conn.execute("create table if not exists meta (key text primary key, value text)")
                conn.execute("insert or ignore into meta values ('version', ?)", [self.version])
                found = conn.execute("select value from meta where key = 'version'").fetchone()
                if found is None or found[0] != self.version:
                    conn.close()
                    self._broken = True  # a file of another version under this name: not ours to read
                    return None
                self._conn, self._pid = conn, os.getpid()
                try:
                    os.utime(self.path)  # last use, for kb.cache's pruning
                except OSError:
                    pass
                return conn
            except sqlite3.DatabaseError:
                # Not a database (cut short, overwritten): set it aside and start a new one, once.
                if attempt == 2 or not self._set_aside():
                    break
            except OSError:
                break
        self._broken = True
        return None

    def _set_aside(self) -> bool:
        try:
            self.path.replace(self.path.with_name(f"{self.path.name}.corrupt-{os.getpid()}"))
            for suffix in ("-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            return True
        except OSError:
            return False

    def get(self, text: str, line: int) -> "Ability | None":
        """The cached parse of the normalised ``text`` as line ``line``, or None."""
        with self._lock:
            conn = self._open()
            if conn is None:
                return None
            try:
                row = conn.execute("select value, checksum from line where text = ?", [text]).fetchone()
            except sqlite3.DatabaseError:
                self._broken = True
                return None
        if row is None or _check(row[0]) != row[1]:
            self.misses += 1
            return None
        try:
            found = decode_ability(row[0], line)
        except ValueError:
            self.misses += 1
            return None
        self.hits += 1
        return found

    def put(self, text: str, ability: "Ability") -> None:
        """Keep the parse of ``text`` (one transaction: whole or absent)."""
        try:
            data = encode_ability(ability)
        except (TypeError, ValueError):
            return
        with self._lock:
            conn = self._open()
            if conn is None:
                return
            try:
                conn.execute("insert or replace into line values (?, ?, ?)", [text, data, _check(data)])
            except sqlite3.DatabaseError:  # locked past the timeout, disk full, …: the parse is simply not kept
                pass

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None


_STATE: dict[str, Any] = {"root": "default", "cache": None}
_STATE_LOCK = threading.Lock()


@contextlib.contextmanager
def using(root: Path | str | None | bool) -> Iterator[None]:
    """:func:`configure` ``root`` for the ``with`` block, then what was before (a build's ``--cache-dir``)."""
    before = _STATE["root"]
    configure(root)
    try:
        yield
    finally:
        configure(True if before == "default" else before)


def configure(root: Path | str | None | bool = True) -> None:
    """Where parsed lines are kept: a directory, ``None``/``False`` for nowhere (``--no-cache``), ``True`` for the
    default (:func:`default_root`). Forked workers inherit the choice."""
    with _STATE_LOCK:
        if _STATE["cache"] is not None:
            _STATE["cache"].close()
        _STATE["root"] = ("default" if root is True else None if root is None or root is False
                          else Path(root))
        _STATE["cache"] = None


def current() -> LineCache | None:
    """The store this process uses, or None."""
    cache = _STATE["cache"]
    if cache is not None:
        return cache  # type: ignore[no-any-return]
    with _STATE_LOCK:
        if _STATE["cache"] is None:
            root = default_root() if _STATE["root"] == "default" else _STATE["root"]
            if root is None:
                return None
            version = parser_version()
            _STATE["cache"] = LineCache(Path(root) / "oracle-parse" / f"{version}.sqlite", version)
        return _STATE["cache"]  # type: ignore[no-any-return]
