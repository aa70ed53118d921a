"""Draw a seeded random sample of XMage tests to port as scenarios (an evaluation we did not write).

The population is every ``*.java`` file under XMage's
``Mage.Tests/src/test/java/org/mage/test/cards/abilities/keywords/`` and ``.../cards/single/`` (at the
mirror's HEAD), sorted by path. With ``random.Random(seed)`` the files are shuffled; for each file one
enabled ``@Test`` method is drawn (with the same generator), and the file is taken unless a card the
method (or the class's ``@Before`` set-up) adds is absent from the corpus's card data — the only
exclusion. Drawing goes on until ``--count`` files are taken; ``--skip`` leaves out files already in an
earlier sample (the held-out draw).

    python bench/sample_engine_tests.py --seed 20261201 --count 16
    python bench/sample_engine_tests.py --seed 4 --count 8 --skip data/scenarios/xmage_sample.toml

It prints TOML rows (``file``, ``test``, ``cards``) and, as comments, the files passed over and why.
Reads the bare mirror of github:magefree/mage (``--mirror``); never copies its code into the project.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from executable_rules.card_pool import _read_corpus_cards, default_corpus  # noqa: E402

FOLDERS = ("Mage.Tests/src/test/java/org/mage/test/cards/abilities/keywords/",
           "Mage.Tests/src/test/java/org/mage/test/cards/single/")
TEST_METHOD = re.compile(r"((?:@\w+(?:\([^)]*\))?\s*)+)public\s+void\s+(\w+)\s*\(\s*\)")
CONSTANT = re.compile(r"String\s+(\w+)\s*=\s*\"((?:[^\"\\]|\\.)*)\"\s*;")
ADD_CARD = re.compile(r"add(?:Card|CustomCardWithAbility)\s*\(\s*Zone\.\w+\s*,\s*\w+\s*,\s*(\"(?:[^\"\\]|\\.)*\"|\w+)")


def git(mirror: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(mirror), *args], check=True, capture_output=True,
                          text=True).stdout


def body_at(source: str, start: int) -> str:
    """The text of the braced block that opens at or after ``start``."""
    i = source.index("{", start)
    depth = 0
    for j in range(i, len(source)):
        if source[j] == "{":
            depth += 1
        elif source[j] == "}":
            depth -= 1
            if depth == 0:
                return source[i:j + 1]
    return source[i:]


def methods(source: str) -> tuple[list[tuple[str, str]], str]:
    """The enabled ``@Test`` methods ``(name, body)`` and the ``@Before`` bodies of a test class."""
    tests, before = [], ""
    for m in TEST_METHOD.finditer(source):
        annotations = m.group(1)
        if "@Before" in annotations:
            before += body_at(source, m.end())
        if re.search(r"@Test\b", annotations) and "@Ignore" not in annotations:
            tests.append((m.group(2), body_at(source, m.end())))
    return tests, before


def cards_added(body: str, constants: dict[str, str]) -> list[str]:
    names = []
    for m in ADD_CARD.finditer(body):
        arg = m.group(1)
        name = arg[1:-1] if arg.startswith('"') else constants.get(arg)
        if name is None:
            continue
        name = name.split(":")[0] if re.fullmatch(r".+:\d+", name) else name
        name = re.sub(r"^[A-Z0-9]{2,5}-", "", name)  # XMage's "SET-Name" form picks a printing
        if name not in names:
            names.append(name)
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror/magefree+mage/repo"))
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--skip", type=Path, help="a sample file whose files are left out")
    args = parser.parse_args()

    files = sorted(f for f in git(args.mirror, "ls-tree", "-r", "HEAD", "--name-only").splitlines()
                   if f.startswith(FOLDERS) and f.endswith(".java"))
    skip: set[str] = set()
    if args.skip:
        data = tomllib.loads(args.skip.read_text(encoding="utf-8"))
        # every earlier draw (sample, held_out, held_out_r5, held_out_r6, …): any list of rows naming a file
        skip = {row["file"] for rows in data.values() if isinstance(rows, list)
                for row in rows if isinstance(row, dict) and "file" in row}
    corpus_names = set(_read_corpus_cards(default_corpus())[0])
    rng = random.Random(args.seed)
    order = files[:]
    rng.shuffle(order)
    head = git(args.mirror, "rev-parse", "HEAD").strip()
    print(f"# seed {args.seed}, {len(files)} files, XMage {head}")
    taken = 0
    for path in order:
        if taken == args.count:
            break
        if path in skip:
            continue
        source = git(args.mirror, "show", f"HEAD:{path}")
        tests, before = methods(source)
        if not tests:
            print(f"# passed over {path}: no enabled @Test method")
            continue
        name, body = tests[rng.randrange(len(tests))]
        constants = dict(CONSTANT.findall(source))
        cards = cards_added(before + body, constants)
        missing = [c for c in cards if c not in corpus_names]
        if missing:
            print(f"# passed over {path}.{name}: not in the corpus: {', '.join(missing)}")
            continue
        taken += 1
        print(f'[[sample]]\nfile = "{path}"\ntest = "{name}"\ncards = {json.dumps(cards, ensure_ascii=False)}\n')


if __name__ == "__main__":
    main()
