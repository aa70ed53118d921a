"""Time to match every pair of consecutive releases, against number-only matching in the same run.

    python bench/bench_history.py [--db kb.db] [--workers N]

Reads every rule of the built database (``--db``, else ``KB_DB``, else
``kb.db``), then times, on the same data:

- the baseline: pairing rules by number only (what a diff by number sees);
- :func:`kb.history.match_pairs` in one process;
- :func:`kb.history.match_pairs` in N processes (default: cores, at most 4);
  the build chooses by measured benefit (:func:`kb.build.useful_processes`:
  the idle cores, and what they would save against what they cost;
  ``KB_MATCH_WORKERS`` decides instead), since on a loaded 2-core machine two
  processes are slower than one.

Then, as perft prints a count per move, it prints for the pairs where numbers
moved what number-only matching makes of them (removed + added, or changed)
against what the matcher finds (moved), so a wrong count can be traced to
its pair.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb.database import db_path, open_db  # noqa: E402
from kb.history import database_release_pairs, match_pairs, normalize_text, read_rule_rows  # noqa: E402

SHOWN_PAIRS = [("20090501", "20090711"), ("20200601", "20200703"), ("20250404", "20250606"),
               ("20260116", "20260227")]


def match_by_number(old: list[tuple], new: list[tuple]) -> Counter:
    """The baseline: a rule is the rule with the same number, changed when its text differs."""
    new_by_number = {row[0]: row for row in new}
    counts: Counter = Counter()
    for row in old:
        other = new_by_number.pop(row[0], None)
        if other is None:
            counts["removed"] += 1
        elif normalize_text(row[3]) == normalize_text(other[3]) and normalize_text(row[4]) == normalize_text(other[4]):
            counts["same"] += 1
        else:
            counts["changed"] += 1
    counts["added"] += len(new_by_number)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=None, help="built database [default: KB_DB or kb.db]")
    parser.add_argument("--workers", type=int, default=min(os.cpu_count() or 1, 4))
    args = parser.parse_args()
    db = open_db(args.db)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; database {db_path(args.db)}")

    t0 = time.perf_counter()
    pairs = database_release_pairs(db)
    keys = {(p.lang, r) for p in pairs for r in (p.old_release, p.new_release)}
    rules = {key: read_rule_rows(db.conn, *key) for key in keys}
    read_s = time.perf_counter() - t0
    total_rules = sum(len(rows) for rows in rules.values())
    print(f"{len(pairs)} pairs ({Counter(p.lang for p in pairs)}), {total_rules} rules; read in {read_s:.2f} s")

    normalize_text.cache_clear()
    t0 = time.perf_counter()
    baseline = {(p.lang, p.old_release, p.new_release): match_by_number(
        rules.get((p.lang, p.old_release), []), rules.get((p.lang, p.new_release), [])) for p in pairs}
    baseline_s = time.perf_counter() - t0

    normalize_text.cache_clear()
    t0 = time.perf_counter()
    results = match_pairs(pairs, rules, workers=1)
    single_s = time.perf_counter() - t0

    normalize_text.cache_clear()
    t0 = time.perf_counter()
    parallel = match_pairs(pairs, rules, workers=args.workers)
    parallel_s = time.perf_counter() - t0
    if [r.matches for r in parallel] != [r.matches for r in results]:
        print("error: matching in processes gave other matches than in one process; please report")

    print(f"{'':<34}{'seconds':>9}{'× baseline':>12}")
    print(f"{'number-only matching (baseline)':<34}{baseline_s:>9.2f}{1:>12.1f}")
    print(f"{'match_pairs, 1 process':<34}{single_s:>9.2f}{single_s / baseline_s:>12.1f}")
    print(f"{f'match_pairs, {args.workers} processes':<34}{parallel_s:>9.2f}{parallel_s / baseline_s:>12.1f}")

    slowest = sorted(results, key=lambda r: -r.seconds)[:5]
    print("\nslowest pairs (1 process): " + ", ".join(
        f"{r.pair.old_release}→{r.pair.new_release} {r.seconds:.2f} s" for r in slowest))

    print(f"\n{'pair':<20}{'by number: same changed removed added':>40}   {'matcher: same changed moved moved_changed removed added':>58}")
    by_pair = {(r.pair.lang, r.pair.old_release, r.pair.new_release): r for r in results}
    for old, new in SHOWN_PAIRS:
        key = ("en", old, new)
        if key not in by_pair:
            continue
        b = baseline[key]
        m = Counter(x.status for x in by_pair[key].matches)
        print(f"{old}→{new:<11}{b['same']:>12}{b['changed']:>8}{b['removed']:>8}{b['added']:>6}   "
              f"{m['same']:>16}{m['changed']:>8}{m['moved']:>6}{m['moved_changed']:>14}{m['removed']:>8}{m['added']:>6}")
    totals = Counter(x.status for r in results for x in r.matches)
    print(f"\nall pairs, matcher: {dict(totals)}")


if __name__ == "__main__":
    main()
