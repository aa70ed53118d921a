"""Search quality on questions as players ask them: top-3, MRR@10 and zero-hit per category.

    python bench/search_quality.py [--db kb.db] [--set main|players] [--part tuning|frozen|all]
                                   [--misses] [--systems kb,lexical,baseline,...]

The queries are tests/data/search_eval.toml (questions in English and Japanese,
cross-language, slang, rule numbers, typos; written before tuning from public
Q&A, see its [sources]) and tests/data/search_queries.toml (keyword queries,
category ``keyword``). A quarter is frozen (sha256 of the query is 0 modulo 4):
``--part`` reports the tuning part, the frozen part or both (default: both,
apart); misses are only ever printed for the tuning part.

``--set players`` reads tests/data/search_eval_players.toml instead: 84
questions real players asked, in their own words (never written by us), with
categories ``question en``, ``question ja``, ``slang`` and ``card``; its half
frozen is the ``part`` each query names (a seeded random draw made before any
search ran on it). ``--set players2`` reads tests/data/search_eval_players2.toml, 41 more
questions players asked, gathered in round 5 before that round's tuning, in the same shape;
``--set players3`` reads tests/data/search_eval_players3.toml, 56 more, gathered in round 6;
``--set players4`` reads tests/data/search_eval_players4.toml, 51 more, gathered in round 7;
``--set players5`` reads tests/data/search_eval_players5.toml, 50 more, gathered in round 8;
``--set players6`` reads tests/data/search_eval_players6.toml, 51 more, gathered in round 9.
``--set zhko`` reads tests/data/search_eval_zhko.toml: 18 questions in Chinese (round 7; no Korean
player questions were found in the stored pages).

A result counts when its numbered rule is an expected rule, under one (704.5
for 704), or the numbered rule of an expected subrule (704.5 for 704.5a);
results are numbered-rule groups for kb, and for the baseline its hits mapped
to their numbered rules, duplicates dropped. MRR is over the first 10. A
zero-hit query is one with no result at all.

Systems, in the same run over the same queries:

- ``kb``: :func:`kb.search.engine.answer` as ``kb search`` and ``/-/search`` run it
  (lexical + dense fused for questions, with the default embedder);
- ``lexical``: the same with dense retrieval off;
- ``dense:<model>``: dense retrieval alone, for each embedder whose vectors are cached;
- ``hybrid:<model>``: ``kb`` with that embedder;
- ``baseline``: a plain FTS5 ``porter unicode61`` index of the same rows as printed
  (Japanese unsegmented), queried with the OR of the query's words by bm25.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.database import db_path
from kb.sqlite import sqlite3

EVAL = ROOT / "tests" / "data" / "search_eval.toml"
PLAYERS = ROOT / "tests" / "data" / "search_eval_players.toml"
PLAYERS2 = ROOT / "tests" / "data" / "search_eval_players2.toml"
PLAYERS3 = ROOT / "tests" / "data" / "search_eval_players3.toml"
PLAYERS4 = ROOT / "tests" / "data" / "search_eval_players4.toml"
PLAYERS5 = ROOT / "tests" / "data" / "search_eval_players5.toml"
PLAYERS6 = ROOT / "tests" / "data" / "search_eval_players6.toml"
ZHKO = ROOT / "tests" / "data" / "search_eval_zhko.toml"
KEYWORDS = ROOT / "tests" / "data" / "search_queries.toml"
DEPTH = 10
CATEGORIES = ["question en", "question ja", "question zh", "cross", "slang", "number", "typo", "keyword", "card"]


def is_frozen(q: str) -> bool:
    """The frozen quarter: sha256 of the query text is 0 modulo 4."""
    return int(hashlib.sha256(q.encode()).hexdigest(), 16) % 4 == 0


def load_cases(eval_path: Path = EVAL, keyword_path: Path | None = KEYWORDS) -> list[dict]:
    """Every query with ``category`` ("question en", "question ja", …), ``search`` (en, ja or None)
    and ``frozen`` (the query's own ``part`` where it names one, else :func:`is_frozen`)."""
    with open(eval_path, "rb") as f:
        cases = [dict(c) for c in tomllib.load(f)["query"]]
    for c in cases:
        if c["category"] == "question":
            c["category"] = f"question {c['lang']}"
        c["search"] = None if c.get("search", "any") == "any" else c["search"]
    if keyword_path is not None and keyword_path.exists():
        with open(keyword_path, "rb") as f:
            for c in tomllib.load(f)["query"]:
                # The keyword set searches release 20260116 in the query's language and across.
                cases.append({"q": c["q"], "lang": c["lang"], "category": "keyword",
                              "search": None, "expect": c["expect"]})
    for c in cases:
        c["frozen"] = c["part"] == "frozen" if "part" in c else is_frozen(c["q"])
    return cases


def numbered(number: str | None) -> str | None:
    if not number:
        return None
    return number[:-1] if re.fullmatch(r"\d{3}\.\d+[a-z]", number) else number


def is_found(number: str | None, expected: list[str]) -> bool:
    """A result's numbered rule answers when it is an expected rule, under one, or holds one.

    >>> is_found("704.5", ["704.5a"]), is_found("704.5", ["704"]), is_found("701.5", ["701.57"])
    (True, True, False)
    >>> is_found("701.57a", ["701.57"])
    True
    """
    if not number:
        return False
    for e in expected:
        if number == e or number.startswith(e + ".") or numbered(e) == number or numbered(number) == e:
            return True
    return False


def first_rank(numbers: list[str | None], expected: list[str]) -> int | None:
    return next((i for i, n in enumerate(numbers, 1) if is_found(n, expected)), None)


class Baseline:
    """A plain FTS5 OR/bm25 index over the same rows as the default search, as printed."""

    def __init__(self, conn):
        self.mem = sqlite3.connect(":memory:")
        self.mem.execute("create virtual table t using fts5(body, lang unindexed, number unindexed,"
                         " tokenize = 'porter unicode61 remove_diacritics 2')")
        rows = conn.execute("select coalesce(title || ' ', '') || coalesce(text, ''), lang, number"
                            " from search_current where kind in ('rule', 'example', 'glossary')").fetchall()
        self.mem.executemany("insert into t values (?, ?, ?)", rows)

    def numbers(self, query: str, lang: str | None) -> list[str | None]:
        words = [w for w in re.findall(r"\w+", query)]
        if not words:
            return []
        expression = " OR ".join('"' + w + '"' for w in words)
        rows = self.mem.execute("select number from t where t match ? and (? is null or lang = ?)"
                                " order by rank limit 60", [expression, lang, lang]).fetchall()
        return list(dict.fromkeys(numbered(r[0]) for r in rows))[:DEPTH]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=None)
    parser.add_argument("--set", choices=["main", "players", "players2", "players3", "players4", "players5", "players6",
                                          "zhko"],
                        default="main",
                        help="main: search_eval.toml + search_queries.toml; players: search_eval_players.toml;"
                             " players2: search_eval_players2.toml (round 5's held-out set);"
                             " players3: search_eval_players3.toml (round 6's held-out set);"
                             " players4: search_eval_players4.toml (round 7's held-out set);"
                             " players5: search_eval_players5.toml (round 8's held-out set);"
                             " players6: search_eval_players6.toml (round 9's held-out set);"
                             " zhko: search_eval_zhko.toml (round 7's Chinese questions)")
    parser.add_argument("--part", choices=["tuning", "frozen", "all"], default="all")
    parser.add_argument("--misses", action="store_true", help="List the tuning queries kb misses in its top 3.")
    parser.add_argument("--systems", default=None, help="Comma-separated systems (default: all available).")
    args = parser.parse_args()

    from kb.search import dense
    from kb.search.engine import SearchError, answer

    path = db_path(args.db)
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    cases = {"players": lambda: load_cases(PLAYERS, None), "players2": lambda: load_cases(PLAYERS2, None),
             "players3": lambda: load_cases(PLAYERS3, None), "players4": lambda: load_cases(PLAYERS4, None),
             "players5": lambda: load_cases(PLAYERS5, None), "players6": lambda: load_cases(PLAYERS6, None),
             "zhko": lambda: load_cases(ZHKO, None),
             "main": load_cases}[args.set]()
    baseline = Baseline(conn)

    def kb_system(**kw):
        def run(c):
            try:
                a = answer(conn, c["q"], lang=c["search"], limit=DEPTH, others=False, time_limit=30, **kw)
            except SearchError:  # refused (too long, …): the user sees no answer
                return []
            return [g.number for g in a.groups]
        return run

    systems = {"kb": kb_system(), "lexical": kb_system(dense=False),
               "baseline": lambda c: baseline.numbers(c["q"], c["search"])}
    indexes = {}
    for name in dense.EMBEDDERS:
        model = dense.embedder(name)
        if model is None:
            print(f"({name}: {dense.status(name)})")
            continue
        index = indexes[name] = dense.load_index(conn, name)
        if not index.complete:
            print(f"({name}: {len(index.rowids)} of {index.wanted} rows embedded; run `kb vectors fill"
                  f" --model {name}` for its figures)")
            continue
        systems[f"hybrid:{name}"] = kb_system(dense=None, embedder_name=name)
        systems[f"dense:{name}"] = _dense_only(conn, name)
    # Head to head: each embedder alone over the rows every embedder has a vector for (all of
    # them once every cache is full; a random sample of the rows while one is still filling).
    if len(indexes) > 1:
        import numpy as np

        pool = set.intersection(*(set(ix.rowids.tolist()) for ix in indexes.values()))
        print(f"(head to head over the {len(pool)} of {next(iter(indexes.values())).wanted} rows"
              f" every embedder has embedded)")
        for name, ix in indexes.items():
            keep = np.isin(ix.rowids, list(pool))
            sub = dense.DenseIndex(name, ix.rowids[keep], ix.langs[keep], ix.matrix[keep], int(keep.sum()))
            systems[f"pool:{name}"] = _dense_only(conn, name, sub)
    if args.systems:
        systems = {k: v for k, v in systems.items() if k in args.systems.split(",")}

    parts = ["tuning", "frozen"] if args.part == "all" else [args.part]
    print(f"Search quality ({args.set} set): {len(cases)} queries ({sum(c['frozen'] for c in cases)} frozen),"
          f" database {path.name}, default embedder {os.environ.get('KB_EMBEDDER') or dense.DEFAULT}\n")
    results: dict[str, list] = {}
    seconds: dict[str, float] = {}
    for name, run in systems.items():
        t0 = time.perf_counter()
        results[name] = [(c, run(c)) for c in cases]
        seconds[name] = time.perf_counter() - t0
    for part in parts:
        chosen = [c["frozen"] == (part == "frozen") for c in cases]
        print(f"== {part} part")
        print(f"{'category':<12} {'n':>4}  {'system':<22} {'top-3':>7} {'MRR@10':>7} {'zero-hit':>8}")
        for category in CATEGORIES + ["all"]:
            for name in systems:
                rows = [(c, numbers) for (c, numbers), keep in zip(results[name], chosen)
                        if keep and (category == "all" or c["category"] == category)]
                if not rows:
                    continue
                ranks = [first_rank(numbers, c["expect"]) for c, numbers in rows]
                top3 = sum(r is not None and r <= 3 for r in ranks) / len(rows)
                mrr = sum(1 / r for r in ranks if r) / len(rows)
                zero = sum(not numbers for _, numbers in rows)
                print(f"{category:<12} {len(rows):>4}  {name:<22} {top3:>7.1%} {mrr:>7.3f} {zero:>8}")
            print()
    print("seconds per query: " + ", ".join(f"{n} {s / len(cases) * 1000:.1f} ms" for n, s in seconds.items()))
    if args.misses and "kb" in results:
        print("\nkb, tuning part, not in the top 3:")
        for c, numbers in results["kb"]:
            if c["frozen"]:
                continue
            r = first_rank(numbers, c["expect"])
            if not r or r > 3:
                print(f"  [{c['category']}] {c['q']!r} (search {c['search'] or 'any'}): expected"
                      f" {', '.join(c['expect'])}; got {', '.join(str(n) for n in numbers[:5]) or 'nothing'}")


def _dense_only(conn, name, fixed_index=None):
    from kb.search import dense
    from kb.search.engine import _group_order

    model = dense.embedder(name)

    def run(c):
        index = fixed_index if fixed_index is not None else dense.load_index(conn, name)
        vector = model.query([c["q"]])[0]
        found = index.search(vector, 40, c["search"])
        rows = {r[0]: r for r in conn.execute(
            f"select id, kind, release, lang, number, title, text from search_current where id in"
            f" ({','.join(str(r) for r, _ in found)})")} if found else {}
        from kb.search.lexical import LexicalHit

        hits = [LexicalHit(*rows[r], rank=-s) for r, s in found if r in rows]
        by_key: dict = {}
        order = _group_order(conn, hits, by_key, "dense")
        out = []
        for key in order:
            g = by_key[key]
            out.append(g.number)
        return out[:DEPTH]
    return run


if __name__ == "__main__":
    main()
