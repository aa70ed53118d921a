"""The plugin's pages under a few concurrent clients: p50/p95 against a real ``datasette serve``.

    python bench/bench_pages.py [--db kb.db] [--clients 4] [--rounds 25]

Measured over HTTP on localhost, with ``--clients`` threads each sending its
requests one after the other, against the server ``kb serve`` runs
(``--immutable``). Baselines from the same run: Datasette's ``/-/versions.json``
(the cheapest page it serves) and its own table page for one rule
(``/<db>/rules?number=701.57&release=...``), and for the home page (ours, at ``/``)
Datasette's own index ``/.json``, which it replaces: most of that one's time is
Datasette's permission checks over every table.

Pages are kept per process once read (the database is immutable): their data,
and the rendered page by address (``rule_page.HtmlCache``), so each page is
measured twice: *first visit* (every rule or keyword visited once: the database
is read and the page rendered) and *again* (the same page repeatedly). A
scenario's resolution is kept too once run (the engine is deterministic): the
board view's figure is each scripted scenario's first visit (run and rendered);
"every choice" repeats 22 scenarios 25 times, so after its first round it reads
kept pages; the discover form runs the engine on every request. Targets (from the
issues): p95 ≤ 50 ms for rule and keyword pages, ≤ 100 ms for a scenario's
board view (a scripted resolution, every step's board drawn), ≤ 250 ms for a
resolution explored over every choice. As perft prints a count per move, the explored scenarios'
outcome counts under each first choice are printed, so a wrong count can be
found.

Each line also gives the server's CPU milliseconds per request (its process's user + system time
from /proc over the requests of that line): on a shared machine the wall time is mostly waiting
for a core, the CPU time is what the pages cost. The server runs with ``KB_EMBEDDER=none`` unless
``--dense``: otherwise ``kb serve`` embeds the rule texts its vector cache lacks in a background
thread (4,600 texts on a fresh cache, about 8 minutes of one core) while it is measured.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from kb.database import db_path, newest_release, open_db  # noqa: E402
from kb.serve import serving  # noqa: E402

PAGE_TARGET_MS = 50
BOARD_TARGET_MS = 100
EXPLORE_TARGET_MS = 250


def percentile(values, p):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


SERVER_PID: int | None = None
LAST_CPU: list[float] = []


def server_cpu() -> float:
    """The server process's CPU seconds so far (user + system, every thread), from /proc."""
    import os

    if SERVER_PID is None:
        return 0.0
    try:
        with open(f"/proc/{SERVER_PID}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(base: str, urls: list[str], clients: int) -> list[float]:
    """Fetch every URL once, spread over ``clients`` threads; the latency of each in ms (and the
    server's CPU ms per request in ``LAST_CPU``: on a shared machine, what the wall time is made of)."""
    cpu0 = server_cpu()
    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    queue = iter(urls)

    def client():
        with httpx.Client(base_url=base, timeout=30) as http:
            while True:
                with lock:
                    url = next(queue, None)
                if url is None:
                    return
                t0 = time.perf_counter()
                response = http.get(url)
                elapsed = (time.perf_counter() - t0) * 1000
                with lock:
                    if response.status_code != 200:
                        errors.append(f"{url}: HTTP {response.status_code}: {response.text[:300]}")
                        return
                    times.append(elapsed)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit("\n".join(errors))
    LAST_CPU[:] = [(server_cpu() - cpu0) * 1000 / max(1, len(urls))]
    return times


def report(label: str, times: list[float], target: float | None = None) -> None:
    p95 = percentile(times, 95)
    verdict = "" if target is None else (f"  ok (p95 < {target:g} ms)" if p95 < target else f"  OVER {target:g} ms")
    cpu = f"   server CPU {LAST_CPU[0]:5.1f} ms/req" if LAST_CPU else ""
    print(f"{label:<52} p50 {statistics.median(times):7.1f} ms   p95 {p95:7.1f} ms{cpu}   ({len(times)} requests){verdict}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=None)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=25, help="requests per client for repeated pages")
    parser.add_argument("--pages", type=int, default=150, help="distinct rule pages visited once")
    parser.add_argument("--dense", action="store_true",
                        help="leave dense search on: `kb serve` then embeds, in a background thread, the rule texts"
                             " the vector cache lacks (a core busy for minutes, in every figure)")
    parser.add_argument("--boards", type=int, default=0, help="scripted scenarios visited once (default: all)")
    args = parser.parse_args()
    path = db_path(args.db)
    db = open_db(path)
    release = newest_release(db, "en")
    numbers = [r[0] for r in db.execute(
        "select number from rules where release = ? and lang = 'en' and kind in ('rule', 'numbered')"
        " order by position", [release])]
    random.Random(0).shuffle(numbers)
    numbers = numbers[: args.pages]
    keywords = [r[0] for r in db.execute(
        "select title from rules where release = ? and lang = 'en' and kind = 'numbered'"
        " and parent in ('701', '702') and title is not null order by position", [release])]
    db.conn.close()

    from datasette.app import Datasette

    from kb.plugin import resolution

    resolution.configure(Datasette([str(path)], immutables=[]))    # the library reads the served file's tables
    lib = resolution.library()
    if lib.error:
        raise SystemExit(lib.error)
    explored = sorted(s.id for s in lib.scenarios.values() if s.explore)
    scripted = sorted(s.id for s in lib.scenarios.values() if not s.explore)
    if args.boards:
        random.Random(0).shuffle(scripted)
        scripted = scripted[: args.boards]
    from bench_pages_cpu import addresses

    others = addresses(path, 40)

    global SERVER_PID
    env = None if args.dense else {**os.environ, "KB_EMBEDDER": "none"}
    with serving(path, env=env) as server:
        base, SERVER_PID = server.base, server.pid
        name = path.stem
        n = args.clients * args.rounds
        print(f"{path} · release {release} · {args.clients} concurrent clients · datasette serve --immutable"
              f" · load {os.getloadavg()[0]:.1f}" + ("" if args.dense else " · KB_EMBEDDER=none (lexical search)") + "\n")
        warm = ["/-/versions.json", f"/{name}/rules?number=701.57&release={release}", "/-/rules/701.57",
                "/-/keywords/discover", f"/-/scenarios/{explored[0]}"]
        measure(base, warm * 2, 1)  # first requests: imports, card pool, templates

        report("baseline: /-/versions.json", measure(base, ["/-/versions.json"] * n, args.clients))
        report("baseline: Datasette table page, one rule", measure(
            base, [f"/{name}/rules?number=701.57&release={release}"] * n, args.clients))
        print()
        report(f"rule page, first visit ({len(numbers)} rules)", measure(
            base, [f"/-/rules/{x}" for x in numbers], args.clients), PAGE_TARGET_MS)
        report("rule page again (/-/rules/701.57)", measure(base, ["/-/rules/701.57"] * n, args.clients),
               PAGE_TARGET_MS)
        report(f"keyword page, first visit ({len(keywords)} keywords)", measure(
            base, [f"/-/keywords/{quote(k.lower())}" for k in keywords], args.clients), PAGE_TARGET_MS)
        report("keyword page again (/-/keywords/発見)", measure(
            base, [f"/-/keywords/{quote('発見')}"] * n, args.clients), PAGE_TARGET_MS)
        report("home page (/)", measure(base, ["/"] * n, args.clients), PAGE_TARGET_MS)
        report("baseline: Datasette's own index (/.json)", measure(base, ["/.json"] * n, args.clients))
        for kind in ("search", "diff", "cards"):
            report(f"{kind} page, first visit ({len(others[kind])} pages)", measure(base, others[kind], args.clients))
        print()
        report(f"board view: scripted resolution ({len(scripted)} scenarios)", measure(
            base, [f"/-/scenarios/{s}" for s in scripted], args.clients), BOARD_TARGET_MS)
        report(f"resolution, every choice ({len(explored)} scenarios x {args.rounds})", measure(
            base, [f"/-/scenarios/{s}" for s in itertools.islice(itertools.cycle(explored), len(explored) * args.rounds)],
            args.clients), EXPLORE_TARGET_MS)
        form = "/-/run/discover?" + urlencode({"n": 3, "library": "Forest\nDarksteel Colossus\nShock\nIsland\nGrizzly Bears",
                                                "opponent": "Grizzly Bears\nGoring Ceratops"})
        report("form: discover 3 over every choice", measure(base, [form] * n, args.clients), EXPLORE_TARGET_MS)

        print(f"(load {os.getloadavg()[0]:.1f} at the end)")
        print("\nOutcomes under each first choice (explored scenarios):")
        with httpx.Client(base_url=base, timeout=30) as http:
            for sid in explored:
                data = http.get(f"/-/scenarios/{sid}.json").json()
                counts = ", ".join(f"{k}: {v}" for k, v in data["by_first_choice"].items())
                print(f"  {sid:<58} {len(data['outcomes']):3d}  ({counts})")
            data = http.get(form.replace("/-/run/discover?", "/-/run/discover.json?")).json()
            counts = ", ".join(f"{k}: {v}" for k, v in data["by_first_choice"].items())
            print(f"  {'form: discover 3':<58} {len(data['outcomes']):3d}  ({counts})")


if __name__ == "__main__":
    main()
