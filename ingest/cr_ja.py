"""Parse the Japanese Comprehensive Rules (総合ルール 和訳) into records: ``parse_cr_ja``.

The Japanese file (one paragraph per line, no blank lines) has: header lines
starting with U+3000, もくじ (contents), the body from
「マジック：ザ・ギャザリング　総合ルール」 (0. はじめに, then rules 100–905),
用語集 (glossary) and クレジット (credits) ending with the effective date
(「このルールは2026年1月16日から有効です。」). ``parse_cr_ja`` yields the same
records as :func:`ingest.cr.parse_cr` with ``lang='ja'``, plus a
:class:`Heading` for every numbered heading as printed.

Stages: ``read_source`` decodes; :func:`split_document_ja` finds the parts;
:func:`iter_rule_items_ja` reads the body; the glossary goes through
:func:`ingest.glossary_ja.iter_glossary_lines`; :func:`check_contents`
compares もくじ with the headings of the body.

What we do with the source's quirks, and why:

- Titles print both names, ``701.23. 探す／Search`` (full-width solidus):
  ``Rule.title`` is the Japanese name, ``Rule.title_en`` the English one, and
  a :class:`Heading` keeps the line as printed. A numbered rule is a heading
  when its text is short and has no 。 (``205.2. カード・タイプ`` has no
  English name).
- Numbering typos are repaired and each kept as a warning with file and
  line: a doubled number (``702.189. 702.189. 火の技／Firebending``), a
  numbered rule without its period (``701.68 枯朽を行う``), no space after the
  number (``709.5b共有``, ``702.176.兆候``), a space before the period
  (``720 . 前兆カード``), a number alone on its line with its text on the next
  (``500.10a``). Wrong numbers are repaired as in English
  (:mod:`ingest.numbering`).
- Examples begin ``例：`` or ``例:``; one is printed inline after its rule's
  text (``701.20c ...よい。 例：...``) and becomes an example like the others.
  ``例：`` alone on a line takes the next line as its text (123.6b–c).
- A line starting with U+3000 is another paragraph of the item above (as an
  indented line is in English); the U+3000 indentation is dropped, the text
  is otherwise stored as printed (stray spaces, full-width signs and all;
  :mod:`kb.japanese` normalises a copy for search).
- 0. はじめに is the introduction, front matter as in English (which prints it
  unnumbered): it is not a section and its two paragraphs are not stored.
- The file does not print the translation's revision; the glossary page
  transcribed from the same document calls it 和訳 20260116.0, so
  ``version_label`` is ``<release>.0``.

>>> records = list(parse_cr_ja_text(SAMPLE, "ja.txt"))
>>> [type(r).__name__ for r in records][:4]
['Release', 'Section', 'Section', 'Rule']
>>> [(r.number, r.title, r.title_en) for r in records if isinstance(r, Rule) and r.kind == "numbered"]
[('100.1', None, None), ('701.23', '探す', 'Search')]
>>> [(e.rule_number, e.text) for e in records if isinstance(e, Example)]
[('100.1a', '「探す」はrule 701.23〔探す〕参照。')]
>>> [str(p) for p in records if isinstance(p, IngestProblem)]
['ja.txt:15: warning: 701.23 is printed twice at the start of its line (701.23. 701.23.); read once']
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Union

from .decoding import lost_characters, read_source
from .cr import iter_item_records
from .glossary_ja import iter_glossary_lines
from .numbering import apply_numbering
from .records import Example, GlossaryEntry, IngestProblem, Release, Rule, RuleRef, Section


@dataclass(frozen=True)
class Heading:
    """A heading as printed: a section, a rule or a titled numbered rule (``701.23. 探す／Search``)."""

    release: str
    lang: str
    number: str
    printed: str
    source: str
    line: int


Record = Union[Release, Section, Rule, Example, GlossaryEntry, RuleRef, IngestProblem, Heading]

SAMPLE = """\u3000このルールに関して、英語を正文とし、ウィザーズ・オブ・ザ・コースト社が著作権を持ちます。
もくじ
1. ゲームの考え方
100. 原則
7. 追加ルール
701. キーワード処理
マジック：ザ・ギャザリング\u3000総合ルール
1. ゲームの考え方
100. 原則
100.1. このマジックのルールは、2人以上のプレイヤーによるマジックのゲームに適用される。
100.1a 2人対戦とは、2人で開始されるゲームのことである。
例：「探す」はrule 701.23〔探す〕参照。
7. 追加ルール
701. キーワード処理
701.23. 701.23. 探す／Search
701.23a カードを探すとは、その領域のカードをすべて見ることである。
用語集
探す（さがす）／Search
\u3000rule 701.23〔探す〕参照。
クレジット
このルールは2026年1月16日から有効です。
"""

_BODY_START = re.compile(r"^マジック[：:]\s*ザ・ギャザリング[\s\u3000]*総合ルール\s*$")
_EFFECTIVE = re.compile(r"(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日から有効")
_TRANSLATED = re.compile(r"(?P<y>20\d\d)-(?P<m>\d\d)-(?P<d>\d\d)")
_SECTION = re.compile(r"^(?P<num>\d{1,2})\.\s*(?P<title>\S.*)$")
# 701 / 701.23 / 701.23a; the period may be missing, doubled by a space (720 .)
# or glued to the text (702.176.兆候); the space after the number may be missing.
_ITEM = re.compile(
    r"^(?P<head>\d{3})(?:\.(?P<sub>\d+)(?P<letter>[a-z]?))?(?P<dot>\s?\.)?(?P<space>[ \u3000]*)(?P<text>.*)$"
)
_EXAMPLE = re.compile(r"^例[：:]\s*(?P<text>.*)$")
_INLINE_EXAMPLE = re.compile(r"(?<=。)[ \u3000]*例[：:]\s*")


@dataclass(frozen=True)
class DocumentPartsJa:
    """Line ranges (0-based, end exclusive) of the parts of a Japanese CR document."""

    header: tuple[int, int]
    contents: tuple[int, int]
    rules: tuple[int, int]
    glossary: tuple[int, int] | None
    credits: tuple[int, int] | None


def _find_line(lines: list[str], start: int, wanted: str) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i].strip() == wanted), None)


def split_document_ja(lines: list[str]) -> DocumentPartsJa | None:
    """Find the parts of the Japanese CR; ``None`` when there is no 総合ルール body heading.

    >>> parts = split_document_ja(SAMPLE.split("\\n"))
    >>> parts.contents, parts.rules, parts.glossary, parts.credits
    ((2, 6), (7, 16), (17, 19), (20, 22))
    """
    body = next((i for i, line in enumerate(lines) if _BODY_START.match(line.strip())), None)
    if body is None:
        return None
    contents = _find_line(lines, 0, "もくじ")
    glossary = _find_line(lines, body, "用語集")
    credits = _find_line(lines, glossary if glossary is not None else body, "クレジット")
    rules_end = glossary if glossary is not None else (credits if credits is not None else len(lines))
    return DocumentPartsJa(
        header=(0, contents if contents is not None else body),
        contents=(contents + 1, body) if contents is not None else (body, body),
        rules=(body + 1, rules_end),
        glossary=(glossary + 1, credits if credits is not None else len(lines)) if glossary is not None else None,
        credits=(credits + 1, len(lines)) if credits is not None else None,
    )


def find_effective_date_ja(lines: list[str]) -> tuple[str, int] | None:
    """(``YYYYMMDD``, line) from 「…年…月…日から有効です。」 (near the end), else the header's
    translation date (``2026-01-16 に翻訳``).

    >>> find_effective_date_ja(["x", "このルールは2026年1月16日から有効です。"])
    ('20260116', 2)
    """
    for i in range(len(lines) - 1, -1, -1):
        m = _EFFECTIVE.search(lines[i])
        if m:
            return f"{int(m['y']):04d}{int(m['m']):02d}{int(m['d']):02d}", i + 1
    for i, line in enumerate(lines[:20]):
        m = _TRANSLATED.search(line)
        if m and "翻訳" in line:
            return f"{m['y']}{m['m']}{m['d']}", i + 1
    return None


def split_title(text: str) -> tuple[str, str | None]:
    """``探す／Search`` → (``探す``, ``Search``); a title without ``／`` has no English name.

    >>> split_title("∞（インフィニティ）／Infinity")
    ('∞（インフィニティ）', 'Infinity')
    >>> split_title("カード・タイプ")
    ('カード・タイプ', None)
    """
    ja, slash, en = text.partition("／")
    return (ja.strip(), en.strip()) if slash and en.strip() else (text.strip(), None)


def is_heading_text(text: str) -> bool:
    """A numbered rule's text is its title when it is short and has no sentence in it.

    >>> is_heading_text("探す／Search"), is_heading_text("カード・タイプ")
    (True, True)
    >>> is_heading_text("クリーチャーは攻撃したりブロックしたりできる。")
    False
    """
    return bool(text) and len(text) <= 60 and "。" not in text and not text.endswith(("）", ")"))


@dataclass
class _Item:
    number: str
    kind: str
    title: str | None
    title_en: str | None
    printed: str | None
    parts: list[str]
    line: int
    examples: list[tuple[int, list[str]]] = field(default_factory=list)


def iter_rule_items_ja(
    lines: list[str], first_line: int, release: str, source: str
) -> Iterator[Record]:
    """Yield sections, rules, examples, references and headings from the body.

    ``first_line`` is the 1-based line number of ``lines[0]`` in the file.
    """
    lang = "ja"
    sections: list[Section] = []
    headings: list[Heading] = []
    items: list[_Item] = []
    problems: list[IngestProblem] = []
    current: _Item | None = None
    in_example = False
    in_introduction = False

    def problem(line_no: int, severity: str, code: str, message: str) -> None:
        problems.append(IngestProblem(source, line_no, severity, code, message, release, lang))

    for offset, raw in enumerate(lines):
        line_no = first_line + offset
        stripped = raw.strip().strip("\u3000")
        if not stripped:
            continue
        indented = raw[:1] in ("\u3000", " ", "\t")
        m = _ITEM.match(stripped) if not indented and stripped[0].isdigit() else None
        if m and m.group("sub") is None and not m.group("dot"):
            m = None  # "100枚" is prose; a rule heading has its period
        m_sec = _SECTION.match(stripped) if not indented and stripped[0].isdigit() and not m else None
        if m_sec:
            number, title = m_sec.group("num"), m_sec.group("title").strip()
            current, in_example = None, False
            if number == "0":
                in_introduction = True  # 0. はじめに: front matter, see the module docstring
                continue
            in_introduction = False
            sections.append(Section(release, lang, number, title, len(sections) + 1, source, line_no))
            headings.append(Heading(release, lang, number, stripped, source, line_no))
            continue
        if m:
            in_introduction = False
            head, sub, letter = m.group("head"), m.group("sub"), m.group("letter")
            number = head if sub is None else f"{head}.{sub}{letter}"
            text = m.group("text").strip()
            dot = m.group("dot") or ""
            doubled = re.match(rf"{re.escape(number)}\.?\s*", text)
            if doubled and text != number:
                problem(line_no, "warning", "typo-doubled-number",
                        f"{number} is printed twice at the start of its line ({number}{dot} {doubled.group(0).strip()}); read once")
                text = text[doubled.end():]
            if dot.startswith(" "):
                problem(line_no, "warning", "typo-space-before-period",
                        f"{number} is printed as {number} . (a space before its period); parsed as {number}.")
            if text and not m.group("space"):
                problem(line_no, "warning", "typo-no-space",
                        f"{number} is printed without a space before its text ({stripped[:len(number) + 4]}…)")
            if not text:
                problem(line_no, "warning", "text-on-next-line",
                        f"{number} is alone on its line; its text is taken from the next line")
            in_example = False
            title = title_en = printed = None
            if sub is None:
                kind = "rule"
                title, text, printed = text, "", stripped
            elif letter:
                kind = "subrule"
                if dot:
                    problem(line_no, "warning", "typo-subrule-period",
                            f"subrule {number} is printed as {number}. (stray period); parsed as a subrule")
            else:
                kind = "numbered"
                if not dot:
                    problem(line_no, "warning", "typo-numbered-period",
                            f"numbered rule {number} is printed without its period; parsed as a numbered rule")
                if is_heading_text(text):
                    title, title_en = split_title(text)
                    printed, text = stripped, ""
            inline = _INLINE_EXAMPLE.split(text)
            current = _Item(number, kind, title, title_en, printed, [inline[0]] if inline[0] else [], line_no)
            for ex_text in inline[1:]:
                current.examples.append((line_no, [ex_text]))
                in_example = True
            items.append(current)
            continue
        m_ex = _EXAMPLE.match(stripped) if not indented else None
        if m_ex and current is not None:
            current.examples.append((line_no, [m_ex.group("text")] if m_ex.group("text") else []))
            if not m_ex.group("text"):
                problem(line_no, "warning", "text-on-next-line",
                        f"例： of {current.number} is alone on its line; its text is taken from the next line")
            in_example = True
            continue
        if in_introduction:
            continue
        if current is None:
            problem(line_no, "warning", "stray-text", f"text outside any rule skipped: {stripped[:60]!r}")
            continue
        target = current.examples[-1][1] if in_example else current.parts
        target.append(stripped)

    items = _apply_numbering(items, problem)
    yield from sections
    yield from iter_item_records(items, {s.number for s in sections}, release, lang, source, problem)
    headings.extend(Heading(release, lang, item.number, item.printed, source, item.line)
                    for item in items if item.printed is not None)
    yield from headings
    yield from problems


def _apply_numbering(items: list[_Item], problem) -> list[_Item]:
    """Repair numbering typos (:func:`ingest.numbering.check_numbering`).

    A number printed twice in a row (``505.4.`` on two lines, the second an
    older wording) keeps the first item; the second's text goes into the
    warning. The rest is :func:`ingest.numbering.apply_numbering`, as in English.
    """
    unique: list[_Item] = []
    for item in items:
        before = unique[-1] if unique else None
        if before is not None and item.number == before.number and item.kind != "rule":
            # 505.4 printed twice in a row, in two wordings: the first is kept; renumbering
            # the second would shift every rule after it.
            problem(item.line, "warning", "duplicate-number",
                    f"{item.number} is printed twice in a row (lines {before.line} and {item.line}); "
                    f"the first is kept, the second is not stored: {' '.join(item.parts)!r}")
            continue
        unique.append(item)
    return apply_numbering(unique, problem)


_CONTENTS_ITEM = re.compile(r"^(?P<num>\d{1,3})\.\s*(?P<title>\S.*)$")


def check_contents(
    lines: list[str], first_line: int, headings: list[Heading], release: str, source: str
) -> Iterator[IngestProblem]:
    """A warning for every もくじ line that no body heading matches, and every section or
    rule heading missing from もくじ (0. はじめに and 10. 用語集 name the front matter and
    the glossary, not body headings).

    >>> body = [Heading("20260116", "ja", "100", "100. 原則", "ja.txt", 9)]
    >>> [p.message for p in check_contents(["100. 原則", "101. 黄金律"], 3, body, "20260116", "ja.txt")]
    ['もくじ lists 101. 黄金律, which is not a heading of the rules']
    """
    listed: dict[str, tuple[int, str]] = {}
    for offset, raw in enumerate(lines):
        m = _CONTENTS_ITEM.match(raw.strip())
        if m and m.group("num") not in ("0", "10"):
            listed[m.group("num")] = (first_line + offset, raw.strip())
    in_body = {h.number: h for h in headings if "." not in h.number}
    for number, (line_no, printed) in listed.items():
        heading = in_body.get(number)
        if heading is None:
            yield IngestProblem(source, line_no, "warning", "contents-mismatch",
                                f"もくじ lists {printed}, which is not a heading of the rules", release, "ja")
        elif re.sub(r"\s+", "", heading.printed.replace(" .", ".")) != re.sub(r"\s+", "", printed):
            yield IngestProblem(source, line_no, "warning", "contents-mismatch",
                                f"もくじ lists {printed}; the rules print {heading.printed} (line {heading.line})",
                                release, "ja")
    for number, heading in in_body.items():
        if number not in listed:
            yield IngestProblem(source, heading.line, "warning", "contents-mismatch",
                                f"{heading.printed} is not listed in もくじ", release, "ja")


def parse_cr_ja_text(text: str, source: str) -> Iterator[Record]:
    """Parse decoded Japanese CR text (LF line endings). See the module docstring."""
    lines = text.split("\n")
    found = find_effective_date_ja(lines)
    parts = split_document_ja(lines)
    if found is None or parts is None:
        missing = " and ".join(
            what for what, absent in (("no 「マジック：ザ・ギャザリング　総合ルール」 heading", parts is None),
                                      ("no effective date (…から有効です。)", found is None)) if absent)
        yield IngestProblem(source, 1, "error", "not-a-cr",
                            f"not parsed as a Japanese Comprehensive Rules release: {missing}; "
                            f"first line: {lines[0][:40]!r}", None, "ja")
        return
    release, _ = found
    iso = dt.date(int(release[:4]), int(release[4:6]), int(release[6:])).isoformat()
    yield Release(release, "ja", iso, source, "whole", f"{release}.0")
    last = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip()), 0)
    if parts.credits is None or not _EFFECTIVE.search(lines[last]):
        # The file ends with its credits and the date it takes effect: without them it was cut short.
        yield IngestProblem(source, last + 1, "error", "truncated",
                            f"the file stops before its end (no クレジット and closing 「…から有効です。」; its last "
                            f"line is {lines[last].strip()[:40]!r}): a truncated release is not loaded",
                            release, "ja")
    r0, r1 = parts.rules
    headings: list[Heading] = []
    for record in iter_rule_items_ja(lines[r0:r1], r0 + 1, release, source):
        if isinstance(record, Heading):
            headings.append(record)
        yield record
    c0, c1 = parts.contents
    yield from check_contents(lines[c0:c1], c0 + 1, headings, release, source)
    if parts.glossary:
        g0, g1 = parts.glossary
        yield from iter_glossary_lines(lines[g0:g1], g0 + 1, release, source)
    else:
        yield IngestProblem(source, None, "warning", "no-glossary", "no 用語集 (glossary) found", release, "ja")


def parse_cr_ja(path: str | Path, display_path: str | None = None) -> Iterator[Record]:
    """Parse the Japanese CR file into records (``lang='ja'``); see the module docstring.

    Raises :class:`~ingest.records.SourceError` when the file cannot be read
    as text; a readable file that is not a Japanese CR yields one error problem.
    """
    shown = display_path or str(path)
    decoded = read_source(path, shown)
    yield from parse_cr_ja_text(decoded.text, shown)
    yield from filter(None, [lost_characters(decoded)])
