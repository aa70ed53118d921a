"""The Chinese (3 releases) and Korean (1) CR aligned with the English release of the same date.

As for Japanese (tests/test_alignment.py): every numbered item and example of
the English release must have its counterpart by (release, number) and by
(rule number, example seq); the exceptions are listed here with their
reasons, and a new one fails the test until it is understood.
"""

from __future__ import annotations

import pytest
import sqlite_utils

from ingest.cr import parse_cr
from ingest.cr_ko import parse_cr_ko
from ingest.cr_zh import parse_cr_zh
from ingest.records import Example, GlossaryEntry, IngestProblem, Rule, Section

ENGLISH = {
    "20211119": "cr/en/archive/MagicCompRules_20211119.txt.gz",
    "20231117": "cr/en/MagicCompRules_20231117.txt",
    "20260116": "cr/en/MagicCompRules_20260116.txt",
    "20260417": "cr/en/MagicCompRules_20260417.txt",
}
TRANSLATIONS = {
    ("zh", "20231117"): "cr/zh/MagicCompRules_zh-Hans_20231117.txt",
    ("zh", "20260116"): "cr/zh/MagicCompRules_zh-Hans_20260116.txt",
    ("zh", "20260417"): "cr/zh/MagicCompRules_zh-Hans_20260417.txt",
    ("ko", "20211119"): "cr/ko/MagicCompRules_KR_20211119.txt",
}
# (sections, rules, numbered rules, subrules, examples, glossary entries) as parsed.
COUNTS = {
    ("zh", "20231117"): (9, 142, 1100, 1799, 276, 668),
    ("zh", "20260116"): (9, 146, 1157, 1957, 276, 725),
    ("zh", "20260417"): (9, 147, 1165, 1973, 277, 730),
    ("ko", "20211119"): (9, 137, 1024, 1593, 265, 0),  # the source omits its glossary
}
# English items without a counterpart of the same number, and the reverse.
MISSING_IN_TRANSLATION: dict[tuple[str, str], dict] = {
    ("zh", "20231117"): {}, ("zh", "20260116"): {}, ("zh", "20260417"): {}, ("ko", "20211119"): {},
}
# (The English 20231117 prints "901.4.All plane…" with no space: read as text of 901.3a until
# ingest/cr.py took a capital right after the period as the start of the text; see below.)
ONLY_IN_TRANSLATION: dict[tuple[str, str], dict] = {
    ("zh", "20231117"): {}, ("zh", "20260116"): {}, ("zh", "20260417"): {}, ("ko", "20211119"): {},
}
# What the parsers repaired in the translations, each a warning with its line.
REPAIRS = {
    ("zh", "20231117"): [],
    ("zh", "20260116"): [(707, "example-punctuation")],  # 111.11: 例如， (a comma) for 例如：
    ("zh", "20260417"): [(710, "example-punctuation")],
    ("ko", "20211119"): [
        (234, "typo-number"),  # 101.4d printed twice: the second is 101.4e
        (1052, "typo-number"),  # 120.4c printed twice: the second is 120.4d
        (1457, "typo-no-space"),  # 302.4b생물의
        (2192, "typo-numbered-period"), (2470, "typo-numbered-period"),  # 513.2 and 606.5 without their period
        (4099, "typo-numbered-period"), (4099, "typo-number"),  # 702.86 for 702.86b
        (5973, "glossary-omitted"),  # 용어사전 <생략>
    ],
}
# Chinese glossary entries with no English partner (the glossaries pair in order and by citations).
GLOSSARY_UNPAIRED = {
    "20231117": set(), "20260116": set(),
    "20260417": {
        ("Basic Landcycling", None), (None, "循环基本地"),  # cites no rule, sorted elsewhere in Chinese
        ("Two-Headed Giant Variant", None), (None, "双头巨人玩法"),  # the Chinese cites 801 for 810
    },
}


def _items(records) -> dict:
    out = {}
    for r in records:
        if isinstance(r, Section):
            out[r.number] = ("section", r)
        elif isinstance(r, Rule):
            out[r.number] = (r.kind, r)
        elif isinstance(r, Example):
            out[(r.rule_number, r.seq)] = ("example", r)
    return out


@pytest.fixture(scope="module")
def parsed(corpus):
    english = {release: list(parse_cr(corpus / path, path)) for release, path in ENGLISH.items()}
    translated = {}
    for (lang, release), path in TRANSLATIONS.items():
        parse = parse_cr_zh if lang == "zh" else parse_cr_ko
        translated[(lang, release)] = list(parse(corpus / path, path))
    return english, translated


@pytest.mark.parametrize("key", list(TRANSLATIONS))
def test_structure_counts(parsed, key):
    _, translated = parsed
    records = translated[key]
    rules = [r for r in records if isinstance(r, Rule)]
    counts = (sum(isinstance(r, Section) for r in records), sum(r.kind == "rule" for r in rules),
              sum(r.kind == "numbered" for r in rules), sum(r.kind == "subrule" for r in rules),
              sum(isinstance(r, Example) for r in records), sum(isinstance(r, GlossaryEntry) for r in records))
    assert counts == COUNTS[key]
    assert {r.release for r in rules} == {key[1]} and {r.lang for r in rules} == {key[0]}


@pytest.mark.parametrize("key", list(TRANSLATIONS))
def test_every_english_item_has_its_counterpart(parsed, key):
    english, translated = parsed
    en, tr = _items(english[key[1]]), _items(translated[key])
    assert {k for k in en if k not in tr} == set(MISSING_IN_TRANSLATION[key])
    assert {k for k in tr if k not in en} == set(ONLY_IN_TRANSLATION[key])
    assert [k for k in en if k in tr and en[k][0] != tr[k][0]] == []  # a pair is of one kind


@pytest.mark.parametrize("key", list(TRANSLATIONS))
def test_every_repair_is_known(parsed, key):
    _, translated = parsed
    problems = sorted((p.line, p.code) for p in translated[key] if isinstance(p, IngestProblem))
    assert problems == sorted(REPAIRS[key])
    assert not [p for p in translated[key] if isinstance(p, IngestProblem) and p.severity == "error"]


def test_headings_keep_both_names_where_printed(parsed):
    _, translated = parsed
    ko = {r.number: r for r in translated[("ko", "20211119")] if isinstance(r, Rule)}
    assert (ko["701.19"].title, ko["701.19"].title_en) == ("찾기", "Search")
    assert (ko["701.9"].title, ko["701.9"].title_en) == ("두 배로 하다", "Double")  # printed 두 배로 하다Double
    assert (ko["701.22"].title, ko["701.22"].title_en) == ("Fateseal", "Fateseal")  # not translated
    zh = {r.number: r for r in translated[("zh", "20260417")] if isinstance(r, Rule)}
    assert (zh["701.57"].title, zh["701.57"].title_en) == ("倾探", None)
    assert zh["205.2"].title == "牌张类别" and zh["113.1"].title is None  # 异能为以下三者之一： is a sentence


def test_cross_references_in_chinese_and_korean(parsed):
    _, translated = parsed
    from ingest.records import RuleRef

    zh = [r for r in translated[("zh", "20260417")] if isinstance(r, RuleRef)]
    cited = {(r.from_number, r.to_number, r.cited) for r in zh}
    assert ("100.2d", "717", "规则717") in cited  # 参见规则717，“景点牌”
    assert ("100.1b", "8", "第8章") in cited
    # 规则601.2b与规则601.2f-h: a list of two, the second a range
    assert {r.to_number for r in zh if r.from_number == "702.27a"} == {"601.2b", "601.2f", "601.2g", "601.2h"}
    ko = [r for r in translated[("ko", "20211119")] if isinstance(r, RuleRef)]
    assert ("103.7a", "504", "rule 504") in {(r.from_number, r.to_number, r.cited) for r in ko}


def test_rule_alignment_in_the_database(kb_db):
    rows = {(r["lang"], r["release"], r["paired_by"]): r["n"] for r in kb_db.query(
        "select lang, release, paired_by, count(*) as n from rule_alignment group by 1, 2, 3")}
    assert rows[("zh", "20260417", "number")] == 147 + 1165 + 1973  # every rule, numbered rule and subrule
    assert rows[("ko", "20211119", "number")] == 2754
    assert not any(paired_by is None for lang, _release, paired_by in rows if lang in ("zh", "ko"))
    # The Japanese 20260116 still prints 805.10f (damage assignment order, removed from English in
    # 20241108): its 805.10g is the English 805.10f, found by the rule both cite (510.1).
    ja = {r["number"]: (r["number_en"], r["paired_by"]) for r in kb_db.query(
        "select * from rule_alignment where lang = 'ja' and paired_by is not 'number'")}
    assert ja == {"805.10f": (None, None), "805.10g": ("805.10f", "citations")}


def test_glossary_translations(kb_db):
    for release, unpaired in GLOSSARY_UNPAIRED.items():
        rows = list(kb_db.query("select * from glossary_translations where lang = 'zh' and release = ?", [release]))
        assert {(r["term_en"], r["term"]) for r in rows if r["paired_by"] is None} == unpaired
        assert sum(r["term"] is not None for r in rows) == COUNTS[("zh", release)][5]
    pair = next(kb_db.query("select * from glossary_translations where release = '20260417' and term_en = 'Graveyard'"))
    assert pair["term"] == "坟墓场"


def test_keyword_translations(kb_db):
    names = {(r["lang"], r["name_en"], r["name"]) for r in kb_db.query(
        "select * from keyword_translations where release in ('20260417', '20211119')")}
    assert ("zh", "Discover", "倾探") in names and ("zh", "Search", "搜寻") in names
    assert ("ko", "Search", "찾기") in names and ("ko", "Explore", "탐험") in names
    assert not any("[" in en for _, en, _ in names)


def test_translation_releases_are_recorded(kb_db):
    rows = {(r["lang"], r["release"]): r for r in kb_db.query("select * from releases where lang in ('zh', 'ko')")}
    assert set(rows) == set(TRANSLATIONS)
    for key, (sections, rules, numbered, subrules, examples, glossary) in COUNTS.items():
        row = rows[key]
        assert (row["sections"], row["rules"], row["numbered_rules"], row["subrules"], row["examples"],
                row["glossary_entries"]) == (sections, rules, numbered, subrules, examples, glossary)
    # Every Chinese citation resolves within its release; five Korean ones do not (the
    # translation cites numbers of an older release).
    unresolved = dict(kb_db.execute("select lang, sum(resolved = 0) from rule_references"
                                    " where lang in ('zh', 'ko') group by lang").fetchall())
    assert unresolved == {"zh": 0, "ko": 5}


def test_english_901_4_printed_with_no_space_is_its_own_rule(corpus):
    """Found by the Chinese alignment: 13 English releases (20221007–20250207) print
    ``901.4.All plane and phenomenon cards…``; it is 901.4, not the end of 901.3a."""
    path = corpus / "cr" / "en" / "MagicCompRules_20231117.txt"
    lines = path.read_text(encoding="utf-8-sig").split("\n")
    line = next(i for i, text in enumerate(lines, 1) if text.startswith("901.4.All"))
    records = list(parse_cr(path, "cr/en/MagicCompRules_20231117.txt"))
    rules = {r.number: r for r in records if isinstance(r, Rule)}
    assert rules["901.4"].kind == "numbered" and rules["901.4"].text.startswith("All plane and phenomenon cards")
    assert rules["901.4"].line == line
    assert rules["901.3a"].text.endswith("The other faces are blank.")
    problems = [p for p in records if isinstance(p, IngestProblem) and p.code == "typo-no-space"]
    assert [(p.line, p.severity) for p in problems] == [(line, "warning")]
