"""Many users at once: a real ``kb serve`` under 16 concurrent clients for a bounded time.

    python bench/bench_load.py [--db kb.db] [--clients 16] [--seconds 20] [--burst 50]

Each client is a thread with its own HTTP connection, sending one request after
another, each picked at random from a mix of what users ask for: rule pages,
keyword pages, searches in English and Japanese, a discover resolution over
every choice, scenario pages, and missing pages (which must be cheap 404s, not
tracebacks). Printed: throughput, p50/p95/p99 per kind and overall, errors
(any 5xx, a transport error, or a status other than the one expected for that
kind) and the server's resident memory after warm-up and at the end.

Last, a burst: ``--burst`` searches sent at the same instant, each from its own
connection; printed: how many were answered 200, 503 (with its Retry-After) or not at all, and
how long the slowest waited (target, issue 15: no 5xx, no connection error, none waits past 60 s).

Baselines from the same run: Datasette's cheapest page (``/-/versions.json``)
under the same clients, and the same mix from a single client. Target (issue
9): 0 errors and p95 ≤ 300 ms on 2 cores, memory flat after warm-up.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from kb.database import db_path, newest_release, open_db  # noqa: E402
from kb.serve import serving  # noqa: E402

P95_TARGET_MS = 300

SEARCHES_EN = ["discover", "what does hexproof stop", "search your library", "first strike damage",
               "when can I cast an instant", "villainous choice", "mana value of a split card", "trample"]
SEARCHES_JA = ["発見", "墓地", "探す", "呪禁は何を防ぐ", "ライブラリーの一番上", "先制攻撃", "手札", "追放"]


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def the_mix(db_file: Path) -> list[tuple[str, str, int]]:
    """``(kind, path, expected status)`` for every request the clients choose from."""
    db = open_db(db_file)
    release = newest_release(db)
    numbers = [r[0] for r in db.execute(
        "select number from rules where release = ? and lang = 'en' and kind = 'numbered' order by number",
        [release])]
    rng = random.Random(9)
    keywords = [r[0] for r in db.execute(
        "select title from rules where release = ? and lang = 'en' and parent = '701' and kind = 'numbered' and title is not null",
        [release])]
    scenarios = [r[0] for r in db.execute("select id from scenarios order by id")] if "scenarios" in db.table_names() else []
    mix: list[tuple[str, str, int]] = []
    mix += [("rule", f"/-/rules/{n}", 200) for n in rng.sample(numbers, min(150, len(numbers)))]
    mix += [("keyword", f"/-/keywords/{quote(t.lower())}", 200) for t in keywords[:40]]
    mix += [("search en", "/-/search?" + urlencode({"q": q}), 200) for q in SEARCHES_EN] * 3
    mix += [("search ja", "/-/search?" + urlencode({"q": q}), 200) for q in SEARCHES_JA] * 3
    library = "Forest\nDarksteel Colossus\nShock\nIsland\nGrizzly Bears"
    mix += [("run", "/-/run/discover?" + urlencode({"n": n, "library": library, "mode": "explore"}), 200)
            for n in (2, 3, 5)] * 4
    mix += [("scenario", f"/-/scenarios/{s}", 200) for s in rng.sample(scenarios, min(20, len(scenarios)))]
    mix += [("missing", p, 404) for p in ("/-/nosuch", "/kb/nosuch_table", "/-/rules/799.99", "/kb/rules/nosuch",
                                          "/-/scenarios/nosuch", "/robots.txt", "/-/cards/nosuch",
                                          "/-/cards/nosuch.json", "/-/keywords/nosuch")] * 4
    cards = [r[0] for r in db.execute("select name_en from cards order by id limit 20")] if "cards" in db.table_names() else []
    mix += [("card", "/-/cards/" + quote(c, safe=""), 200) for c in cards]
    # Bad input from users, answered with a 400 and a sentence, whatever else is being asked.
    mix += [("bad input", p, 400) for p in (
        "/-/search.json?q=" + "x" * 600, "/-/search.json?q=x&limit=%C2%B2", "/-/run/discover.json?n=abc",
        "/-/diff.json?old=abc&new=def", "/-/rules/701.57.json?release=%00", "/kb/rules.json?_sort=nosuch",
        "/kb/rules.json?number__gt=99999999999999999999", "/kb/rules.json?_facet=%7Bbad",
        "/kb.json?sql=select+zeroblob(500000000)")] * 2
    return mix


def load(base: str, mix: list[tuple[str, str, int]], clients: int, seconds: float) -> dict:
    """Run ``clients`` threads over ``mix`` for ``seconds``; latencies by kind and the errors."""
    times: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(base_url=base, timeout=30) as http:
            while time.monotonic() < stop:
                kind, path, expected = rng.choice(mix)
                t0 = time.perf_counter()
                try:
                    status = http.get(path).status_code
                except httpx.HTTPError as e:
                    status, problem = -1, f"{type(e).__name__}"
                else:
                    problem = None if status == expected else f"HTTP {status}"
                ms = (time.perf_counter() - t0) * 1000
                with lock:
                    times[kind].append(ms)
                    if problem:
                        errors.append(f"{problem} {path}")

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"times": times, "errors": errors, "seconds": time.perf_counter() - started}


def burst(base: str, clients: int) -> dict:
    """``clients`` searches sent at the same instant, each from its own connection: statuses and times.

    The questions are players' (tests/data/search_eval_players*.toml), each asked once: no answer
    is kept from an earlier request."""
    import tomllib

    queries = [case["q"] for path in sorted((ROOT / "tests" / "data").glob("search_eval_players*.toml"))
               for case in tomllib.loads(path.read_text())["query"]]
    queries = random.Random(15).sample(queries, min(clients, len(queries)))
    barrier = threading.Barrier(clients)
    out: list[tuple[str, float, str | None]] = [("", 0.0, None)] * clients

    def one(i: int) -> None:
        with httpx.Client(base_url=base, timeout=60) as http:
            barrier.wait()
            t0 = time.perf_counter()
            try:
                r = http.get("/-/search.json", params={"q": queries[i % len(queries)]})
                status, retry = str(r.status_code), r.headers.get("retry-after")
            except httpx.HTTPError as e:
                status, retry = type(e).__name__, None
            out[i] = (status, time.perf_counter() - t0, retry)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"results": out}


def report_burst(clients: int, result: dict) -> None:
    counts: dict[str, int] = defaultdict(int)
    for status, _, _ in result["results"]:
        counts[status] += 1
    seconds = [s for _, s, _ in result["results"]]
    retries = sorted({r for _, _, r in result["results"] if r})
    print(f"burst of {clients} searches at once: {dict(sorted(counts.items()))}; "
          f"p50 {percentile(seconds, 50):.1f} s, max {max(seconds):.1f} s"
          + (f"; Retry-After {', '.join(retries)} s" if retries else ""))


def report(title: str, result: dict) -> float:
    every = [ms for values in result["times"].values() for ms in values]
    print(f"{title}: {len(every)} requests in {result['seconds']:.1f} s = {len(every) / result['seconds']:.0f}/s; "
          f"p50 {percentile(every, 50):.0f} ms, p95 {percentile(every, 95):.0f} ms, p99 {percentile(every, 99):.0f} ms; "
          f"{len(result['errors'])} errors")
    for kind, values in sorted(result["times"].items()):
        print(f"  {kind:10} n={len(values):5}  p50 {statistics.median(values):6.0f} ms  "
              f"p95 {percentile(values, 95):6.0f} ms  p99 {percentile(values, 99):6.0f} ms")
    for e in sorted(set(result["errors"]))[:10]:
        print(f"  error: {e}")
    return percentile(every, 95)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=None)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--burst", type=int, default=50, help="clients of the burst at the end (0: none)")
    args = parser.parse_args()
    path = db_path(args.db)
    if not path.exists():
        print(f"no database at {path}; run `kb build` first")
        return 1
    mix = the_mix(path)
    with serving(path, timeout=120) as server:
        warm = load(server.base, mix, 4, max(3.0, args.seconds / 4))        # every page read once or more
        rss_warm = rss_mb(server.pid)
        baseline = load(server.base, [("versions", "/-/versions.json", 200)], args.clients, args.seconds / 4)
        single = load(server.base, mix, 1, args.seconds / 2)
        result = load(server.base, mix, args.clients, args.seconds)
        rss_end = rss_mb(server.pid)
        bursts = burst(server.base, args.burst) if args.burst else None
    print(f"bench_load: {args.clients} clients, {len(mix)} distinct requests, {path}")
    report("warm-up (4 clients)", warm)
    report(f"baseline: /-/versions.json, {args.clients} clients", baseline)
    report("baseline: the mix, 1 client", single)
    p95 = report(f"the mix, {args.clients} clients", result)
    print(f"server RSS: {rss_warm:.0f} MB after warm-up, {rss_end:.0f} MB at the end "
          f"({rss_end - rss_warm:+.0f} MB)")
    if bursts:
        report_burst(args.burst, bursts)
    ok = not result["errors"] and p95 <= P95_TARGET_MS
    print(f"target: 0 errors and p95 <= {P95_TARGET_MS} ms: {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
