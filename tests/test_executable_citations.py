"""Every rule the executable rules cite is right in the newest CR we ingest.

Links go by title: "Discover — CR 701.57a" must be a rule 701.57a under a rule
titled Discover in the newest English release. A bare number (a comment's
"701.57a") must exist, and a keyword action's number must belong to the
module's keyword or to a title the file cites — so a number that moved with a
renumbering (Search was 701.19, Discover 701.55) fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from executable_rules.actions import ACTIONS, module_name
from executable_rules.citation import CITATION_PATTERN, Citation
from executable_rules.rules_index import newest_rules
from executable_rules.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "executable_rules"
BARE_NUMBER = re.compile(r"(?<![\d.\w])(\d{3}\.\d+[a-z]?)(?![\d\w])")
CITATION_CALL = re.compile(r'Citation\(\s*"([^"]+)",\s*"(\d{3}(?:\.\d+[a-z]?)?)"\s*\)')
KEYWORD_CALL = re.compile(r'Citation\(\s*KEYWORD,\s*"(\d{3}(?:\.\d+[a-z]?)?)"\s*\)')


@pytest.fixture(scope="module")
def rules(corpus):
    return newest_rules(corpus)


def cited_files() -> list[Path]:
    return (sorted(PACKAGE.rglob("*.py")) + sorted((ROOT / "data" / "scenarios").glob("*.toml"))
            + [ROOT / "data" / "scenarios" / "README.md"])


def keyword_of(path: Path) -> str | None:
    for module in ACTIONS:
        if path.stem == module_name(module) and path.parent.name in ("actions", "scenarios"):
            return module.KEYWORD
    return None


def read_checked(path: Path) -> str:
    """The file's text, less a line marked "stale on purpose" (a doctest showing the check) and the line after it."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        if "stale on purpose" in line:
            lines[i] = ""
            if i + 1 < len(lines):
                lines[i + 1] = ""
    return "\n".join(lines)


def citations_in(path: Path) -> list[tuple[int, Citation]]:
    text = read_checked(path)
    found = []
    keyword = keyword_of(path)
    for m in CITATION_PATTERN.finditer(text):
        found.append((text.count("\n", 0, m.start()) + 1, Citation(m["keyword"].strip(), m["number"])))
    for m in CITATION_CALL.finditer(text):
        found.append((text.count("\n", 0, m.start()) + 1, Citation(m[1], m[2])))
    if keyword:
        for m in KEYWORD_CALL.finditer(text):
            found.append((text.count("\n", 0, m.start()) + 1, Citation(keyword, m[1])))
    return found


@pytest.mark.parametrize("path", cited_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_titled_citations_match_the_newest_cr(path, rules):
    problems = [f"{path.relative_to(ROOT)}:{line}: {rules.check(c)}" for line, c in citations_in(path) if rules.check(c)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", cited_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_cr_mention_is_a_whole_citation(path):
    """"CR 701.57a" always follows its title on the same line, so the checks above see it."""
    text = path.read_text(encoding="utf-8")
    covered = {m.start("number") for m in CITATION_PATTERN.finditer(text)}
    loose = [text.count("\n", 0, m.start()) + 1 for m in re.finditer(r"CR (\d{3})", text) if m.start(1) not in covered]
    assert not loose, f"{path.relative_to(ROOT)}: 'CR number' without 'Title — ' before it on lines {loose}"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_bare_rule_numbers_exist_under_a_cited_title(path, rules):
    text = read_checked(path)
    allowed = {c.keyword for _, c in citations_in(path)}
    if keyword_of(path):
        allowed.add(keyword_of(path))
    problems = []
    for m in BARE_NUMBER.finditer(text):
        number = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        if number not in rules.rules:
            problems.append(f"{path.relative_to(ROOT)}:{line}: no rule {number} in the {rules.release} CR")
            continue
        titles = {t for _, t in rules.ancestors(number) if t}
        if number.startswith(("701.", "702.")) and not titles & allowed:
            problems.append(f"{path.relative_to(ROOT)}:{line}: {number} is under {sorted(titles)}, "
                            f"which this file doesn't cite by title ({sorted(allowed)})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("module", ACTIONS, ids=module_name)
def test_action_docstring_opens_with_title_and_number(module, rules):
    number = rules.keyword_number(module.KEYWORD)
    first_line = module.__doc__.strip().splitlines()[0]
    assert first_line.startswith(f"{module.KEYWORD} — CR {number} ("), first_line
    base = number if number.startswith(("701.", "702.")) else number + "."
    for subrule in module.SUBRULES:
        assert base + subrule in rules.rules, f"{module.KEYWORD}: no subrule {base + subrule} in {rules.release}"
    assert module.KIND in ("keyword action", "keyword ability", "rule")
    if module.KIND == "keyword action":
        assert number.startswith("701.")
    if module.KIND == "keyword ability":
        assert number.startswith("702.")


def test_every_scenario_rule_is_under_its_keyword(rules):
    problems = []
    for s in load_scenarios():
        for number in s.rules:
            problem = rules.check(Citation(s.keyword, number))
            if problem:
                problems.append(f"{s.path}:{s.line}: {problem}")
        for citation in s.also:
            problem = rules.check(citation)
            if problem:
                problems.append(f"{s.path}:{s.line}: {problem}")
    assert not problems, "\n".join(problems)


def test_a_stale_number_is_caught(rules):
    """The check itself: Discover's old number fails, with a message naming both rules."""
    assert rules.check(Citation("Discover", "701.55a")) == (
        "Discover — CR 701.55a: 701.55a is under Face a Villainous Choice (701.55), not Discover (701.57)")
    assert rules.check(Citation("Search", "701.19b")) is not None
    assert rules.check(Citation("Search", "701.23j")) is None
