"""Questions that name cards: search with card recognition against the same search without it, in one run.

    python bench/bench_card_search.py [--db kb.db] [--part tuning|frozen|all] [--categories card,...]
                                      [--set eval|players|r6|r7|r8|r9|all] [--lexical] [--misses]

``--set players`` reads tests/data/card_questions.toml (category ``card players``: questions that
name cards as players asked them, each with its part, drawn before the first run); ``r6``
tests/data/card_questions_r6.toml (category ``card players r6``: round 6's held-out set, drawn the
same way from sources the other sets had not used); ``r7`` tests/data/card_questions_r7.toml
(``card players r7``: round 7's held-out set, likewise); ``r8`` tests/data/card_questions_r8.toml
(``card players r8``: round 8's, likewise); ``r9`` tests/data/card_questions_r9.toml
(``card players r9``: round 9's, likewise); ``eval`` the
categories of tests/data/search_eval.toml; ``all`` (the default) both, in the same run.

Prints, per part (tuning, frozen) and category of tests/data/search_eval.toml,
top-3 and MRR@10 of :func:`kb.search.engine.answer` with ``cards=True`` (the
default: ``kb search`` and ``/-/search``) and ``cards=False`` (the search as it
was before card recognition); ``--lexical`` runs both without dense retrieval.
Then what recognition costs: its time per query (p50, p95, max over three
passes of every query of the set, the name index built beforehand, and how long that took),
and its false positives: the queries of the other categories in which it
recognised a card (listed for the tuning part only; the frozen part is
counted, never shown).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from search_quality import CATEGORIES, DEPTH, first_rank, load_cases  # noqa: E402

PLAYERS = ROOT / "tests" / "data" / "card_questions.toml"
PLAYERS_R6 = ROOT / "tests" / "data" / "card_questions_r6.toml"  # round 6's held-out set
PLAYERS_R7 = ROOT / "tests" / "data" / "card_questions_r7.toml"  # round 7's held-out set
PLAYERS_R8 = ROOT / "tests" / "data" / "card_questions_r8.toml"  # round 8's held-out set
PLAYERS_R9 = ROOT / "tests" / "data" / "card_questions_r9.toml"  # round 9's held-out set
CARD_CATEGORIES = ["card", "card players", "card players r6", "card players r7", "card players r8",
                   "card players r9"]


def load_card_questions(path: Path = PLAYERS, category: str = "card players") -> list[dict]:
    """The players' card questions: ``category``, ``frozen`` from the file's ``part``."""
    import tomllib

    with open(path, "rb") as f:
        rows = tomllib.load(f)["query"]
    return [{"q": r["q"], "lang": r["lang"], "category": category, "search": None,
             "expect": r["expect"], "frozen": r["part"] == "frozen", "cards": r.get("cards", [])}
            for r in rows]

from kb.database import db_path  # noqa: E402
from kb.sqlite import sqlite3  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=None)
    parser.add_argument("--part", choices=["tuning", "frozen", "all"], default="all")
    parser.add_argument("--categories", default=None, help="Comma-separated categories (default: all).")
    parser.add_argument("--set", dest="which", choices=["eval", "players", "r6", "r7", "r8", "r9", "all"], default="all",
                        help="Which questions: search_eval.toml, card_questions.toml, card_questions_r6.toml,"
                             " card_questions_r7.toml, card_questions_r8.toml, card_questions_r9.toml, or all.")
    parser.add_argument("--lexical", action="store_true", help="Both systems without dense retrieval.")
    parser.add_argument("--misses", action="store_true", help="List the tuning card questions missed in the top 3.")
    args = parser.parse_args()

    from kb.search.cards import card_names
    from kb.search.engine import SearchError, answer
    from kb.search.typos import Vocabulary

    path = db_path(args.db)
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    cases = load_cases() if args.which in ("eval", "all") else []
    if args.which in ("players", "all") and PLAYERS.exists():
        cases += load_card_questions()
    if args.which in ("r6", "all") and PLAYERS_R6.exists():
        cases += load_card_questions(PLAYERS_R6, "card players r6")
    if args.which in ("r7", "all") and PLAYERS_R7.exists():
        cases += load_card_questions(PLAYERS_R7, "card players r7")
    if args.which in ("r8", "all") and PLAYERS_R8.exists():
        cases += load_card_questions(PLAYERS_R8, "card players r8")
    if args.which in ("r9", "all") and PLAYERS_R9.exists():
        cases += load_card_questions(PLAYERS_R9, "card players r9")
    if args.categories:
        wanted = set(args.categories.split(","))
        cases = [c for c in cases if c["category"] in wanted]
    t0 = time.perf_counter()
    index = card_names(conn)
    built = time.perf_counter() - t0
    if index is None:
        sys.exit("this database has no card tables (card_aliases); build it with `kb build`")

    # Recognition alone, as the search calls it: every query of the set, the index already built.
    vocabulary = Vocabulary.from_db(conn)

    def known(word: str) -> bool:
        return vocabulary is not None and vocabulary.correct(word, "en") is not None

    times, recognised = [], {}
    for _ in range(3):  # three passes: one slow moment of a shared machine is not the figure
        for c in cases:
            t = time.perf_counter()
            found = index.find(c["q"], known=known)
            times.append((time.perf_counter() - t) * 1000)
            recognised[c["q"]] = found
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]

    dense = False if args.lexical else None
    systems = {"with cards": dict(cards=True), "without cards": dict(cards=False)}
    results: dict[str, list] = {}
    rejected: set[str] = set()
    seconds: dict[str, float] = {}
    for name, kw in systems.items():
        t = time.perf_counter()
        rows = []
        for c in cases:
            try:
                a = answer(conn, c["q"], lang=c["search"], limit=DEPTH, others=False, time_limit=30, dense=dense,
                           **kw)
            except SearchError:  # a question longer than the search accepts: no answer, a miss
                rejected.add(c["q"])
                rows.append((c, []))
                continue
            rows.append((c, [g.number for g in a.groups]))
        results[name] = rows
        seconds[name] = time.perf_counter() - t

    print(f"Card questions: {len(cases)} queries ({sum(c['frozen'] for c in cases)} frozen), database {path.name},"
          f" {'lexical' if args.lexical else 'default (hybrid)'} search\n")
    parts = ["tuning", "frozen"] if args.part == "all" else [args.part]
    for part in parts:
        print(f"== {part} part")
        print(f"{'category':<16} {'n':>4}  {'system':<14} {'top-3':>7} {'MRR@10':>7}")
        for category in CATEGORIES + CARD_CATEGORIES[1:] + ["all"]:
            shown = False
            for name in systems:
                rows = [(c, n) for c, n in results[name] if c["frozen"] == (part == "frozen")
                        and (category == "all" or c["category"] == category)]
                if not rows:
                    continue
                shown = True
                ranks = [first_rank(numbers, c["expect"]) for c, numbers in rows]
                top3 = sum(r is not None and r <= 3 for r in ranks) / len(rows)
                mrr = sum(1 / r for r in ranks if r) / len(rows)
                print(f"{category:<16} {len(rows):>4}  {name:<14} {top3:>7.1%} {mrr:>7.3f}")
            if shown:
                print()
    if rejected:
        print(f"rejected by the search (too long), counted as misses: {len(rejected)} queries"
              f" ({sum(c['frozen'] for c in cases if c['q'] in rejected)} of them frozen)")
    cards_named = [c for c in cases if c["category"] in CARD_CATEGORIES]
    if cards_named:
        hit = sum(bool(recognised[c["q"]]) for c in cards_named)
        print(f"card questions with a card recognised: {hit} of {len(cards_named)}")
    others = [c for c in cases if c["category"] not in CARD_CATEGORIES]
    false = [c for c in others if recognised[c["q"]]]
    print(f"false positives: {len(false)} of {len(others)} queries of the other categories"
          f" ({sum(c['frozen'] for c in false)} of them frozen)")
    for c in false:
        if not c["frozen"]:
            print(f"  {c['q']!r}: {', '.join(m.name + ' (' + m.how + ')' for m in recognised[c['q']])}")
    print(f"\nrecognition: name index built in {built * 1000:.0f} ms (once per process); per query"
          f" p50 {statistics.median(times):.3f} ms, p95 {p95:.3f} ms, max {times[-1]:.3f} ms")
    print("search per query: " + ", ".join(f"{n} {s / len(cases) * 1000:.1f} ms" for n, s in seconds.items()))
    if args.misses:
        print("\nwith cards, tuning part, not in the top 3:")
        for c, numbers in results["with cards"]:
            if c["frozen"] or c["category"] not in CARD_CATEGORIES:
                continue
            r = first_rank(numbers, c["expect"])
            if not r or r > 3:
                named = ", ".join(m.name for m in recognised[c["q"]]) or "no card"
                print(f"  {c['q']!r} [{named}]: expected {', '.join(c['expect'])}; got"
                      f" {', '.join(str(n) for n in numbers[:5]) or 'nothing'}")


if __name__ == "__main__":
    main()
