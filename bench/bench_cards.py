"""What the whole card database costs the build, and how fast card pages answer.

    python bench/bench_cards.py [--pages-only]

1. The card step (parse, assemble, insert) on the whole corpus and, as the
   baseline of the same run, on the corpus without ``cards/oracle_sets/`` (the
   card data before issue 17); then the whole corpus again with a build cache
   (:mod:`kb.cache`), filled and then read (a rebuild whose card files did not
   change): wall time and CPU time (this process and its workers), so a busy
   machine shows as wall > CPU.
2. ``/-/cards/<name>`` through Datasette's client from 4 threads over 200 real
   card names (English, Japanese, Chinese, misspelt): p50/p95, first visits
   (nothing cached) and again; Datasette's own row page of the same cards as
   the baseline. Reads the built database (``KB_DB``, default kb.db).
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def time_card_steps(corpus: Path, label: str, cache=None) -> None:
    import sqlite_utils

    from kb.build import BuildContext
    from kb.cache import Cache
    from kb.load.cards import load_cards

    with tempfile.TemporaryDirectory() as tmp:
        db = sqlite_utils.Database(Path(tmp) / "cards.db")
        db.execute("pragma journal_mode = off")
        db.execute("pragma synchronous = off")
        ctx = BuildContext(db=db, corpus=corpus, cache=cache or Cache.disabled())
        t0, c0 = time.perf_counter(), _cpu()
        load_cards(ctx)
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
        print(f"{label:38s} card step: {wall:6.2f} s wall, {cpu:6.2f} s CPU; "
              f"{db['cards'].count} cards, {db['card_rulings'].count} rulings")


def baseline_corpus(corpus: Path, tmp: Path) -> Path:
    """The corpus as it was before the set files: everything but cards/oracle_sets/ (symlinks)."""
    (tmp / "cards").mkdir(parents=True)
    for item in (corpus / "cards").iterdir():
        if item.name != "oracle_sets":
            os.symlink(item, tmp / "cards" / item.name)
    return tmp


def time_pages(db_path: Path) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from datasette.app import Datasette

    from kb.sqlite import sqlite3

    conn = sqlite3.connect(db_path)
    rows = conn.execute("select id, name_en, name_ja, name_zh from cards where printings > 0").fetchall()
    random.seed(17)
    sample = random.sample(rows, 200)
    paths = []
    for card_id, en, ja, zh in sample:
        name = random.choice([n for n in (en, en, ja, zh) if n])
        from urllib.parse import quote
        paths.append(("/-/cards/" + quote(name, safe=""), f"/{db_path.stem}/cards/{card_id}"))
    ds = Datasette(immutables=[str(db_path)])
    loop = asyncio.new_event_loop()
    loop.run_until_complete(ds.invoke_startup())
    loop.run_until_complete(ds.client.get(paths[0][0]))  # the name index, once per process

    def fetch(path: str) -> float:
        t0 = time.perf_counter()
        response = asyncio.run(ds.client.get(path))
        assert response.status_code in (200, 302), (path, response.status_code)
        return time.perf_counter() - t0

    def run(which: int) -> list[float]:
        with ThreadPoolExecutor(4) as pool:
            return list(pool.map(fetch, [p[which] for p in paths]))

    for label, times in (("card page, first visit", run(0)), ("card page, again", run(0)),
                         ("Datasette row page (baseline)", run(1))):
        q = statistics.quantiles(times, n=20)
        print(f"{label:32s} 4 threads, {len(times)} cards: p50 {statistics.median(times) * 1000:6.1f} ms, "
              f"p95 {q[18] * 1000:6.1f} ms")


def main() -> None:
    from kb.corpus import find_corpus

    corpus = find_corpus()
    if "--pages-only" not in sys.argv:
        with tempfile.TemporaryDirectory() as tmp:
            time_card_steps(baseline_corpus(corpus, Path(tmp) / "corpus"), "baseline: cards without oracle_sets")
        time_card_steps(corpus, "whole card data (234 set files)")
        from kb.cache import Cache

        with tempfile.TemporaryDirectory() as tmp:  # a build that fills the cache, then one that reads it
            cache = Cache(Path(tmp))
            time_card_steps(corpus, "whole card data, filling the cache", cache)
            time_card_steps(corpus, "whole card data, from the cache", cache)
    db = Path(os.environ.get("KB_DB", ROOT / "kb.db"))
    if db.exists():
        time_pages(db)


if __name__ == "__main__":
    main()
