"""What a search process reads of a database before its first answer, kept on disk between processes.

The card-name index (:func:`.cards.card_names`) and the typo vocabulary
(:class:`.typos.Vocabulary`) take seconds to build from a database and are the
same for every process that opens it; ``kb search`` is a new process each time.
:func:`card_names` and :func:`vocabulary` build them once, then keep them in
``~/.cache/mtg-rules-kb/search-warm/`` (``marshal``: plain dicts, sets and
tuples, read back in a fraction of the time), keyed by the database's build
(``build_info``: when it was built, from which code, its size) and by the source
of the modules that build them, so a rebuild or a code change never reads a stale
index. Whatever can't be cached (no build stamp, an unwritable directory, an
attribute ``marshal`` can't hold) is simply built, as before.
"""

from __future__ import annotations

import dataclasses
import gc
import marshal
import os
import sys
import threading
from pathlib import Path

from ..cache import default_cache_dir, digest
from . import cards as cards_module
from . import typos as typos_module

FORMAT = 1
_LOCK = threading.Lock()


def _db_path(conn) -> str | None:
    row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
    return row[2] if row and row[2] and os.path.exists(row[2]) else None


def _key(conn, what: str, module) -> str | None:
    """The cache key of ``what`` for this database, or None when the database has no build stamp."""
    path = _db_path(conn)
    if path is None:
        return None
    try:
        info = dict(conn.execute("select key, value from build_info where key in ('built', 'code', 'corpus')"))
    except Exception:  # noqa: BLE001 - a database without build_info is not cached
        return None
    if not info.get("built"):
        return None
    source = Path(module.__file__).read_bytes() + Path(__file__).read_bytes()
    return digest(str(FORMAT), what, info.get("built", ""), info.get("code", ""), str(os.path.getsize(path)),
                  sys.version, source)


def _file(key: str) -> Path:
    return default_cache_dir() / "search-warm" / f"{key}.marshal"


def _encode(obj) -> dict:
    """An object's attributes as marshal holds them: dicts of dataclasses become dicts of tuples."""
    out = {}
    for name, value in vars(obj).items():
        if isinstance(value, dict) and value and all(dataclasses.is_dataclass(v) for v in value.values()):
            kind = type(next(iter(value.values())))
            if any(type(v) is not kind for v in value.values()):
                raise ValueError(f"{name}: mixed dataclasses")
            out[name] = ("dataclasses", kind.__name__, {k: dataclasses.astuple(v) for k, v in value.items()})
        else:
            out[name] = ("plain", value)
    return out


def _decode(cls, module, data: dict):
    obj = object.__new__(cls)
    for name, (how, *rest) in data.items():
        if how == "dataclasses":
            kind = getattr(module, rest[0])
            fields = dataclasses.fields(kind)
            if all(f.init for f in fields):  # the constructor, from the fields astuple() gave
                values = {k: kind(*row) for k, row in rest[1].items()}
            else:
                names, new, values = [f.name for f in fields], object.__new__, {}
                for k, row in rest[1].items():
                    item = values[k] = new(kind)
                    item.__dict__.update(zip(names, row))
            setattr(obj, name, values)
        else:
            setattr(obj, name, rest[0])
    return obj


def _cached(conn, what: str, module, cls, build):
    key = _key(conn, what, module)
    if key is None:
        return build()
    path = _file(key)
    try:
        data = path.read_bytes()
        # Hundreds of thousands of new containers: the cyclic collector would walk them again and
        # again while they are made (none of them is garbage).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return _decode(cls, module, marshal.loads(data))
        finally:
            if collecting:
                gc.enable()
    except (OSError, EOFError, ValueError, TypeError, AttributeError):
        pass
    obj = build()
    if obj is None:
        return None
    try:
        data = marshal.dumps(_encode(obj))
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except (OSError, ValueError, TypeError):
        pass  # not cacheable here: built each time, as before
    return obj


def card_names(conn):
    """:func:`.cards.card_names`, read from the disk cache when this database's index is there."""
    path = _db_path(conn)
    if path is None or path in cards_module._INDEXES:
        return cards_module.card_names(conn)
    with _LOCK:
        if path in cards_module._INDEXES:
            return cards_module.card_names(conn)
        if not conn.execute("select 1 from sqlite_master where name = 'card_aliases'").fetchone():
            return None
        index = _cached(conn, "card names", cards_module, cards_module.CardNames,
                        lambda: cards_module._build(conn))
        cards_module._INDEXES[path] = (os.stat(path).st_mtime_ns, index)
        return index


def vocabulary(conn):
    """:meth:`.typos.Vocabulary.from_db`, read from the disk cache when this database's is there."""
    path = _db_path(conn)
    if path is None or path in typos_module._CACHE:
        return typos_module.Vocabulary.from_db(conn)
    with _LOCK:
        if path in typos_module._CACHE:
            return typos_module.Vocabulary.from_db(conn)
        found = _cached(conn, "vocabulary", typos_module, typos_module.Vocabulary,
                        lambda: typos_module.Vocabulary.from_db(conn))
        if found is not None:
            with typos_module._CACHE_LOCK:
                typos_module._CACHE[path] = (os.stat(path).st_mtime_ns, found)
        return found
