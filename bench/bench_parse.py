"""Time to parse one CR release, against the time just to read and decode it.

    python bench/bench_parse.py [RELEASE_FILE]

Prints the median and best of 15 runs for the newest-style release 20260116
(or the file given), and for a hard-wrapped 2003 release.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest.cr import parse_cr  # noqa: E402
from ingest.decoding import read_source  # noqa: E402
from kb.corpus import find_corpus  # noqa: E402


def timed(fn, runs=15):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, min(times) * 1000


def main() -> None:
    corpus = find_corpus()
    files = [Path(sys.argv[1])] if len(sys.argv) > 1 else [
        corpus / "cr/en/MagicCompRules_20260116.txt",
        corpus / "cr/en/archive/MagicCompRules_20031001.txt.gz",
    ]
    print(f"{'file':<40} {'read+decode (baseline)':>24} {'parse_cr':>18} {'records':>8}")
    for path in files:
        base_med, base_min = timed(lambda: read_source(path))
        med, best = timed(lambda: list(parse_cr(path)))
        count = len(list(parse_cr(path)))
        print(f"{path.name:<40} {base_med:>9.1f} ms (min {base_min:.1f}) {med:>8.1f} ms (min {best:.1f}) {count:>8}")


if __name__ == "__main__":
    main()
