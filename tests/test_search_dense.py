"""Dense retrieval on a small slice of the rules: the vector cache, sqlite-vec in the database,
fusion with the lexical ranking, thread safety, and the lexical fallback without an embedder.

The suite's whole database is built without embedding anything (CI would spend minutes on it);
here a slice of a few dozen rules is embedded for real, with the packages' own bundled models.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
import sqlite_utils

from kb.search import dense
from kb.search.engine import answer
from kb.sqlite import sqlite3

SLICE = ("702.11", "702.19", "702.2", "704.5", "302.6", "509.1", "117.1", "304.1", "613.7", "903.9")


@pytest.fixture(scope="module")
def slice_db(tmp_path_factory, built_db):
    """A database with the rules above (both languages, subrules, lineage) and its search index."""
    from kb import schema
    from kb.build import BuildContext
    from kb.load.search_index import load_search_index

    path = tmp_path_factory.mktemp("dense") / "slice.db"
    db = sqlite_utils.Database(sqlite3.connect(str(path)))
    schema.create_cr_tables(db)
    db.execute("attach database ? as full", [str(built_db)])
    like = " or ".join(f"number = '{n}' or number glob '{n}[a-z]'" for n in SLICE)
    heads = ",".join(f"'{n.split('.')[0]}'" for n in SLICE)
    db.execute("insert into releases select * from full.releases where completeness = 'whole'")
    db.execute(f"insert into rules (release, lang, number, kind, parent, section, title, title_en, text, position,"
               f" source, line, search_ja) select release, lang, number, kind, parent, section, title, title_en, text,"
               f" position, source, line, search_ja from full.rules where ({like} or number in ({heads}))"
               f" and (release, lang) in (select release, lang from full.search_current group by release, lang)")
    db.execute("create table rule_lineage as select * from full.rule_lineage where (lang, release, number) in"
               " (select lang, release, number from rules)")
    db.execute("create table keyword_names as select * from full.keyword_names")
    db.conn.commit()
    db.execute("detach database full")
    schema.finish_cr_tables(db)
    schema.finish_search_current(db)
    load_search_index(BuildContext(db=db, corpus=path.parent))
    db.close()
    return path


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(dense, "CACHE_DIR", tmp_path / "vectors")
    dense._indexes.clear()
    return tmp_path / "vectors"


def connect(path):
    return sqlite3.connect(str(path), check_same_thread=False)


def test_vectors_are_cached_by_text_hash_and_never_embedded_twice(slice_db, cache_dir):
    model = dense.embedder("use-m3")
    conn = connect(slice_db)
    rows = dense.rows_to_embed(conn)
    assert 40 <= len(rows) <= 400
    assert dense.fill_cache(conn, model) == len({t for _, _, t in rows})
    assert dense.fill_cache(conn, model) == 0  # everything is in the cache now
    cached = dense.VectorCache("use-m3").get_many([dense.text_hash("use-m3", rows[0][2])])
    vector = np.frombuffer(next(iter(cached.values())), dtype=np.float32)
    assert vector.shape == (512,) and abs(np.linalg.norm(vector) - 1) < 1e-3


def test_the_build_stores_cached_vectors_in_sqlite_vec(slice_db, cache_dir, monkeypatch, tmp_path):
    import shutil

    import sqlite_vec

    from kb.build import BuildContext
    from kb.load.search_index import load_search_index

    monkeypatch.setenv("KB_EMBEDDER", "use-m3")
    dense.fill_cache(connect(slice_db), dense.embedder("use-m3"))
    copy = tmp_path / "copy.db"
    shutil.copy(slice_db, copy)
    db = sqlite_utils.Database(connect(copy))
    load_search_index(BuildContext(db=db, corpus=tmp_path))
    meta = dict(db.execute("select key, value from search_vector_meta").fetchall())
    assert meta["model"] == "use-m3" and meta["rows"] == meta["embedded"]
    # SQL users can query the vectors with sqlite-vec.
    conn = db.conn
    conn.enable_load_extension(True)
    sqlite_vec.load(conn)
    query = dense.embedder("use-m3").query(["what does hexproof stop"])[0]
    nearest = conn.execute("select rowid from search_vectors where embedding match ? and k = 5",
                           [query.astype(np.float32).tobytes()]).fetchall()
    numbers = {conn.execute("select number from search_current where id = ?", [r]).fetchone()[0] for (r,) in nearest}
    assert any(n and n.startswith("702.11") for n in numbers)


def test_a_paraphrased_question_is_answered_by_dense_and_lexical_fused(slice_db, cache_dir):
    conn = connect(slice_db)
    dense.fill_cache(conn, dense.embedder("use-m3"))
    result = answer(conn, "can a creature that just arrived this turn block", embedder_name="use-m3")
    assert result.mode == "hybrid"
    assert any("dense" in g.via for g in result.groups)
    assert result.groups[0].number in ("302.6", "509.1")


def test_without_an_embedder_search_is_lexical_and_says_so_in_one_line(slice_db, cache_dir, monkeypatch):
    monkeypatch.setitem(dense.EMBEDDERS, "broken", _Broken)
    result = answer(connect(slice_db), "what does hexproof stop", embedder_name="broken")
    assert result.mode == "lexical" and result.groups[0].number == "702.11"
    notes = [n for n in result.notes if "dense" in n]
    assert len(notes) == 1 and "cannot be loaded here" in notes[0] and "searching lexically" in notes[0]


def test_an_incomplete_index_answers_lexically_until_it_is_filled(slice_db, cache_dir, monkeypatch):
    """As on the first `kb serve`: lexical answers while the rules are embedded in the background,
    dense ones as soon as every rule has its vector, without a restart."""
    monkeypatch.setattr(dense, "RECHECK", 0.0)
    conn = connect(slice_db)
    result = answer(conn, "what does hexproof stop", embedder_name="use-m3")
    assert result.mode == "lexical"
    assert any("being prepared (0% of the rules embedded)" in n for n in result.notes)
    thread = dense.start_background_fill(slice_db, "use-m3")
    assert thread is not None
    thread.join(timeout=300)
    result = answer(conn, "what does hexproof stop", embedder_name="use-m3")
    assert result.mode == "hybrid" and not [n for n in result.notes if "dense" in n]
    assert dense.start_background_fill(slice_db, "use-m3") is None  # nothing left to embed


class _Broken(dense.Embedder):
    name = "broken"
    package = "no-such-package"

    def __init__(self):
        raise ImportError("No module named 'no_such_package'")


@pytest.mark.parametrize("name", list(dense.EMBEDDERS))
def test_the_models_are_safe_under_concurrent_threads(name):
    """Datasette runs searches in threads: concurrent queries get the same vectors as one at a time."""
    model = dense.embedder(name)
    if model is None:
        pytest.skip(dense.status(name))
    texts = ["what does hexproof stop", "呪禁は何を防ぐ？", "can a tapped creature block", "統率者税"]
    alone = {t: model.passage([t])[0] for t in texts}  # passages: no query cache in between
    results, errors = {}, []

    def worker(i):
        try:
            t = texts[i % len(texts)]
            results[i] = (t, model.passage([t])[0])
        except Exception as e:  # noqa: BLE001 - collected and asserted below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors and len(results) == 8
    assert all(np.allclose(vector, alone[t], atol=1e-4) for t, vector in results.values())
    assert model.dim == len(alone[texts[0]])
