"""CPU cost of reading cards' Oracle text with and without the persistent parse cache.

    python bench/bench_oracle_parse.py [--cards 400]
    python bench/bench_oracle_parse.py --scenarios

``--scenarios`` plays every scenario of ``data/scenarios/`` in a new process
without the cache, then in another with the cache as it is (warm once any
build or test has played them): what a build's executable-rules step costs
after a change to the engine, and what each pytest-xdist worker pays.

A fixed sample of the corpus's cards (every k-th by name) is read with
``parse_card`` in three child processes, one after the other, each starting
with nothing in memory (as a build worker, a test worker or a ``kb`` command):

1. **no cache** (``kb build --no-cache``): every distinct line parsed by the Earley grammar;
2. **filling**: the same, writing each parse to an empty cache;
3. **warm**: a new process reading every line from the cache (the grammar is never even built).

Each prints its CPU seconds, the lines it read and the cache's hits; the
warm run's figure is compared with the no-cache one of the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = """
import json, sys, time
from pathlib import Path
from executable_rules.oracle import parse_cache, parse_card
mode, sample = sys.argv[1], json.loads(Path(sys.argv[2]).read_text())
if mode == "none":
    parse_cache.configure(None)
t0 = time.process_time()
cards = [parse_card(name, text) for name, text in sample]
cpu = time.process_time() - t0
cache = parse_cache.current()
print(json.dumps({"cpu": cpu, "lines": sum(len(c.abilities) for c in cards),
                  "read": sum(a.parsed for c in cards for a in c.abilities),
                  "hits": cache.hits if cache else 0, "misses": cache.misses if cache else 0}))
"""


SCENARIOS = """
import json, sys, time
from pathlib import Path
from executable_rules.oracle import parse_cache
if sys.argv[1] == "none":
    parse_cache.configure(None)
from executable_rules.card_pool import load_card_pool
from executable_rules.scenarios import SCENARIO_DIR, load_scenarios, run_scenarios
pool = load_card_pool(Path(sys.argv[2]))
t0 = time.process_time()
results = run_scenarios(load_scenarios(SCENARIO_DIR, pool), pool)
cache = parse_cache.current()
print(json.dumps({"cpu": time.process_time() - t0, "scenarios": len(results),
                  "passed": sum(bool(r.passed) for r in results),
                  "hits": cache.hits if cache else 0, "misses": cache.misses if cache else 0}))
"""


def scenarios() -> None:
    from kb.corpus import find_corpus

    corpus = str(find_corpus(None))
    load = os.getloadavg()[0]
    results = {}
    for mode in ("none", "cache"):
        out = subprocess.run([sys.executable, "-c", SCENARIOS, mode, corpus], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        results[mode] = json.loads(out.strip().splitlines()[-1])
    print(f"every scenario played in a new process (load {load:.1f} at the start)")
    for mode, r in results.items():
        print(f"  {mode:<6} {r['cpu']:6.1f} s CPU  {r['passed']}/{r['scenarios']} passed"
              f"  cache hits {r['hits']}, misses {r['misses']}")
    print(f"  no cache / cache: {results['none']['cpu'] / max(results['cache']['cpu'], 1e-9):.1f}x")


def sample_cards(count: int) -> list[tuple[str, str]]:
    from executable_rules.card_pool import load_card_pool
    from kb.corpus import find_corpus

    pool = load_card_pool(find_corpus(None))
    faces = sorted({(f.name, f.text) for card in pool.cards.values() for f in card.faces if f.text})
    step = max(1, len(faces) // count)
    return faces[::step][:count]


def run(mode: str, sample: Path, cache_dir: Path) -> dict:
    env = {**os.environ, "KB_CACHE_DIR": str(cache_dir)}
    out = subprocess.run([sys.executable, "-c", CHILD, mode, str(sample)], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cards", type=int, default=400)
    parser.add_argument("--scenarios", action="store_true", help="play every scenario instead")
    args = parser.parse_args()
    if args.scenarios:
        scenarios()
        return
    with tempfile.TemporaryDirectory() as tmp:
        sample = Path(tmp) / "sample.json"
        sample.write_text(json.dumps(sample_cards(args.cards)))
        load = os.getloadavg()[0]
        results = {mode: run(mode, sample, Path(tmp) / "cache") for mode in ("none", "filling", "warm")}
    print(f"{args.cards} cards, load {load:.1f} at the start")
    for mode, r in results.items():
        per_line = r["cpu"] / max(1, r["lines"]) * 1000
        print(f"  {mode:<8} {r['cpu']:6.2f} s CPU  {r['lines']} lines ({r['read']} read)  {per_line:6.2f} ms/line"
              f"  cache hits {r['hits']}, misses {r['misses']}")
    ratio = results["warm"]["cpu"] / max(results["none"]["cpu"], 1e-9)
    print(f"  warm / no cache: {ratio:.3f} (≤ 0.1 expected)")


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"({time.perf_counter() - t0:.0f} s wall)")
