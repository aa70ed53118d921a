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


def test_the_ruling_links_key_follows_what_the_linker_reads():
    """The step's cache key digests the newest releases' rules (both languages) and the lineage
    numbers: an edit there misses the cache, an edit to an older release's text does not."""
    from kb.load.ruling_links_cache import READS, tables_digest

    conn = sqlite3.connect(":memory:")
    conn.executescript("""
        create table releases (release, lang, effective_date, completeness);
        create table rules (release, lang, number, text);
        create table rule_lineage (lineage_id, lang, release, number, similarity);
        insert into releases values ('20250101', 'en', '2025-01-01', 'whole'), ('20260101', 'en', '2026-01-01', 'whole'),
                                    ('20260101', 'ja', '2026-01-01', 'whole');
        insert into rules values ('20250101', 'en', '702.2a', 'old'), ('20260101', 'en', '702.2a', 'new'),
                                 ('20260101', 'ja', '702.2a', '新');
        insert into rule_lineage values (1, 'en', '20250101', '702.2a', 1.0), (1, 'en', '20260101', '702.2a', 1.0);
    """)
    before = tables_digest(conn, READS)
    conn.execute("update rules set text = 'older' where release = '20250101'")
    conn.execute("update rule_lineage set similarity = 0.5")
    assert tables_digest(conn, READS) == before
    for edit in ("update rules set text = 'newer' where release = '20260101' and lang = 'en'",
                 "update rules set text = '新しい' where lang = 'ja'",
                 "update rule_lineage set number = '702.3a' where release = '20250101'"):
        conn.execute(edit)
        assert tables_digest(conn, READS) != before, edit
        before = tables_digest(conn, READS)
