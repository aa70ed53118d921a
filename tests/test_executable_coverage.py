"""Every example, wiki ruling and card ruling about the actions has a scenario, and every action's subrules do.

- Every ``Example:`` under the rules of the actions in the newest English CR
  has a scenario with source ``cr-example`` naming its rule and sequence
  number and quoting an excerpt of it (checked against the CR).
- Every ruling bullet of the ルール sections of the four keyword pages in
  ``seeds/`` has a scenario quoting it exactly (an ``例`` bullet may instead be
  covered by its parent's scenario).
- Every dated ruling of a card whose text uses one of the actions has a
  scenario, or is listed in ``data/scenarios/out_of_scope.toml`` with a reason.
- Every subrule an action module declares has at least one scenario.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from executable_rules.actions import ACTIONS, module_name
from executable_rules.card_pool import load_card_pool
from executable_rules.rules_index import newest_rules
from executable_rules.scenarios import SCENARIO_DIR, load_scenarios

ACTION_KEYWORDS = ["Search", "Discover", "Explore", "Manifest", "Manifest Dread", "Cloak",
                   "Face a Villainous Choice", "Dredge"]
WIKI_SECTION_ENDS = {"参考", "その他", "開発秘話", "探すことを参照するカード", "解説", "定義"}


@pytest.fixture(scope="module")
def scenarios():
    return load_scenarios()


@pytest.fixture(scope="module")
def rules(corpus):
    return newest_rules(corpus)


def wiki_rulings(path: Path) -> tuple[str, list[tuple[int, str]]]:
    """The page title and its ルール bullets as (depth, text), read minimally from the rendered page.

    A page whose section uses "•" marks has only those lines as bullets (the
    others are subheadings); a page without them (探す, whose top-level marks
    were lost in rendering) has every line as a bullet, nested ones marked "-".
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    title = lines[0].strip()
    start = next(i for i, line in enumerate(lines) if line.strip().removeprefix("[編集]") == "ルール")
    section: list[str] = []
    for line in lines[start + 1:]:
        text = line.replace("[編集]", "")
        if text.strip() in WIKI_SECTION_ENDS or text.strip().startswith("引用："):
            break
        if text.strip():
            section.append(text)
    marked = any(line.strip().startswith("•") for line in section)
    bullets = []
    for line in section:
        stripped = line.strip()
        if marked and not stripped.startswith("•"):
            continue
        depth = (len(line) - len(line.lstrip(" "))) // 2 + (0 if marked else stripped.startswith("-"))
        bullets.append((depth, re.sub(r"^[•\-]\s*", "", stripped)))
    return title, bullets


def seed_pages(corpus: Path) -> list[Path]:
    return sorted((corpus / "seeds").glob("00[0-3]_*.txt"))


def test_the_four_keyword_pages_are_read(corpus):
    pages = {wiki_rulings(p)[0]: len(wiki_rulings(p)[1]) for p in seed_pages(corpus)}
    assert pages == {"発見": 13, "探検": 4, "探す": 8, "発掘": 11}


def test_every_cr_example_has_a_scenario(rules, scenarios):
    examples = [e for keyword in ACTION_KEYWORDS for e in rules.examples_under(rules.keyword_number(keyword))]
    assert len(examples) >= 3      # 701.23b, 701.23c, 701.23f in the 2026 releases
    by_example = {(s.source["rule"], s.source["seq"]): s for s in scenarios if s.source_kind == "cr-example"}
    missing = [f"{e.rule_number} example {e.seq}: {e.text[:60]}…" for e in examples
               if (e.rule_number, e.seq) not in by_example]
    assert not missing, "examples without a scenario:\n" + "\n".join(missing)
    texts = {(e.rule_number, e.seq): e.text for e in rules.examples}
    for (number, seq), s in by_example.items():
        assert (number, seq) in texts, f"{s.path}:{s.line}: the CR has no example {seq} under {number}"
        assert s.source["text"] in texts[(number, seq)], f"{s.path}:{s.line}: the excerpt isn't in example {number}/{seq}"
        assert number in s.rules, f"{s.path}:{s.line}: an example of {number} should illustrate {number}"


def test_every_wiki_ruling_has_a_scenario(corpus, scenarios):
    covered = {(s.source["page"], s.source["text"]) for s in scenarios if s.source_kind == "wiki-ruling"}
    missing = []
    known = set()
    for path in seed_pages(corpus):
        page, bullets = wiki_rulings(path)
        for i, (depth, text) in enumerate(bullets):
            known.add((page, text))
            if (page, text) in covered:
                continue
            parent = next((t for d, t in reversed(bullets[:i]) if d < depth), None)
            if text.startswith("例") and parent and (page, parent) in covered:
                continue
            missing.append(f"{page}: {text}")
    assert not missing, "wiki rulings without a scenario:\n" + "\n".join(missing)
    known |= rendered_wiki_bullets(corpus)
    # A page outside the seeds (wiki/ja/増殖__….txt) is checked against its own files: the text is there.
    stale = sorted((page, text) for page, text in covered - known
                   if not any(text in f.read_text(encoding="utf-8")
                              for f in (corpus / "wiki" / "ja").glob(f"{page}__*.txt")))
    assert not stale, f"scenarios quote rulings the pages don't have: {stale}"


def rendered_wiki_bullets(corpus: Path) -> set[tuple[str, str]]:
    """(page, bullet text) of the rendered MTG Wiki pages of ``wiki/`` (``果敢__rendered-oldrev__excerpt.txt``):
    scenarios may quote those pages' rulings too (they aren't all required, as the seed pages' are)."""
    found = set()
    for path in sorted((corpus / "wiki").glob("*/*__rendered*.txt")):
        page = path.name.split("__")[0].replace("_", " ")
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("- "):
                found.add((page, line[2:].strip()))
    return found


def test_the_wiki_parser_finds_the_same_rulings(corpus, scenarios):
    """Cross-check with the project's wiki parser, when it is there: the same bullets, all covered."""
    wiki = pytest.importorskip("ingest.wiki")
    from ingest.wiki_records import Ruling

    covered = {(s.source["page"], s.source["text"]) for s in scenarios if s.source_kind == "wiki-ruling"}
    for path in seed_pages(corpus):
        rulings = [r for r in wiki.parse_wiki_page(path) if isinstance(r, Ruling)]
        page, bullets = wiki_rulings(path)
        assert [r.text for r in rulings] == [text for _, text in bullets], path.name
        by_position = {r.position: r for r in rulings}
        for r in rulings:
            parent = by_position.get(r.parent) if r.parent else None
            assert (r.title, r.text) in covered or (r.is_example and parent and (r.title, parent.text) in covered), \
                f"{r.source}:{r.line}: no scenario for {r.text[:40]}…"


def out_of_scope() -> list[dict]:
    return tomllib.loads((SCENARIO_DIR / "out_of_scope.toml").read_text(encoding="utf-8"))["ruling"]


def test_every_card_ruling_about_the_actions_has_a_scenario(corpus, scenarios):
    pool = load_card_pool(corpus)
    about = pool.rulings_about_actions()
    assert len({r.card for r in about}) >= 20
    covered = {(str(s.source["date"]), s.source["text"]) for s in scenarios if s.source_kind == "card-ruling"}
    skipped = [(o["card"], o["date"], o["starts"]) for o in out_of_scope()]
    missing = []
    for r in about:
        if (r.date, r.text) in covered:
            continue
        if any(r.card == card and r.date == date and r.text.startswith(starts) for card, date, starts in skipped):
            continue
        missing.append(f"{r.card} {r.date}: {r.text[:80]}… ({r.source}:{r.line})")
    assert not missing, "card rulings without a scenario (write one, or list it in out_of_scope.toml):\n" + "\n".join(missing)


def test_card_ruling_sources_and_exclusions_are_real(corpus, scenarios):
    pool = load_card_pool(corpus)
    rulings = {(r.card, r.date, r.text) for r in pool.rulings}
    for s in scenarios:
        if s.source_kind == "card-ruling":
            key = (s.source["card"], s.source["date"], s.source["text"])
            assert key in rulings, f"{s.path}:{s.line}: no such ruling of {s.source['card']} on {s.source['date']}"
    about = pool.rulings_about_actions()
    for o in out_of_scope():
        matches = [r for r in about if r.card == o["card"] and r.date == o["date"] and r.text.startswith(o["starts"])]
        assert len(matches) == 1, f"out_of_scope.toml: {o['card']} {o['date']} {o['starts']!r} matches {len(matches)} rulings"
        assert o["reason"]


@pytest.mark.parametrize("module", ACTIONS, ids=module_name)
def test_every_declared_subrule_has_a_scenario(module, rules, scenarios):
    number = rules.keyword_number(module.KEYWORD)
    base = number if number.startswith(("701.", "702.")) else number + "."
    illustrated = {r for s in scenarios if s.module is module for r in s.rules}
    missing = [base + sub for sub in module.SUBRULES if base + sub not in illustrated]
    assert not missing, f"{module.KEYWORD}: no scenario for {missing}"


def test_scenarios_are_counted_by_source(scenarios):
    kinds = {}
    for s in scenarios:
        kinds[s.source_kind] = kinds.get(s.source_kind, 0) + 1
    assert kinds["cr-example"] >= 12     # 701: the Search, Exchange and Shuffle examples; 702: combat and the abilities
    assert kinds["wiki-ruling"] >= 36
    assert kinds["card-ruling"] >= 35
    assert kinds["own"] >= 40
