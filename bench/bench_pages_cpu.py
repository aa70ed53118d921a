"""CPU time per page in process: p50/p95 of the process's CPU seconds per request, by page kind.

    python bench/bench_pages_cpu.py [--db kb.db] [--pages 60] [--profile rule|keyword|board]

On a shared machine wall time is mostly the other processes; the CPU seconds a request costs
(``time.process_time``: every thread of this process, Datasette's SQL threads included) are what
4 clients on 2 cores queue for. Each page is asked for through ``datasette.client`` on a Datasette
like ``kb serve``'s (immutable, same settings), after its startup work (segmenters, card pool,
scenarios) has finished. Every address is a first visit (nothing kept for it yet) unless the label
says "again". To compare two versions of the code in one run, run this file from each tree (it
imports the tree it sits in).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import itertools
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.database import db_path, newest_release, open_db


def percentile(values, p):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def settings() -> dict:
    from kb.serve import datasette_args

    args = datasette_args(Path("x.db"), Path("m.json"))
    out = {}
    for i, a in enumerate(args):
        if a == "--setting":
            name, value = args[i + 1], args[i + 2]
            out[name] = {"off": False, "on": True}.get(value, int(value) if value.isdigit() else value)
    return out


def addresses(path: Path, pages: int) -> dict[str, list[str]]:
    db = open_db(path)
    release = newest_release(db, "en")
    rng = random.Random(0)
    numbers = [r[0] for r in db.execute(
        "select number from rules where release = ? and lang = 'en' and kind in ('rule', 'numbered')"
        " order by position", [release])]
    rng.shuffle(numbers)
    keywords = [r[0] for r in db.execute(
        "select title from rules where release = ? and lang = 'en' and kind = 'numbered'"
        " and parent in ('701', '702') and title is not null order by position", [release])]
    rng.shuffle(keywords)
    cards = [r[0] for r in db.execute("select name_en from cards order by id limit 2000")] if _has(db, "cards") else []
    rng.shuffle(cards)
    releases = [r[0] for r in db.execute("select release from releases where lang = 'en' order by release")]
    db.conn.close()
    words = ["discover", "ward", "deathtouch", "trample damage", "発見", "double strike first strike",
             "copy a spell", "hexproof", "protection from", "cascade", "mana value", "token", "exile",
             "state-based actions", "layer 7", "破壊不能", "damage prevention", "library", "proliferate",
             "can I respond to a triggered ability", "flying", "menace", "vigilance", "phasing"]
    pairs = list(itertools.pairwise(releases))
    rng.shuffle(pairs)
    return {
        "home": ["/"] + [f"/?x={i}" for i in range(pages - 1)],
        "rule": [f"/-/rules/{n}" for n in numbers[:pages]],
        "keyword": [f"/-/keywords/{quote(k.lower())}" for k in keywords[:pages]],
        "search": [f"/-/search?{urlencode({'q': w})}" for w in words[:pages]],
        "diff": [f"/-/diff?old={a}&new={b}" for a, b in pairs[: max(5, pages // 4)]],
        "cards": [f"/-/cards/{quote(c)}" for c in cards[:pages]],
    }


def _has(db, table: str) -> bool:
    return db.execute("select 1 from sqlite_master where name = ?", [table]).fetchone() is not None


async def run(path: Path, pages: int, profile: str | None, kinds: list[str] | None, top: int = 0) -> None:
    from datasette.app import Datasette

    from kb.metadata import metadata_for
    from kb.plugin import resolution

    urls = addresses(path, pages)
    ds = Datasette(immutables=[str(path)], metadata=metadata_for(path.stem), settings=settings())
    await ds.invoke_startup()
    await ds.client.get("/-/versions.json")
    lib = None
    for _ in range(600):   # the startup's background work: the scenarios library, the card names
        await asyncio.sleep(0.1)
        lib = resolution.library()
        if lib.scenarios or lib.error:
            break
    scripted = sorted(s.id for s in lib.scenarios.values() if not s.explore)
    random.Random(0).shuffle(scripted)
    urls["board"] = [f"/-/scenarios/{s}" for s in scripted[:pages]]
    # One page of each kind first (imports, template compilation), not measured; then settle.
    for kind, kind_urls in urls.items():
        await ds.client.get(kind_urls[-1] + ("&" if "?" in kind_urls[-1] else "?") + "_warm=1")
    await asyncio.sleep(3)
    order = kinds or ["home", "rule", "keyword", "board", "search", "diff", "cards"]
    print(f"{path} · in process, datasette.client · CPU ms per request (process_time, every thread)")
    for kind in order:
        if kind not in urls or not urls[kind]:
            continue
        prof = cProfile.Profile() if profile == kind else None
        cpu, wall, slowest = [], [], []
        for url in urls[kind]:
            c0, w0 = time.process_time(), time.perf_counter()
            if prof:
                prof.enable()
            response = await ds.client.get(url)
            if prof:
                prof.disable()
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
            slowest.append((cpu[-1], url))
            if response.status_code != 200:
                raise SystemExit(f"{url}: HTTP {response.status_code}: {response.text[:300]}")
        print(f"  {kind:<8} CPU p50 {statistics.median(cpu):6.1f} ms  p95 {percentile(cpu, 95):6.1f} ms"
              f"   wall p50 {statistics.median(wall):6.1f} ms  p95 {percentile(wall, 95):6.1f} ms   ({len(cpu)} pages)")
        if top:
            print("           slowest: " + ", ".join(f"{u} {c:.0f} ms" for c, u in sorted(slowest, reverse=True)[:top]))
        if prof:
            stats = pstats.Stats(prof)
            stats.sort_stats("cumulative").print_stats(45)
            stats.sort_stats("tottime").print_stats(30)
    # The same page again (kept rendered).
    again = urls["rule"][0]
    cpu = []
    for _ in range(30):
        c0 = time.process_time()
        await ds.client.get(again)
        cpu.append((time.process_time() - c0) * 1000)
    print(f"  {'again':<8} CPU p50 {statistics.median(cpu):6.1f} ms  p95 {percentile(cpu, 95):6.1f} ms   ({again})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=None)
    parser.add_argument("--pages", type=int, default=60, help="distinct pages of each kind")
    parser.add_argument("--profile", default=None, help="a page kind to profile with cProfile")
    parser.add_argument("--top", type=int, default=0, help="print the slowest pages of each kind")
    parser.add_argument("--kinds", default=None, help="comma-separated page kinds (default: all)")
    args = parser.parse_args()
    kinds = args.kinds.split(",") if args.kinds else None
    asyncio.run(run(db_path(args.db), args.pages, args.profile, kinds, args.top))


if __name__ == "__main__":
    main()
