"""Every English release in the corpus: what parses fully, what is kept as a problem."""

from __future__ import annotations

import collections

import pytest

from ingest.cr import parse_cr
from ingest.records import Example, GlossaryEntry, IngestProblem, Release, Rule
from kb.corpus import english_cr_files


@pytest.fixture(scope="module")
def parsed(corpus):
    out = {}
    for f in english_cr_files(corpus):
        out[f.relative] = list(parse_cr(f.path, f.relative))
    return out


def test_every_english_file_in_the_corpus_is_parsed(parsed, corpus):
    # The corpus grows between rounds: every file in cr/en (but raw/) is read, none skipped.
    on_disk = {p.relative_to(corpus).as_posix() for p in (corpus / "cr" / "en").rglob("*")
               if p.is_file() and "raw" not in p.parts and p.name.startswith("MagicCompRules")}
    assert set(parsed) == on_disk and len(parsed) >= 131


def test_all_but_the_rulings_summary_parse(parsed):
    releases = {}
    failed = []
    for source, records in parsed.items():
        found = [r for r in records if isinstance(r, Release)]
        errors = [p for p in records if isinstance(p, IngestProblem) and p.severity == "error"]
        if found:
            releases[found[0].release] = source
            assert not errors, source
        else:
            failed.append((source, errors))
    assert len(releases) == len(parsed) - 1  # no two files claim the same release
    # The 1999-04-21 file is D'Angelo's Rulings Summary, not the CR: one error, kept.
    assert [(s, [p.code for p in e]) for s, e in failed] == [
        ("cr/en/archive/MagicCompRules_19990421.txt.gz", ["not-a-cr"])
    ]
    assert min(releases) == "19990423" and max(releases) >= "20260925"


def test_every_parsed_release_has_rules_glossary_and_unique_numbers(parsed):
    for source, records in parsed.items():
        rules = [r for r in records if isinstance(r, Rule)]
        if not rules:
            continue
        numbers = collections.Counter(r.number for r in rules)
        assert numbers.most_common(1)[0][1] == 1, source
        assert len(rules) > 400, source
        assert len([g for g in records if isinstance(g, GlossaryEntry)]) > 150, source
        # Parents exist: every subrule's numbered rule, every numbered rule's rule.
        for r in rules:
            if r.kind != "rule":
                assert r.parent in numbers, (source, r.number)


def test_examples_grow_with_the_rules(parsed):
    by_release = {}
    for records in parsed.values():
        rel = [r for r in records if isinstance(r, Release)]
        if rel:
            by_release[rel[0].release] = sum(isinstance(e, Example) for e in records)
    assert by_release["20260116"] == 276
    assert by_release["20090711"] > 150 and by_release["20040601"] > 50


def test_numbering_typos_in_old_releases_are_repaired(parsed):
    records = parsed["cr/en/archive/MagicCompRules_20060501.txt.gz"]
    numbers = [r.number for r in records if isinstance(r, Rule)]
    # The file prints 501.2–501.6 where 510.2–510.6 belong (after 510.1).
    assert numbers[numbers.index("510.1"):numbers.index("510.1") + 6] == [
        "510.1", "510.2", "510.3", "510.4", "510.5", "510.6"]
    notes = [p.message for p in records if isinstance(p, IngestProblem) and p.code == "typo-number"]
    assert "501.2 printed where 510.2 belongs (after 510.1); read as 510.2" in notes
