"""What search answers, recorded and compared: proof that a speed change changes no answer.

    python bench/search_snapshot.py --record before.json [--db kb.db] [--modes lexical,hybrid]
    python bench/search_snapshot.py --compare before.json [--db kb.db]

Every query of every evaluation set (tests/data/search_eval*.toml, search_queries.toml) and of
bench/bench_search.py is answered with dense retrieval off (``lexical``) and as ``kb search`` runs
it (``hybrid``: dense on for questions), and its whole answer is kept: the top groups in order
(number, rules shown, snippets, scores), the rulings and cards beside them, the notes, the
corrections. ``--compare`` answers each query twice in the same process (the second time from
whatever the first one left in a cache) and prints every query whose answer differs from the
recorded one; it exits 1 when any does. Only ``ms`` (the time the search took) is left out.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_search import KEYWORDS, QUESTIONS  # noqa: E402
from kb.database import db_path  # noqa: E402
from kb.sqlite import sqlite3  # noqa: E402

DATA = ROOT / "tests" / "data"


def queries() -> list[str]:
    """Every query of the evaluation sets, each once, in file order."""
    seen: dict[str, None] = {}
    for path in sorted(DATA.glob("search_eval*.toml")) + [DATA / "search_queries.toml"]:
        with open(path, "rb") as f:
            for case in tomllib.load(f)["query"]:
                seen.setdefault(case["q"], None)
    for q in KEYWORDS + QUESTIONS:
        seen.setdefault(q, None)
    return list(seen)


def _rounded(value):
    """Scores to 12 significant digits: a sum in another order differs in the last bits only."""
    if isinstance(value, float):
        return float(f"{value:.12g}") if math.isfinite(value) else value
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def snapshot(conn, query: str, mode: str) -> dict:
    from kb.search.engine import answer

    result = answer(conn, query, dense=False if mode == "lexical" else None, time_limit=60.0).as_dict()
    result.pop("ms", None)
    return _rounded(result)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=None)
    parser.add_argument("--modes", default="lexical,hybrid")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", type=Path)
    group.add_argument("--compare", type=Path)
    args = parser.parse_args()
    conn = sqlite3.connect(f"{db_path(args.db).resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    modes = args.modes.split(",")
    if args.record:
        out = {mode: {q: snapshot(conn, q, mode) for q in queries()} for mode in modes}
        args.record.write_text(json.dumps(out, ensure_ascii=False, indent=0, sort_keys=True))
        print(f"recorded {sum(len(v) for v in out.values())} answers ({', '.join(modes)}) in {args.record}")
        return
    recorded = json.loads(args.compare.read_text())
    differ = 0
    total = 0
    for mode in modes:
        for q, before in recorded[mode].items():
            for attempt in ("first", "again"):
                total += 1
                now = snapshot(conn, q, mode)
                if now != before:
                    differ += 1
                    keys = sorted(k for k in set(now) | set(before) if now.get(k) != before.get(k))
                    print(f"{mode} {attempt}: {q!r} differs in {', '.join(keys)}")
    print(f"{total - differ} of {total} answers identical to {args.compare}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
