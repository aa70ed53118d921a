"""Time and peak memory of a cold build, a rebuild with nothing changed, and ``kb add`` of a new release.

    python bench/bench_build.py

All in one run, each in a child process (so its peak memory, workers
included, can be read), into temporary files, with a temporary cache:

1. **cold**: ``kb build`` with an empty cache (everything parsed, matched, run);
2. **warm**: ``kb build --full`` into a new file with the cache the cold build
   filled (every step runs: what a full build after a code change elsewhere
   costs: parsed releases, pair matches, scenario results, parsed Oracle lines
   and card tables come from the cache);
3. **same inputs**: ``kb build`` into another new file (the cold build's
   database is copied: :mod:`kb.build_reuse`), then **unchanged**: ``kb build``
   again (nothing changed: checked and left);
4. **add**: the newest English release added with ``kb add`` to a database
   built without it, with an empty cache (every Oracle line parsed, every
   scenario played again), and on **release day**: into a database built
   without it with a cache of its own, which has never seen the release (its
   file is parsed and its pair matched; the scenarios' results and parsed
   Oracle lines come from that cache);
5. **parse**: one release (20260116) parsed by ``ingest.cr`` against the
   naive regex parser of ``bench_parse.py`` (best of 7, interleaved);

beside the floor of the same run: reading and decoding every CR file once.
Each line gives wall seconds, CPU seconds (the process and its workers) and
the load average when it started, and the target beside it: on a shared
2-core machine the wall time of the same work varies threefold, its CPU time
much less, so a target is judged on CPU seconds when the machine is loaded
(load above the number of cores). The cold and warm builds' steps are listed
with their CPU seconds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.decoding import read_source  # noqa: E402
from kb.corpus import english_cr_files, english_cr_raw_files, find_corpus  # noqa: E402

CHILD = """
import json, resource, sys, time
from pathlib import Path
t0 = time.perf_counter()
mode = sys.argv[1]
if mode == "add":
    from kb.add import add_release
    r = add_release(Path(sys.argv[5]), lang="en", corpus=Path(sys.argv[2]), db_path=Path(sys.argv[3]),
                    cache_dir=Path(sys.argv[4]), show_progress=False)
    summary = r.build
else:
    from kb.build import build_database
    summary = build_database(Path(sys.argv[3]), Path(sys.argv[2]), show_progress=False, cache_dir=Path(sys.argv[4]),
                             full=mode == "build-full")
self_, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": time.perf_counter() - t0, "mode": summary.mode, "timings": summary.timings,
                  "cpu_timings": summary.cpu_timings,
                  "cpu": self_.ru_utime + self_.ru_stime + kids.ru_utime + kids.ru_stime,
                  "rss": max(self_.ru_maxrss, kids.ru_maxrss) / 1024, "notes": summary.notes,
                  "cache": summary.cache}))
"""


def run(*args: str) -> dict:
    load = os.getloadavg()[0]
    out = subprocess.run([sys.executable, "-c", CHILD, *args], cwd=ROOT, check=True, capture_output=True, text=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["load"] = load
    return result


def corpus_without(corpus: Path, root: Path, leave_out: str) -> Path:
    """A corpus of symbolic links to ``corpus`` without the English file ``leave_out``."""
    (root / "cr" / "en").mkdir(parents=True)
    for entry in corpus.iterdir():
        if entry.name != "cr":
            os.symlink(entry, root / entry.name)
    for entry in (corpus / "cr").iterdir():
        if entry.name != "en":
            os.symlink(entry, root / "cr" / entry.name)
    for entry in (corpus / "cr" / "en").iterdir():
        if entry.name != leave_out:
            os.symlink(entry, root / "cr" / "en" / entry.name)
    return root


CORES = os.cpu_count() or 1


def verdict(r: dict, seconds: float, rss: float | None = None) -> str:
    """Whether ``r`` meets ``seconds`` (on CPU seconds when the machine was loaded) and ``rss`` MB."""
    loaded = r["load"] > CORES
    measured = r["cpu"] if loaded else r["seconds"]
    ok = measured <= seconds and (rss is None or r["rss"] <= rss)
    basis = "CPU" if loaded else "wall"
    return f"target ≤ {seconds:g} s{f', ≤ {rss:g} MB' if rss else ''}: {'met' if ok else 'NOT MET'} ({basis})"


def line(label: str, r: dict) -> str:
    return (f"{label:<38}{r['seconds']:7.1f} s wall {r['cpu']:7.1f} s CPU  peak RSS {r['rss']:5.0f} MB"
            f"  (load {r['load']:.1f})  ")


def steps(r: dict) -> str:
    return ", ".join(f"{k} {v:.1f}" for k, v in r.get("cpu_timings", {}).items() if v >= 0.05)


def parse_ratio(corpus: Path) -> tuple[float, float, float]:
    """(parse ms, naive ms, load) for release 20260116, best of 7 interleaved runs."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_parse import best, naive_parse
    from ingest.cr import parse_cr_text

    load = os.getloadavg()[0]
    text = read_source(corpus / "cr/en/MagicCompRules_20260116.txt").text
    times = best({"parse": lambda: list(parse_cr_text(text, "x")), "naive": lambda: naive_parse(text)}, runs=7)
    return times["parse"], times["naive"], load


def main() -> None:
    corpus = find_corpus()
    files = english_cr_files(corpus) + english_cr_raw_files(corpus)
    t0 = time.perf_counter()
    size = sum(len(read_source(f.path).text) for f in files)
    decode_s = time.perf_counter() - t0
    newest = max(p.name for p in (corpus / "cr" / "en").glob("MagicCompRules_*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cache = tmp / "cache"
        cold = run("build", str(corpus), str(tmp / "cold.db"), str(cache))
        warm = run("build-full", str(corpus), str(tmp / "warm.db"), str(cache))
        copied = run("build", str(corpus), str(tmp / "kb.db"), str(cache))
        unchanged = run("build", str(corpus), str(tmp / "kb.db"), str(cache))
        part = corpus_without(corpus, tmp / "corpus", newest)
        run("build", str(part), str(tmp / "part.db"), str(cache))  # the database before the release came out
        add = run("add", str(part), str(tmp / "part.db"), str(tmp / "fresh-cache"), str(corpus / "cr" / "en" / newest))
        # Release day: the cache of a user who built the corpus before the release came out (what reads
        # no English CR file copied from the cold build's cache, the rest filled by that build).
        day_cache = tmp / "day-cache"
        for namespace in ("oracle-parse", "scenarios", "cards", "step-cards", "cr-rows"):
            if (cache / namespace).is_dir():
                shutil.copytree(cache / namespace, day_cache / namespace)
        day_corpus = corpus_without(corpus, tmp / "corpus-day", newest)
        run("build", str(day_corpus), str(tmp / "day.db"), str(day_cache))
        day = run("add", str(day_corpus), str(tmp / "day.db"), str(day_cache), str(corpus / "cr" / "en" / newest))
        db_mb = (tmp / "kb.db").stat().st_size / 1e6
    parse_ms, naive_ms, parse_load = parse_ratio(corpus)
    print(f"CR files: {len(files)}, {size / 1e6:.1f} M characters; database {db_mb:.0f} MB; {CORES} cores")
    print(f"{'baseline: read+decode every CR file':<38}{decode_s:7.1f} s")
    print(line("kb build, cold (empty cache)", cold) + verdict(cold, 20, 600))
    print(line("kb build --full, new file, warm cache", warm) + verdict(warm, 20, 600))
    print(line("kb build, new file, same inputs", copied) + verdict(copied, 5) + f" ({copied['mode']})")
    print(line("kb build, nothing changed", unchanged) + verdict(unchanged, 5) + f" ({unchanged['mode']})")
    share_wall, share_cpu = 100 * add["seconds"] / cold["seconds"], 100 * add["cpu"] / cold["cpu"]
    share = share_cpu if add["load"] > CORES else share_wall
    print(line(f"kb add {newest}", add) + verdict(add, 5) + f" ({add['mode']}); {share_wall:.0f} % of cold wall, "
          f"{share_cpu:.0f} % of its CPU: target ≤ 25 %: {'met' if share <= 25 else 'NOT MET'}")
    day_wall, day_cpu = 100 * day["seconds"] / cold["seconds"], 100 * day["cpu"] / cold["cpu"]
    day_share = day_cpu if day["load"] > CORES else day_wall
    print(line("kb add, release-day cache", day) + verdict(day, 5) + f" ({day['mode']}); {day_wall:.0f} % of cold "
          f"wall, {day_cpu:.0f} % of its CPU: target ≤ 25 %: {'met' if day_share <= 25 else 'NOT MET'}")
    print(f"{'parse 20260116 (best of 7)':<38}{parse_ms:7.0f} ms; naive {naive_ms:.0f} ms: "
          f"{parse_ms / naive_ms:.2f}×  (load {parse_load:.1f})  target ≤ 3×: "
          f"{'met' if parse_ms <= 3 * naive_ms else 'NOT MET'}")
    print("cold build by step (CPU s): " + steps(cold))
    print("warm build by step (CPU s): " + steps(warm))
    print("kb add by step (CPU s):     " + steps(add))
    print("kb add, release day (CPU s): " + steps(day))
    print(f"caches: cold {cold['cache']}; warm {warm['cache']}")
    for note in cold["notes"] + add["notes"] + day["notes"]:
        print(f"  ({note})")


if __name__ == "__main__":
    main()
