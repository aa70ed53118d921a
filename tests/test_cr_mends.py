"""What the audit of the English parser and the history found, each checked on the real file."""

from __future__ import annotations

import pytest

from ingest.cr import parse_cr
from ingest.records import Example, GlossaryEntry, IngestProblem, Rule


def parsed(corpus, name):
    path = next((corpus / "cr" / "en").rglob(f"MagicCompRules_{name}*"))
    records = list(parse_cr(path, path.relative_to(corpus).as_posix()))
    rules = {r.number: r for r in records if isinstance(r, Rule)}
    examples = [e for e in records if isinstance(e, Example)]
    glossary = {g.term: g for g in records if isinstance(g, GlossaryEntry)}
    return rules, examples, glossary, [p for p in records if isinstance(p, IngestProblem)]


@pytest.mark.parametrize("release, count", [("19990423", 36), ("19991101", 37)])
def test_1999_upper_case_examples_are_examples_not_rule_text(corpus, release, count):
    rules, examples, _glossary, _ = parsed(corpus, release)
    assert len(examples) == count
    assert not [n for n, r in rules.items() if "EXAMPLE" in r.text]
    merfolk = [e for e in examples if e.text.startswith("Merfolk or Wizard")]
    assert [e.rule_number for e in merfolk] == ["214.7a"]  # indented with its subrule in 19990423 and
    assert rules["212.2"].text == "Some card types include subtypes, printed on the same line." or release != "19990423"


@pytest.mark.parametrize("release", ["19990423", "19991101"])
def test_305_3_glued_to_its_text_is_its_own_rule(corpus, release):
    rules, _examples, _glossary, problems = parsed(corpus, release)
    assert rules["305.2"].text == "The main phase has no steps."
    assert "305.3" in rules and rules["305.3"].text.startswith(("After triggered", "The main phase begins"))
    assert any(p.code == "typo-no-space" and "305.3" in p.message for p in problems)


def test_901_4_glued_to_its_text_is_its_own_rule_in_2022_to_2025(corpus):
    rules, *_ = parsed(corpus, "20230414")
    assert rules["901.4"].text.startswith("All plane and phenomenon cards remain in the command zone")
    assert "901.4" not in rules["901.3"].text


def test_hard_wrapped_1999_text_is_joined_in_rules_and_glossary(corpus):
    rules, _examples, glossary, _ = parsed(corpus, "19990423")
    # 1999 indents a subrule and all its lines as a block: its lines are one paragraph.
    assert rules["214.7a"].text == (
        "If a card instruction requires choosing a creature subtype, this may be any noun (even if the "
        "creature doesn't exist in Magic), but only one. A word that has some other Magic meaning isn't a "
        "valid choice, because that would cause confusion.")
    wrapped = [n for n, r in rules.items() if r.kind == "subrule" and "\n" in r.text]
    assert len(wrapped) <= 5, wrapped  # only real paragraphs (after a blank line) are kept apart
    assert glossary["Activated Ability"].definition.count("\n") == 0
    assert glossary["Ability"].definition.split("\n")[1].startswith("A permanent may have one or more abilities")
    # After an example, a paragraph set off by a blank line goes on with the rule.
    assert "zone-change triggers" in rules["410.10d"].text


@pytest.mark.parametrize("release", ["20010723", "20010924", "20020220", "20021007", "20030315"])
def test_expansion_symbol_sub_headings_are_not_glossary_entries(corpus, release):
    _rules, _examples, glossary, _ = parsed(corpus, release)
    for heading in ("Expansions and Editions", "Promotional Cards", "Social-Play Sets"):
        assert heading not in glossary
        assert heading in glossary["Expansion Symbol"].definition
    assert "Unglued" in glossary["Expansion Symbol"].definition
    # The entry after it is a real one again: the list ended with the last sub-heading.
    terms = list(glossary)
    following = glossary[terms[terms.index("Expansion Symbol") + 1]]
    assert "[symbol]" not in following.definition and following.term[0].isupper()


@pytest.mark.parametrize("release", ["20090711", "20090904", "20091001"])
def test_2009_example_with_a_leading_space_is_an_example(corpus, release):
    rules, examples, *_ = parsed(corpus, release)
    assert rules["101.2"].text.endswith("the \"can't\" effect wins.")
    assert [e.text[:30] for e in examples if e.rule_number == "101.2"] == ["If one effect reads \"You may p"]


# --- history ----------------------------------------------------------------------------


def test_a_rule_rewritten_in_place_is_changed_not_removed_and_added(kb_db):
    row = kb_db.execute("select new_number, status, matched_by from rule_matches where lang = 'en'"
                        " and old_release = '20050201' and new_release = '20050801' and old_number = '100.1'").fetchone()
    assert tuple(row) == ("100.1", "changed", "rewrite")
    # What stays "removed + added" at one number is another rule there: a headed rule retitled
    # (403 Activated Abilities → Battlefield in the 2009 renumbering) or one whose parent moved.
    pairs = kb_db.execute("""
        select a.old_release, a.old_number, o.kind, o.title, n.title from rule_matches a
        join rule_matches b on b.lang = a.lang and b.old_release = a.old_release and b.new_release = a.new_release
             and b.new_number = a.old_number and b.status = 'added'
        join rules o on o.release = a.old_release and o.lang = a.lang and o.number = a.old_number
        join rules n on n.release = a.new_release and n.lang = a.lang and n.number = a.old_number
        where a.status = 'removed' and a.lang = 'en'""").fetchall()
    assert len(pairs) < 40  # 110 before
    for old_release, number, kind, old_title, new_title in pairs:
        if old_title or new_title:
            assert old_title != new_title, (old_release, number)


def test_a_split_rule_follows_the_part_whose_text_continues(kb_db):
    from kb.lineage import trace_rule

    trace = trace_rule(kb_db, "704.5a", release="20260116")
    assert (trace.steps[0].release, trace.steps[0].number) == ("19990423", "420.5a")
    row = kb_db.execute("select new_number, matched_by from rule_matches where lang = 'en'"
                        " and old_release = '19991101' and new_release = '20010723' and old_number = '420.5a'").fetchone()
    assert tuple(row) == ("420.5a", "split")
    # The part split off (drawing from an empty library) is new in 20010723.
    assert kb_db.execute("select status from rule_matches where lang = 'en' and old_release = '19991101'"
                         " and new_release = '20010723' and new_number = '420.5g'").fetchone()[0] == "added"
