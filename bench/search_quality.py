"""Search quality in Japanese and English: top-1, top-3 and MRR per query language.

    python bench/search_quality.py [--db kb.db] [--queries tests/data/search_queries.toml] [--misses]

The queries and the rules each must find are tests/data/search_queries.toml
(release 20260116, the release with both languages). A hit counts when its
number is an expected rule or one under it (701.57a for 701.57); MRR is over
the first 10 hits.

Rows, each beside baselines from the same run over the same rows:

- ``ja → ja``, ``en → en``: a query searched in its own language;
  ``mixed → any``: a query with words of both, searched in both;
- ``ja → en``, ``en → ja``: cross-language (a Japanese query finding the
  English rules, and the reverse).

Systems:

- ``kb search``: :func:`kb.search.search` (Sudachi segmentation and keyword
  names across languages);
- ``kb, no names``: the same without ``keyword_names`` (segmentation only):
  what cross-language search owes to the names;
- ``unicode61``: FTS5 ``porter unicode61`` over the text as printed (what the
  index does without the Japanese search form: a Japanese sentence is one token);
- ``trigram``: FTS5 ``trigram`` over the text as printed (finds nothing for a
  one- or two-character word such as 墓地 or 発見).
"""

from __future__ import annotations

import argparse
from kb.sqlite import sqlite3
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.database import db_path, open_db  # noqa: E402
from kb.search import search  # noqa: E402

RELEASE = "20260116"
QUERIES = ROOT / "tests" / "data" / "search_queries.toml"
DEPTH = 10


def load_queries(path: Path = QUERIES) -> list[dict]:
    """The query cases: ``q``, ``lang`` (ja, en, mixed), ``expect`` (rule numbers)."""
    with open(path, "rb") as f:
        return tomllib.load(f)["query"]


def is_found(number: str | None, expected: list[str]) -> bool:
    """A hit's number is an expected rule or a rule under one.

    >>> is_found("701.57a", ["701.57"]), is_found("404.1", ["404"]), is_found("701.5", ["701.57"])
    (True, True, False)
    """
    if not number:
        return False
    for e in expected:
        if number == e or number.startswith(e + ".") or (number[:-1] == e and number[-1].isalpha()):
            return True
    return False


def first_rank(numbers: list[str | None], expected: list[str]) -> int | None:
    """1-based rank of the first hit that finds an expected rule, or None."""
    return next((i for i, n in enumerate(numbers, 1) if is_found(n, expected)), None)


class Baseline:
    """A plain FTS5 index over the text as printed of one release, in memory."""

    def __init__(self, db, tokenizer: str):
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(f"create virtual table t using fts5(body, lang unindexed, number unindexed, "
                          f"tokenize = '{tokenizer}')")
        rows = db.execute(
            "select coalesce(title || ' ', '') || text, lang, number from rules where release = ?"
            " union all select text, lang, rule_number from examples where release = ?"
            " union all select term || ' ' || definition, lang, json_extract(rule_refs, '$[0]')"
            " from glossary where release = ?", [RELEASE] * 3).fetchall()
        self.conn.executemany("insert into t values (?, ?, ?)", rows)

    def numbers(self, query: str, lang: str | None) -> list[str | None]:
        expression = " ".join('"' + w.replace('"', "") + '"' for w in query.split())
        try:
            rows = self.conn.execute(
                "select number from t where t match ? and (? is null or lang = ?) order by rank limit ?",
                [expression, lang, lang, DEPTH]).fetchall()
        except sqlite3.OperationalError:
            return []
        return [r[0] for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=None)
    parser.add_argument("--queries", default=str(QUERIES))
    parser.add_argument("--misses", action="store_true", help="List each query kb search misses in its top 3.")
    args = parser.parse_args()
    db = open_db(db_path(args.db))
    cases = load_queries(Path(args.queries))
    t0 = time.perf_counter()
    baselines = {"unicode61": Baseline(db, "porter unicode61 remove_diacritics 2"),
                 "trigram": Baseline(db, "trigram")}
    build_seconds = time.perf_counter() - t0

    systems = {
        "kb search": lambda q, lang: [h.number for h in search(db, q, release=RELEASE, lang=lang, limit=DEPTH)],
        "kb, no names": lambda q, lang: [h.number for h in search(
            db, q, release=RELEASE, lang=lang, limit=DEPTH, across_languages=False)],
        **{name: b.numbers for name, b in baselines.items()},
    }
    runs = [("ja", "ja", "ja → ja"), ("en", "en", "en → en"), ("mixed", None, "mixed → any"),
            ("ja", "en", "ja → en"), ("en", "ja", "en → ja")]
    print(f"Search quality, release {RELEASE}: {len(cases)} queries from {args.queries}"
          f" (baseline indexes built in {build_seconds:.1f}s)\n")
    print(f"{'queries':<12} {'n':>3}  {'system':<13} {'top-1':>7} {'top-3':>7} {'MRR':>6}")
    misses: list[str] = []
    for query_lang, search_lang, label in runs:
        chosen = [c for c in cases if c["lang"] == query_lang]
        for name, run in systems.items():
            ranks = [first_rank(run(c["q"], search_lang), c["expect"]) for c in chosen]
            top1 = sum(r == 1 for r in ranks) / len(ranks)
            top3 = sum(r is not None and r <= 3 for r in ranks) / len(ranks)
            mrr = sum(1 / r for r in ranks if r) / len(ranks)
            print(f"{label:<12} {len(chosen):>3}  {name:<13} {top1:>7.1%} {top3:>7.1%} {mrr:>6.3f}")
            if name == "kb search":
                misses += [f"  {label:<12} {c['q']!r}: expected {', '.join(c['expect'])}, first found at "
                           f"{r if r else f'none of the top {DEPTH}'}"
                           for c, r in zip(chosen, ranks) if not r or r > 3]
        print()
    if args.misses or misses:
        print("kb search, not in the top 3:" if misses else "kb search: every query in the top 3.")
        print("\n".join(misses))


if __name__ == "__main__":
    main()
