"""Search CPU per query over every evaluation query (711: tests/data/search_eval*.toml,
search_queries.toml, bench_search.py's), two passes: the first searches afresh, the second is the
same queries asked again (from kb/search/answer_cache.py when the cache holds them all).

    python bench/bench_search_eval.py [--db kb.db] [--rounds 2] [--hybrid]

Prints CPU p50 / p95 / mean in ms of each pass (the thread's CPU time: on a shared machine wall
time is mostly waiting for a core). Run it in a checkout of older code (``git archive``) for the
figures before a change: it only needs ``kb.search.engine.answer``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_search import percentile  # noqa: E402
from bench.search_snapshot import queries  # noqa: E402
from kb.database import db_path  # noqa: E402
from kb.sqlite import sqlite3  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=None)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--hybrid", action="store_true", help="dense on for questions (as kb search); else off")
    args = parser.parse_args()
    from kb.search.engine import answer, prepare

    conn = sqlite3.connect(f"{db_path(args.db).resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    prepare(conn)
    dense = None if args.hybrid else False
    for q in ("warm up", "what is a warm up question", "暖機"):  # the model, Sudachi, Kiwi's first use
        answer(conn, q, dense=dense, time_limit=60)
    try:
        from kb.search import answer_cache
    except ImportError:  # older code
        print("no answer cache")
    else:
        answer_cache.clear()
        print(f"answer cache of {answer_cache.size()}")
    every = queries()
    for n in range(1, args.rounds + 1):
        cpu = []
        for q in every:
            started = time.thread_time()
            answer(conn, q, dense=dense, time_limit=60)
            cpu.append((time.thread_time() - started) * 1000)
        print(f"{'hybrid' if args.hybrid else 'lexical'} pass {n}: {len(cpu)} queries, cpu p50 {percentile(cpu, 50):.2f}"
              f" ms, p95 {percentile(cpu, 95):.2f} ms, mean {sum(cpu) / len(cpu):.2f} ms")


if __name__ == "__main__":
    main()
