"""The English CR parser on the real 20260116 release and on hand-made edge cases."""

from __future__ import annotations

import collections

import pytest

from ingest.cr import parse_cr, parse_cr_text
from ingest.records import Example, GlossaryEntry, IngestProblem, Release, Rule, RuleRef, Section


@pytest.fixture(scope="module")
def records_2026(cr_2026):
    return list(parse_cr(cr_2026, "cr/en/MagicCompRules_20260116.txt"))


def of(records, kind):
    return [r for r in records if isinstance(r, kind)]


def test_release_2026_structure_counts(records_2026):
    rules = collections.Counter(r.kind for r in of(records_2026, Rule))
    assert len(of(records_2026, Section)) == 9
    assert rules == {"rule": 146, "numbered": 1157, "subrule": 1957}
    assert len(of(records_2026, Section)) + sum(rules.values()) == 3269
    assert len(of(records_2026, Example)) == 276
    assert len(of(records_2026, GlossaryEntry)) == 725


def test_release_id_is_the_effective_date(records_2026):
    (release,) = of(records_2026, Release)
    assert (release.release, release.effective_date, release.lang) == ("20260116", "2026-01-16", "en")


def test_known_typos_parse_with_a_warning(records_2026):
    rules = {r.number: r for r in of(records_2026, Rule)}
    assert rules["119.1d"].kind == "subrule" and rules["119.1d"].parent == "119.1"
    assert rules["119.1d"].text.startswith("In a two-player Brawl game")
    assert rules["606.5"].kind == "numbered" and rules["606.5"].parent == "606"
    warnings = {(p.code, p.line) for p in of(records_2026, IngestProblem)}
    assert ("typo-subrule-period", 1054) in warnings
    assert ("typo-numbered-period", 2708) in warnings
    assert all(p.severity == "warning" for p in of(records_2026, IngestProblem))


def test_headed_rules_keep_their_titles(records_2026):
    rules = {r.number: r for r in of(records_2026, Rule)}
    assert (rules["701.23"].title, rules["701.23"].text) == ("Search", "")
    assert rules["701.57"].title == "Discover"
    assert rules["701"].title == "Keyword Actions"
    assert rules["100.1"].title is None and rules["100.1"].text.startswith("These Magic rules apply")


def test_every_example_attached_to_the_rule_it_follows(records_2026):
    examples = collections.defaultdict(list)
    for e in of(records_2026, Example):
        examples[e.rule_number].append(e)
    # 701.23b, c and f each have one example in 20260116.
    assert [len(examples[n]) for n in ("701.23a", "701.23b", "701.23c", "701.23f")] == [0, 1, 1, 1]
    assert examples["701.23c"][0].text.startswith("Lobotomy says")
    # A rule with more than three examples keeps them all (a known parser keeps three).
    most = max(examples.values(), key=len)
    assert len(most) > 3
    assert [e.seq for e in most] == list(range(1, len(most) + 1))


def test_indented_continuation_stays_with_its_rule(records_2026):
    rules = {r.number: r for r in of(records_2026, Rule)}
    assert "Cards printed in sets prior to the Eighth Edition" in rules["205.4c"].text
    assert rules["205.4c"].text.count("\n") == 1


def test_no_contents_or_credits_in_rules(records_2026):
    rules = of(records_2026, Rule)
    assert rules[0].number == "100" and rules[0].line > 177  # the contents list ends at line 179
    texts = " ".join(r.text for r in rules)
    assert "Published by Wizards of the Coast" not in texts
    assert "Richard Garfield" not in texts
    terms = [g.term for g in of(records_2026, GlossaryEntry)]
    assert terms[0] == "Abandon" and terms[-1] == "Zone-Change Triggers"
    assert "Credits" not in terms


def test_glossary_entries(records_2026):
    glossary = {g.term: g for g in of(records_2026, GlossaryEntry)}
    assert glossary["Abandon"].rule_refs == ("701.33",)
    assert glossary["Bury"].obsolete and not glossary["Abandon"].obsolete
    assert glossary["Kicker, Kicked"].aliases == ("Kicker", "Kicked")
    assert glossary["Active Player, Nonactive Player Order"].aliases == ()
    assert glossary["Ability"].definition.startswith("1. Text on an object")
    assert sum(g.obsolete for g in glossary.values()) >= 30


def test_cross_references(records_2026):
    refs = of(records_2026, RuleRef)
    from_57b = {(r.from_number, r.to_number) for r in refs if r.from_number == "701.57b"}
    assert from_57b == {("701.57b", "701.57a")}
    sections = [r for r in refs if r.to_kind == "section"]
    assert sections and all(len(r.to_number) == 1 for r in sections)
    kinds = collections.Counter(r.from_kind for r in refs)
    assert kinds["rule"] > 1000 and kinds["glossary"] > 500
    # The Absolver Thrull example cites Haunt: "(See rule 702.55, “Haunt.”)".
    assert any(r.from_kind == "example" and r.to_number == "702.55" for r in refs)


SAMPLE = """Magic: The Gathering Comprehensive Rules

These rules are effective as of February 1, 2030.

Contents

1. Game Concepts
100. General
Glossary
Credits

1. Game Concepts

100. General

100.1. A rule. See rules 100.1a–c.

100.1a First.

100.1b. Second, with a stray period.

100.1b Wrongly numbered third (a doubled letter).

Example: An example of the third.

Example: Another one.

100.2 A numbered rule without its period.

Glossary

Term, Terms
A definition. See rule 100.1.

Old Thing (Obsolete)
Gone.

Credits

Nobody
"""


def test_hand_made_edge_cases():
    records = list(parse_cr_text(SAMPLE, "sample.txt"))
    rules = {r.number: r for r in of(records, Rule)}
    assert list(rules) == ["100", "100.1", "100.1a", "100.1b", "100.1c", "100.2"]
    assert rules["100.1c"].text == "Wrongly numbered third (a doubled letter)."
    assert [e.rule_number for e in of(records, Example)] == ["100.1c", "100.1c"]
    problems = {p.code for p in of(records, IngestProblem)}
    assert {"typo-subrule-period", "typo-number", "typo-numbered-period"} <= problems
    refs = [(r.from_number, r.to_number) for r in of(records, RuleRef)]
    assert ("100.1", "100.1a") in refs and ("100.1", "100.1c") in refs
    glossary = of(records, GlossaryEntry)
    assert [(g.term, g.obsolete) for g in glossary] == [("Term, Terms", False), ("Old Thing", True)]


def test_a_document_that_is_not_a_cr_is_one_error_problem():
    records = list(parse_cr_text("Rulings are collected from many sources.\nNothing else.", "x.txt"))
    assert len(records) == 1
    (problem,) = records
    assert isinstance(problem, IngestProblem) and problem.severity == "error"
    assert problem.code == "not-a-cr" and "x.txt:1" in str(problem)
