"""A database already built from the same inputs, copied instead of built again.

When every input of a build — the code (:func:`kb.build.code_digest`), each
corpus file's digest, the corpus path, ``--keep-going``, the embedder asked
for — is what an earlier build had, and the vector cache would still give the
vectors that build copied in (all or none), that build's database *is* the
answer: a build into a new file (a test session, a second worktree, ``kb
build --db other.db``) copies it in a few seconds instead of running every
step.

The build cache (namespace ``builds``) holds no copy of the database (half a
gigabyte), only where the last few such databases were written and their
size, modification time and inode when they were; a candidate is used only if
it still has them, and the copy is then checked again against the expected
inputs (its ``build_info`` and ``build_inputs``) before it is renamed into
place. Anything else, or a database modified since, is a miss and the build
runs as usual; ``kb build --full`` and ``--no-cache`` never reuse.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from .cache import Cache, digest

NAMESPACE = "builds"
KEEP = 4
"""Databases remembered for one set of inputs."""


def _embedder() -> str:
    from .search import dense

    return os.environ.get("KB_EMBEDDER") or dense.DEFAULT


def _outside_inputs() -> list[str]:
    """What the search step reads besides the corpus and the code: the embedder asked for (the state of its
    vector cache is checked on the copy: :func:`_same_vectors`)."""
    return [f"embedder {_embedder()}", f"embed {os.environ.get('KB_EMBED', '')}"]


def _same_vectors(conn) -> bool:
    """Whether a build now would copy in the vectors the database holds: all of them or none, so a vector
    cache filled since the database was built (or emptied) makes another database."""
    from .search import dense

    try:
        meta = dict(conn.execute("select key, value from search_vector_meta"))
    except Exception:  # noqa: BLE001 - no such table: the step could not load sqlite-vec, nothing to compare
        return True
    name = _embedder()
    if meta.get("model") != name or name not in dense.EMBEDDERS:
        return False
    rows = dense.rows_to_embed(conn)
    hashes = [dense.text_hash(name, text) for _, _, text in rows]
    found = dense.VectorCache(name).get_many(hashes)
    complete_now = all(h in found for h in hashes)
    return (meta.get("embedded") == str(len(rows))) == complete_now and meta.get("rows") == str(len(rows))


def key(cache: Cache, code: str, corpus: Path, keep_going: bool, inputs: dict[str, tuple[str, int]]) -> str:
    files = digest(*(f"{p}\0{d}\0{s}" for p, (d, s) in sorted(inputs.items())))
    return cache.key(NAMESPACE, code, str(corpus), str(int(keep_going)), files, *_outside_inputs())


def _stamp(path: Path) -> list[int]:
    st = path.stat()
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev]


def remember(cache: Cache, build_key: str, target: Path) -> None:
    """Note that ``target`` (just renamed into place) is the database of ``build_key``."""
    if not cache.enabled or os.environ.get("KB_EMBED") == "1":
        return
    try:
        entry = [str(target.resolve()), *_stamp(target)]
    except OSError:
        return
    known = cache.get(NAMESPACE, build_key)
    others = [e for e in known if isinstance(e, list) and e and e[0] != entry[0]] if isinstance(known, list) else []
    cache.put(NAMESPACE, build_key, [entry, *others][:KEEP])


def _matches(path: Path, code: str, corpus: Path, keep_going: bool, inputs: dict[str, tuple[str, int]]) -> bool:
    """Whether the database at ``path`` says it was built from exactly these inputs."""
    from .sqlite import sqlite3

    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            info = dict(conn.execute("select key, value from build_info"))
            stored = {p: (d, s) for p, d, s in conn.execute("select path, digest, size from build_inputs")}
            vectors = _same_vectors(conn)
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return (vectors and info.get("code") == code and info.get("corpus") == str(corpus)
            and info.get("keep_going") == str(int(keep_going)) and stored == inputs)


def copy_into(cache: Cache, build_key: str, tmp: Path, code: str, corpus: Path, keep_going: bool,
              inputs: dict[str, tuple[str, int]]) -> Path | None:
    """Copy a remembered database of ``build_key`` to ``tmp`` and check it; the database copied, or None."""
    if not cache.enabled or os.environ.get("KB_EMBED") == "1":
        return None
    known = cache.get(NAMESPACE, build_key)
    if not isinstance(known, list):
        return None
    for entry in known:
        try:
            source = Path(entry[0])
            if list(entry[1:]) != _stamp(source):
                continue   # gone, or written since
            shutil.copyfile(source, tmp)
            if list(entry[1:]) == _stamp(source) and _matches(tmp, code, corpus, keep_going, inputs):
                return source
        except (OSError, IndexError, TypeError, ValueError):
            pass
        tmp.unlink(missing_ok=True)
    return None


def restamp(db, mode_note: str) -> None:
    """Say in the copy's ``build_info`` when it was made and from where."""
    db.execute("insert or replace into build_info (key, value) values ('built', ?)", [time.strftime("%Y-%m-%dT%H:%M:%S%z")])
    db.execute("insert or replace into build_info (key, value) values ('copied_from', ?)", [mode_note])
    db.conn.commit()
