"""Count, over XMage's tests, the Oracle lines the grammar can't read, by how many test files need them.

For every ``*.java`` file under ``Mage.Tests/src/test/java`` (at the mirror's HEAD) the cards it adds
(``addCard``, as `sample_engine_tests.py` reads them) are looked up in the corpus; each line of their
Oracle text is parsed with ``parse_card``; a line that stays ``unparsed`` counts once per test file for
its template (numbers and costs generalised) and for each named shape it matches. Prints the shapes and
then the templates, most files first.

    python bench/count_unread_xmage.py --top 40
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from sample_engine_tests import CONSTANT, cards_added, git

from executable_rules.card_pool import shared_card_pool
from executable_rules.oracle.parser import parse_card

#: Named shapes (regular expressions over the normalised line), as the round-7 count named them.
SHAPES = {
    "can't attack/block": r"can't (attack|block)",
    "add one mana of any color": r"add one mana of any colou?r",
    "enchanted creature …": r"^enchanted creature",
    "as though it had flash": r"as though (it|they) had flash",
    "opponents can't cast": r"can't cast",
    "tapped and attacking": r"tapped and attacking",
    "create X tokens": r"create x\b",
    "characteristic-defining P/T": r"(power|toughness)( and toughness)? (is|are)( each)? equal",
    "X targets": r"\bx target",
    "until your next turn": r"until your next turn",
    "loyalty ability": r"^\[[+−-]?[0-9x]+\]",
    "for each": r"\bfor each\b",
    "gets +X/+X where": r"gets? [+-]x/[+-]x",
    "enters with counters": r"enters with",
    "chosen type/color": r"chosen (creature )?(type|color)",
    "exile … you may cast/play": r"you may (cast|play)",
    "damage to any target / deals damage": r"deals? .*damage",
    "search your library": r"search .*library",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror/magefree+mage/repo"))
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    files = [f for f in git(args.mirror, "ls-tree", "-r", "HEAD", "--name-only").splitlines()
             if f.startswith("Mage.Tests/src/test/java/") and f.endswith(".java")]
    pool = shared_card_pool()
    unread_of: dict[str, list[tuple[str, str]]] = {}
    shapes: collections.Counter[str] = collections.Counter()
    templates: collections.Counter[str] = collections.Counter()
    example: dict[str, str] = {}
    with_cards = 0
    for path in files:
        source = git(args.mirror, "show", f"HEAD:{path}")
        names = cards_added(source, dict(CONSTANT.findall(source)))
        seen_shapes: set[str] = set()
        seen_templates: set[str] = set()
        for name in names:
            if name not in pool:
                continue
            if name not in unread_of:
                card = pool.find(name)
                unread_of[name] = [(a.text, a.template) for face in card.faces
                                   for a in parse_card(face.name, face.text).abilities if not a.parsed]
            for text, template in unread_of[name]:
                seen_templates.add(template)
                example.setdefault(template, f"{name}: {text}")
                seen_shapes.update(s for s, pattern in SHAPES.items() if re.search(pattern, text))
        with_cards += bool(names)
        shapes.update(seen_shapes)
        templates.update(seen_templates)
    print(f"# {len(files)} test files, {with_cards} adding cards; XMage "
          f"{subprocess.run(['git', '--git-dir', str(args.mirror), 'rev-parse', 'HEAD'], capture_output=True, text=True, check=True).stdout.strip()}")
    print("## shapes (test files with a card having an unread line of that shape)")
    for shape, n in shapes.most_common():
        print(f"{n:5d}  {shape}")
    print("## templates")
    for template, n in templates.most_common(args.top):
        print(f"{n:5d}  {example[template]}")


if __name__ == "__main__":
    main()
