"""Full-text search latency: in-process and through Datasette, p50/p95.

    python bench/bench_search.py [--db kb.db] [--rounds 20]

Baseline in the same run: the same words found with LIKE '%word%' over the
rules table (what search would cost without FTS). Through Datasette: the
rules table page with its search box (?_search=), served by a real
``datasette serve`` on localhost, fetched over HTTP.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from kb.database import db_path, open_db  # noqa: E402
from kb.search import current_sql, fts_query, search  # noqa: E402
from kb.serve import running_server  # noqa: E402

QUERIES = [
    "discover", "search library", "mana value", "graveyard", "explore", "villainous choice",
    "dredge", "manifest", "cloak", "shuffle", "face down", "replacement effect", "APNAP order",
    "発見", "探す", "墓地", "ライブラリー", "切り直す", "マナ総量", "追放",
]


def percentile(values, p):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def report(label, times_ms):
    print(f"{label:<46} p50 {statistics.median(times_ms):7.2f} ms   p95 {percentile(times_ms, 95):7.2f} ms"
          f"   ({len(times_ms)} queries)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=None)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    path = db_path(args.db)
    db = open_db(path)

    fts, full, like = [], [], []
    expressions = {q: fts_query(q) for q in QUERIES}
    for _ in range(args.rounds):
        for q in QUERIES:
            t0 = time.perf_counter()
            db.execute(current_sql(), {"query": expressions[q], "lang": None, "section": None,
                                       "kinds": None, "limit": 10}).fetchall()
            fts.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            search(db, q, limit=10)
            full.append((time.perf_counter() - t0) * 1000)
    for q in QUERIES[:8]:
        word = q.split()[0]
        t0 = time.perf_counter()
        db.execute(
            "select number from rules where text like ? and release = (select release from newest_release)"
            " limit 10", [f"%{word}%"]).fetchall()
        like.append((time.perf_counter() - t0) * 1000)
    report("baseline: LIKE over the newest release", like)
    report("FTS5 query (current_sql, both languages)", fts)
    report("kb.search: + cross-language, pairing, snippets", full)

    with running_server(path) as base:
        with httpx.Client(base_url=base, timeout=30) as client:
            name = path.stem
            pages = {"/-/search?q= page (plugin) over HTTP": ("/-/search", "q"),
                     "search_current table ?_search= over HTTP": (f"/{name}/search_current", "_search"),
                     "rules table (130 releases) ?_search= over HTTP": (f"/{name}/rules", "_search")}
            for label, (url, param) in pages.items():
                times = []
                for _ in range(max(1, args.rounds // 4)):
                    for q in QUERIES:
                        t0 = time.perf_counter()
                        r = client.get(url, params={param: q})
                        times.append((time.perf_counter() - t0) * 1000)
                        r.raise_for_status()
                report(label, times)


if __name__ == "__main__":
    main()
