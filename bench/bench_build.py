"""Time and peak memory to build the whole database from the corpus.

    python bench/bench_build.py

Runs ``kb build`` in a child process (so its peak memory, workers included, can
be read) into a temporary file, and compares it with the baseline floor of
the same run: reading and decoding every CR file once, in one process.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.decoding import read_source  # noqa: E402
from kb.corpus import english_cr_files, english_cr_raw_files, find_corpus  # noqa: E402


def main() -> None:
    corpus = find_corpus()
    files = english_cr_files(corpus) + english_cr_raw_files(corpus)
    t0 = time.perf_counter()
    size = sum(len(read_source(f.path).text) for f in files)
    decode_s = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "kb.db"
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "kb.cli", "build", "-q", "--corpus", str(corpus), "--db", str(db)],
            check=True, cwd=ROOT,
        )
        build_s = time.perf_counter() - t0
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        db_mb = db.stat().st_size / 1e6
    print(f"CR files: {len(files)}, {size / 1e6:.1f} M characters")
    print(f"baseline  read+decode all files, one process: {decode_s:6.1f} s")
    print(f"kb build  whole database:                     {build_s:6.1f} s  "
          f"(peak RSS of the largest process {peak_mb:.0f} MB; database {db_mb:.0f} MB)")


if __name__ == "__main__":
    main()
