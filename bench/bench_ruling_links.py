"""Ruling links: precision and recall against the hand-labelled rulings, and the linker's speed at scale.

    python bench/bench_ruling_links.py [--db kb.db] [--no-scale] [--show-errors] [--draw SEED]

Quality: the links the build stored (``ruling_rules``, ``card_ruling_rules``)
against ``data/ruling_labels.toml``, for wiki and card rulings, on the "tune"
half (the thresholds were set looking at it) and the "frozen" half (never
looked at while tuning) apart. ``--show-errors`` lists the wrong and missing
links of the tune half only.

Speed: every dated card ruling of the corpus's ``cards/oracle_sets`` (some
49,000 (card, date, text) rulings, de-duplicated across printings) linked with
the build's linker, beside the baseline of parsing those files.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.database import db_path, open_db  # noqa: E402
from kb.ruling_links.evaluate import evaluate, load_labels, stored_links  # noqa: E402

TARGETS = {"precision": 0.90, "wiki linked": 0.90, "card linked": 0.80}


def quality(conn, show_errors: bool, draw: int | None = None) -> None:
    release, labels = load_labels()
    if draw is not None:  # only the rulings of one random draw (its seed)
        labels = [l for l in labels if l.draw == draw]
    scores = evaluate(conn, labels, release, lambda kind, rid: stored_links(conn, kind, rid))
    print(f"Labels: {len(labels)} rulings ({sum(l.kind == 'wiki' for l in labels)} wiki, "
          f"{sum(l.kind == 'card' for l in labels)} card), numbers of release {release}")
    for split in ("tune", "frozen"):
        for kind in ("wiki", "card", "all"):
            s = scores.get((kind, split))
            if s:
                print(f"  {split:<6} {kind:<4} {s.line()}" + (f"  ({len(s.missing)} labels not found)" if s.missing else ""))
    # every stored ruling, labelled or not: how many are linked, and on what evidence
    for table, what in (("rulings", "wiki rulings"), ("card_rulings", "card rulings")):
        total, linked = conn.execute(f"select count(*), count(linked_rules) from [{table}]").fetchone()
        hows = conn.execute(f"select link_how, count(*) from [{table}] where link_how is not null"
                            " group by link_how order by count(*) desc").fetchall()
        print(f"  every stored {what}: {linked:,} of {total:,} linked ({linked / max(total, 1):.1%}); by how: "
              + ", ".join(f"{h} {n:,}" for h, n in hows))
    for split in ("tune", "frozen"):
        a, w, c = (scores.get((k, split)) for k in ("all", "wiki", "card"))
        if a and w and c:
            print(f"  {split:<6} targets: precision {a.precision:.1%} (target {TARGETS['precision']:.0%}),"
                  f" wiki linked {w.linked_share:.1%} ({TARGETS['wiki linked']:.0%}),"
                  f" card linked {c.linked_share:.1%} ({TARGETS['card linked']:.0%})")
    if show_errors:
        s = scores[("all", "tune")]
        for label, numbers in s.wrong:
            print(f"  wrong  {label.kind} {'/'.join(label.key[:-1])}: linked {numbers}, labelled {label.rules} "
                  f"(also {label.also}): {label.key[-1][:80]}")
        for label in s.unlinked:
            print(f"  none   {label.kind} {'/'.join(label.key[:-1])}: labelled {label.rules}: {label.key[-1][:80]}")


def scale(conn, corpus: Path) -> None:
    from ingest.cards import CardRuling, OracleCard, parse_oracle_records
    from kb.load.ruling_links import (CARD_DEFINITION_FALLBACK, CARD_DEFINITION_IF_NAMED, CARD_TOPICS, KEYWORDS_IF_NAMED,
                                      _Releases)
    from kb.ruling_links import Linker, Ruling, RuleIndex
    from kb.ruling_links.topics import card_topics

    files = sorted((corpus / "cards" / "oracle_sets").glob("*.txt"))
    if not files:
        print("Speed: no cards/oracle_sets in the corpus; skipped")
        return
    t0 = time.perf_counter()
    cards: dict[str, str] = {}
    rulings: dict[tuple, None] = {}
    for path in files:
        for r in parse_oracle_records(path, path.name):
            if isinstance(r, OracleCard):
                cards.setdefault(r.name, r.text or "")
            elif isinstance(r, CardRuling):
                rulings.setdefault((r.name, r.date, r.text), None)
    parse = time.perf_counter() - t0
    releases = _Releases(conn)
    t0 = time.perf_counter()
    index = RuleIndex(conn, releases.newest_en, releases.newest_ja)
    linker = Linker(index)
    built = time.perf_counter() - t0
    t0 = time.perf_counter()
    keywords = {name: tuple(sorted(k.title for k in index.keywords_in_english(text) if not k.generic))
                for name, text in cards.items()}
    items = []
    for name, day, text in rulings:
        in_force = releases.in_force(day)
        # as the build decides a card ruling: the card's keywords and its text's topics
        items.append(Ruling(text, "en", None, keywords.get(name, ()), (("en", in_force),) if in_force else (),
                            keywords_if_named=KEYWORDS_IF_NAMED, definition_fallback=CARD_DEFINITION_FALLBACK,
                            card_topics=card_topics(cards.get(name)), use_topics=CARD_TOPICS,
                            definition_if_named=CARD_DEFINITION_IF_NAMED))
    distinct = list(dict.fromkeys(items))
    decided = dict(zip(distinct, linker.link_many(distinct)))
    linked = sum(bool(decided[r].links) for r in items)
    link = time.perf_counter() - t0
    t0 = time.perf_counter()
    sample = distinct[:2000]
    for r in sample:
        linker.link(r)
    one_by_one = (time.perf_counter() - t0) / len(sample) * len(distinct)
    print(f"Speed: {len(rulings):,} card rulings of {len(cards):,} cards ({len(distinct):,} distinct decisions)")
    print(f"  baseline: parse {len(files)} oracle_sets files          {parse:6.2f} s")
    print(f"  index the newest release (both languages)       {built:6.2f} s")
    print(f"  link every card ruling                          {link:6.2f} s"
          f"  ({len(rulings) / link:,.0f} rulings/s; {linked / len(rulings):.1%} linked)")
    print(f"  baseline: one ruling at a time (dicts), estimated  {one_by_one:6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=None)
    parser.add_argument("--corpus", default=None)
    parser.add_argument("--no-scale", action="store_true")
    parser.add_argument("--show-errors", action="store_true")
    parser.add_argument("--draw", type=int, default=None, help="only the labels of the random draw with this seed")
    args = parser.parse_args()
    db = open_db(db_path(args.db))
    quality(db.conn, args.show_errors, args.draw)
    if not args.no_scale:
        from kb.corpus import find_corpus

        scale(db.conn, Path(args.corpus) if args.corpus else find_corpus())


if __name__ == "__main__":
    main()
