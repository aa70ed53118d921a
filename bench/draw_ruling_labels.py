"""Draw card rulings to label by hand, by seed, spread over keywords (round 7: seed 20261205; round 8: 20261202).

    python bench/draw_ruling_labels.py --seed 20261205 --n 48 [--db kb.db]

The pool: every dated card ruling whose text no batch of ``data/ruling_labels.toml`` labelled yet
(neither the same ruling nor the same text on another card). Each is put in the strata of its card's
keywords (``card_keywords``, the keywords the card has; "(none)" for a card with none). The strata
are shuffled with ``random.Random(seed)``; one ruling is drawn at random from each in turn until
``n`` are drawn, so no keyword gives two before every keyword has given one. Prints the draw as
TOML stubs (card, date, text) to be labelled from the CR.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.database import db_path, open_db
from kb.ruling_links.evaluate import load_labels


def draw(conn, seed: int, n: int, redraw: int | None = None) -> list[tuple[str, str, str, str]]:
    """(stratum, card, date, text) of each ruling drawn; ``redraw``: the seed of a batch already labelled, whose
    labels and those of every batch after it (later in the file) are left out of "labelled", so the draw that
    made it is made again (a test checks it is)."""
    _, labels = load_labels()
    if redraw is not None:
        first = next((k for k, l in enumerate(labels) if l.draw == redraw), len(labels))
        labels = labels[:first]
    labelled_texts = {l.key[-1] for l in labels}
    keywords: dict[int, set[str]] = defaultdict(set)
    for card_id, keyword in conn.execute("select card_id, keyword from card_keywords where card_id is not null"):
        keywords[card_id].add(keyword)
    strata: dict[str, list] = defaultdict(list)
    seen: set[str] = set()
    for rid, card_id, card, day, text in conn.execute(
            "select id, card_id, card, date, text from card_rulings where text is not null order by id"):
        if text in labelled_texts or text in seen:
            continue
        seen.add(text)
        for k in sorted(keywords.get(card_id) or {"(none)"}):
            strata[k].append((rid, card, day, text))
    rng = random.Random(seed)
    order = sorted(strata)
    rng.shuffle(order)
    drawn: list = []
    taken: set[int] = set()
    while len(drawn) < n and order:
        for k in list(order):
            pool = [r for r in strata[k] if r[0] not in taken]
            if not pool:
                order.remove(k)
                continue
            pick = rng.choice(pool)
            taken.add(pick[0])
            drawn.append((k, *pick[1:]))
            if len(drawn) == n:
                break
    return drawn


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=None)
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--n", type=int, default=48)
    args = parser.parse_args()
    conn = open_db(db_path(args.db)).conn
    for keyword, card, day, text in draw(conn, args.seed, args.n):
        print(f"[[card]]\ndraw = {args.seed}\nkeyword = {json.dumps(keyword)}\ncard = {json.dumps(card)}\n"
              f"date = \"{day}\"\ntext = {json.dumps(text, ensure_ascii=False)}\nrules = []\nalso = []\n"
              f"split = \"frozen\"\nnote = \"\"\n")


if __name__ == "__main__":
    main()
