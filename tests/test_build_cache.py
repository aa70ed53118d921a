"""A build from the cache gives the database a build without it (``kb build --no-cache``) gives.

The corpus is small (two English releases and everything else of the real
one: every step that caches something runs on it) and the cache a fresh one, so the first
build computes everything (as ``--no-cache`` would, writing what it computed) and the
second reads every entry back. Two builds, not three: a build with ``cache_dir=False``
computes the same things the filling build does, and costs the suite minutes.
"""

from __future__ import annotations

import sqlite3

from kb.build import build_database

from test_add import assert_same_database
from test_build_faults import make_corpus

ENGLISH = ["MagicCompRules_20260116.txt", "MagicCompRules_20260227.txt"]


def hits(summary, namespace: str) -> tuple[int, int]:
    """(hits, lookups) of ``namespace`` in a build's cache summary (``cr-en 2/2, pairs 1/1``)."""
    for part in summary.cache.split(", "):
        name, _, counts = part.rpartition(" ")
        if name == namespace:
            found, looked = counts.split("/")
            return int(found), int(looked)
    return 0, 0


def test_a_build_from_the_cache_equals_a_build_without_it(corpus, tmp_path):
    root = make_corpus(tmp_path / "corpus", corpus, ENGLISH)
    cache = tmp_path / "cache"
    filling = build_database(tmp_path / "filling.db", root, show_progress=False, cache_dir=cache)
    assert filling.mode == "full" and not any(hits(filling, n)[0] for n in ("cr-en", "pairs", "scenarios"))
    assert hits(filling, "scenarios")[1] > 100
    # full=True: every step runs (from the cache), instead of the filling build's database being copied.
    cached = build_database(tmp_path / "cached.db", root, show_progress=False, cache_dir=cache, full=True)
    assert cached.mode == "full"
    for namespace in ("cr-en", "pairs", "scenarios", "step-cards", "lineages", "ruling-links"):
        found, looked = hits(cached, namespace)
        assert looked and found == looked, (namespace, cached.cache)
    assert_same_database(tmp_path / "filling.db", tmp_path / "cached.db")

    # A third build of the same inputs copies one of those databases (kb.build_reuse) and is the same database.
    copied = build_database(tmp_path / "copied.db", root, show_progress=False, cache_dir=cache)
    assert copied.mode == "copied" and str(tmp_path) in copied.reason, copied.reason
    assert_same_database(tmp_path / "filling.db", tmp_path / "copied.db")
    assert copied.counts == filling.counts

    # A remembered database written since is never copied; nor is anything without the cache.
    from kb import build_reuse
    from kb.build import corpus_inputs
    from kb.cache import Cache

    inputs = corpus_inputs(root)
    code = dict(sqlite3.connect(tmp_path / "filling.db").execute("select key, value from build_info"))["code"]
    store = Cache(cache)
    key = build_reuse.key(store, code, root, False, inputs)
    probe = tmp_path / "probe.db"
    assert build_reuse.copy_into(store, key, probe, code, root, False, inputs) is not None
    probe.unlink()
    for name in ("filling.db", "cached.db", "copied.db"):
        with sqlite3.connect(tmp_path / name) as conn:
            conn.execute("insert into build_info values ('edited', 'by hand')")
    assert build_reuse.copy_into(store, key, probe, code, root, False, inputs) is None and not probe.exists()
    assert build_reuse.copy_into(Cache.disabled(), key, probe, code, root, False, inputs) is None
    # Another code version or corpus has another key.
    assert build_reuse.key(store, "other code", root, False, inputs) != key
    assert build_reuse.key(store, code, tmp_path, False, inputs) != key
