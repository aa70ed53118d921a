"""The Japanese CR parser (ingest.cr_ja) and the Japanese glossary (ingest.glossary_ja),
on the real files of release 20260116 and on small cases."""

from __future__ import annotations

import collections
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.cr_ja import Heading, parse_cr_ja, parse_cr_ja_text
from ingest.glossary_ja import compare_glossaries, parse_glossary_ja, parse_glossary_ja_text
from ingest.records import Example, GlossaryEntry, IngestProblem, Release, Rule, RuleRef, Section

CR_JA = "cr/ja/JPN_CR_20260116.txt"
GLOSSARY_JA = "cr/ja/JPN_CR_20260116_glossary_dict.txt"


@pytest.fixture(scope="module")
def records(corpus):
    return list(parse_cr_ja(corpus / CR_JA, CR_JA))


@pytest.fixture(scope="module")
def rules(records):
    return {r.number: r for r in records if isinstance(r, Rule)}


@pytest.fixture(scope="module")
def examples(records):
    return {(e.rule_number, e.seq): e for e in records if isinstance(e, Example)}


@pytest.fixture(scope="module")
def glossary(records):
    return [g for g in records if isinstance(g, GlossaryEntry)]


def test_release_is_20260116_whole(records):
    (release,) = [r for r in records if isinstance(r, Release)]
    assert (release.release, release.lang, release.effective_date, release.completeness, release.version_label) == (
        "20260116", "ja", "2026-01-16", "whole", "20260116.0")


def test_counts(records, rules, examples, glossary):
    kinds = collections.Counter(r.kind for r in rules.values())
    assert (kinds["rule"], kinds["numbered"], kinds["subrule"]) == (146, 1156, 1958)
    assert [s.number for s in records if isinstance(s, Section)] == list("123456789")
    assert len(examples) == 277
    assert len(glossary) == 728  # as SOURCES.md says
    assert all(r.lang == "ja" and r.release == "20260116" for r in rules.values())
    assert all(r.source == CR_JA and r.line > 160 for r in rules.values())


@pytest.mark.parametrize("number, title, title_en", [
    pytest.param("701.23", "探す", "Search", id="title-701.23-search"),
    pytest.param("701.57", "発見を行う", "Discover", id="title-701.57-discover"),
    pytest.param("702.186", "∞（インフィニティ）", "Infinity", id="title-702.186-brackets-in-name"),
    pytest.param("701.26", "タップする、アンタップする", "Tap and Untap", id="title-701.26-two-names"),
    pytest.param("205.2", "カード・タイプ", None, id="title-205.2-no-english-name"),
    pytest.param("701.68", "枯朽を行う", "Blight", id="title-701.68-no-period"),
    pytest.param("702.176", "兆候", "Impending", id="title-702.176-no-space"),
    pytest.param("702.189", "火の技", "Firebending", id="title-702.189-doubled-number"),
    pytest.param("720", "前兆カード", None, id="title-720-space-before-period"),
])
def test_titles(rules, number, title, title_en):
    rule = rules[number]
    assert (rule.title, rule.title_en, rule.text) == (title, title_en, "")


def test_printed_headings_keep_the_line_as_printed(records):
    printed = {h.number: h for h in records if isinstance(h, Heading)}
    assert printed["701.23"].printed == "701.23. 探す／Search"
    assert printed["702.189"].printed == "702.189. 702.189. 火の技／Firebending"
    assert printed["7"].printed == "7. その他のルール"
    assert (printed["701.23"].source, printed["701.23"].line) == (CR_JA, 1878)


def test_typos_are_warnings_with_file_and_line(records):
    problems = [(p.line, p.code) for p in records if isinstance(p, IngestProblem)]
    assert all(p.severity == "warning" and p.source == CR_JA
               for p in records if isinstance(p, IngestProblem))
    assert (2859, "typo-doubled-number") in problems  # 702.189. 702.189.
    assert (2079, "typo-numbered-period") in problems  # 701.68 枯朽を行う
    assert (3207, "typo-space-before-period") in problems  # 720 . 前兆カード
    assert (1175, "text-on-next-line") in problems  # 500.10a alone on its line
    assert (1201, "duplicate-number") in problems  # 505.4 printed twice
    assert (4944, "glossary-term-missing") in problems  # （へや）／Room
    assert (3220, "contents-mismatch") in problems  # 721. 配備カード missing from もくじ
    assert collections.Counter(code for _, code in problems) == {
        "typo-no-space": 13, "typo-numbered-period": 6, "text-on-next-line": 5, "typo-doubled-number": 1,
        "typo-space-before-period": 1, "duplicate-number": 1, "contents-mismatch": 1,
        "glossary-term-missing": 1,
    }
    doubled = next(p for p in records if isinstance(p, IngestProblem) and p.code == "typo-doubled-number")
    assert str(doubled) == (f"{CR_JA}:2859: warning: 702.189 is printed twice at the start of its line "
                            "(702.189. 702.189.); read once")


def test_a_number_printed_twice_keeps_the_first_and_does_not_shift_the_rest(rules, records):
    assert "1つ以上の章能力を持つ英雄譚" in rules["505.4"].text
    assert rules["505.5"].text.startswith("次に、アクティブ・プレイヤーが1つ以上のアトラクション")
    assert rules["505.6b"].line == 1205 and "505.7" not in rules
    warning = next(p for p in records if isinstance(p, IngestProblem) and p.code == "duplicate-number")
    assert "自分のコントロールしている英雄譚" in warning.message  # the dropped wording is in the warning


def test_examples_inline_alone_and_both_colons(examples, rules):
    inline = examples[("701.20c", 1)]
    assert inline.text.startswith("《テレパシー》はエンチャント・カードであり")
    assert rules["701.20c"].text.endswith("選んでもよい。")
    assert "例" not in rules["701.20c"].text
    assert examples[("123.6b", 1)].text.startswith("プレイヤーが「Dark」と印刷されている")  # 例： alone
    assert examples[("101.4", 1)].text.startswith("「各プレイヤーはそれぞれ")  # 例: with an ASCII colon
    assert [seq for (number, seq) in examples if number == "123.6c"] == [1, 2, 3]


def test_text_is_stored_as_printed(rules):
    assert "あなたの ライブラリーの一番上" in rules["701.57a"].text  # the source's stray space is kept
    assert rules["500.10a"].text.startswith("追加のフェイズやステップを")  # its text from the next line
    first, second = rules["205.4c"].text.split("\n")  # an indented paragraph, indentation dropped
    assert second.startswith("第8版以前に作られたカードは")


def test_japanese_citation_forms(records):
    refs = {(r.from_number, r.to_number, r.to_kind) for r in records if isinstance(r, RuleRef)}
    assert ("100.1b", "8", "section") in refs  # rule 8〔多人数戦ルール〕
    assert ("205.3h", "719", "rule") in refs  # (719 参照)
    assert ("702.113a", "601.2h", "rule") in refs  # rule 601.2bとrule 601.2f-h
    assert ("悪事", "700.13", "rule") in refs  # the glossary's bare 700.13. 参照


def test_glossary_entries(glossary):
    by_term = {g.term: g for g in glossary}
    search = by_term["探す"]
    assert (search.reading, search.term_en, search.rule_refs) == ("さがす", "Search", ("701.23",))
    assert by_term["コントロール、コントローラー"].aliases == ("コントロール", "コントローラー")
    assert by_term["へや"].term_en == "Room"  # the source prints （へや）／Room without its term
    assert by_term["脇に置く"].obsolete and not search.obsolete
    assert sum(g.obsolete for g in glossary) == 34
    assert {g.term_en for g in glossary if g.term_en.startswith("Counter")} == {"Counter(v)", "Counter(n)"}


def test_glossary_wiki_copy_is_the_same_glossary(corpus, glossary):
    copy = list(parse_glossary_ja(corpus / GLOSSARY_JA, GLOSSARY_JA))
    entries = [g for g in copy if isinstance(g, GlossaryEntry)]
    assert len(entries) == 728 and not [p for p in copy if isinstance(p, IngestProblem) and p.severity == "error"]
    assert entries[0].line == 4 and entries[0].source == GLOSSARY_JA
    assert list(compare_glossaries(glossary, entries)) == []


def test_glossary_differences_are_problems_at_their_line(glossary):
    changed = [replace(g, definition=g.definition + "X", source="wiki.txt", line=9) if g.term == "探す" else g
               for g in glossary]
    problems = list(compare_glossaries(glossary, changed[:-1]))
    assert [(p.source, p.line, p.code) for p in problems] == [
        ("wiki.txt", 9, "glossary-copies-differ"),
        (CR_JA, glossary[-1].line, "glossary-copies-differ"),
        # the copy lacks an entry: said once more at the copy's own last entry
        (CR_JA, max(g.line for g in changed[:-1] if g.source == CR_JA), "glossary-copy-short"),
    ]
    assert "definition differs" in problems[0].message and "not in" in problems[1].message
    assert problems[2].message.startswith("1 of the 728 entries of ")


def test_not_a_japanese_cr_is_one_error():
    (problem,) = list(parse_cr_ja_text("Magic: The Gathering Comprehensive Rules\n100.1. x\n", "x.txt"))
    assert (problem.severity, problem.code, problem.line) == ("error", "not-a-cr", 1)
    assert str(problem).startswith("x.txt:1: error: not parsed as a Japanese Comprehensive Rules release: "
                                   "no 「マジック：ザ・ギャザリング　総合ルール」 heading")


def test_a_wiki_page_without_headings_is_one_error():
    records = list(parse_glossary_ja_text("これは用語集ではない。\n", "p.txt", "20260116"))
    assert [(p.code, p.severity) for p in records] == [("not-a-glossary", "error")]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([
    "マジック：ザ・ギャザリング　総合ルール", "1. ゲームの考え方", "100. 原則", "100.1. 本文。", "100.1a 本文。",
    "例：例文。", "例:", "　続きの段落。", "100.1", "701.23. 701.23. 探す／Search", "720 . 前兆", "用語集",
    "探す（さがす）／Search", "（へや）／Room", "　定義。", "クレジット", "このルールは2026年1月16日から有効です。",
    "", "999.9z x", "7.", "rule 8〔多人数戦〕参照",
]), max_size=40), st.text(max_size=30))
def test_garbage_in_no_crash(lines, noise):
    records = list(parse_cr_ja_text("\n".join(lines + [noise]), "fuzz.txt"))
    assert all(isinstance(r, (Release, Section, Rule, Example, GlossaryEntry, RuleRef, IngestProblem, Heading))
               for r in records)
    numbers = [r.number for r in records if isinstance(r, Rule)]
    assert len(numbers) == len(set(numbers))  # never two rules of one number
