"""Garbage in, no crash: the parsers yield records or problems, and decoding fails only with SourceError."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.cr import parse_cr_text
from ingest.decoding import decode_bytes
from ingest.numbering import check_numbering
from ingest.records import IngestProblem, Rule, SourceError
from ingest.rule_refs import find_citations

RULE_LINES = st.sampled_from([
    "100.1. A rule.", "100.1a A subrule.", "100.1b. Typo.", "100.2 No period.", "7. Section",
    "701. Keyword Actions", "701.23. Search", "Example: An example.", "306.b Lost digits.",
    "702. 37a Space.", "Glossary", "Credits", "", "   indented continuation", "These rules are effective as of May 1, 2020.",
    "see rules 701.23a–c and section 7", "rule 999.99z", "Term", "1. numbered definition",
])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(RULE_LINES, st.text(max_size=80)), max_size=60))
def test_parse_cr_text_never_crashes(lines):
    records = list(parse_cr_text("\n".join(lines), "fuzz.txt"))
    numbers = [r.number for r in records if isinstance(r, Rule)]
    assert len(numbers) == len(set(numbers))  # never two rules with one number
    for r in records:
        if isinstance(r, IngestProblem):
            assert r.source == "fuzz.txt"


@settings(max_examples=300)
@given(st.binary(max_size=400))
def test_decode_bytes_fails_only_with_source_error(data):
    try:
        decoded = decode_bytes(data, "fuzz.bin")
    except SourceError as e:
        assert str(e).startswith("fuzz.bin")
    else:
        assert "\r" not in decoded.text


@settings(max_examples=300)
@given(st.text(max_size=200))
def test_find_citations_never_crashes(text):
    for cite in find_citations(text):
        assert cite.kind in ("rule", "section")


@given(st.lists(st.from_regex(r"\d{3}(\.\d{1,2}[a-z]?)?", fullmatch=True), max_size=30))
def test_check_numbering_keeps_one_number_per_item(numbers):
    fixed, notes = check_numbering(numbers)
    assert len(fixed) == len(numbers)
    assert all(0 <= i < len(numbers) for i, _ in notes)
