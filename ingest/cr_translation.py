"""The parser shared by the translations laid out like the English CR: Chinese and Korean.

The community translations of the Comprehensive Rules (Simplified Chinese,
``ingest.cr_zh``; Korean, ``ingest.cr_ko``) keep the English document's shape:
a title, an effective-date line, an introduction, the contents, the rules as
blank-line separated paragraphs (``1. 游戏概念``, ``100. 总则``, ``100.1. …``,
``100.1a …``), examples after their rule, a glossary and credits. What
differs between them is said by a :class:`TranslationFormat`: the words of the
headings, how the effective date is printed, how an example begins, what a
heading looks like and how a cross-reference is written.

:func:`parse_translation_text` yields the same records as the English parser
(:func:`ingest.cr.parse_cr`), with the language's ``lang``: a
:class:`~ingest.records.Release`, sections, rules (with their titles split
into the translated name and, where the heading prints one, the English name),
examples, glossary entries, references and every problem, each with its file
and line. Headings as printed come as :class:`ingest.cr_ja.Heading` records, as
for Japanese. Numbering typos are repaired as in English
(:mod:`ingest.numbering`); a doubled number keeps both texts.

Cross-references: the number patterns of :func:`ingest.rule_refs.find_citations`
(``rule 504``, a bare ``701.23a``) plus the language's own words, which
:attr:`TranslationFormat.citation_words` maps to English ones before the
numbers are read (``规则717`` reads as ``rule 717``, ``第8章`` as ``section 8``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterator, Pattern

from .cr import iter_item_records
from .cr_ja import Heading
from .numbering import apply_numbering
from .records import Example, GlossaryEntry, IngestProblem, Release, Rule, RuleRef, Section
from .rule_refs import Citation, find_citations

Record = Rule | Section | Example | GlossaryEntry | RuleRef | IngestProblem | Release | Heading


@dataclass(frozen=True)
class TranslationFormat:
    """What one translation prints differently from the English CR.

    ``effective_date`` matches the date line with groups ``y``, ``m``, ``d``;
    ``contents``, ``glossary`` and ``credits`` are the headings alone on their
    line; ``example`` matches the start of an example paragraph (its text in
    group ``text``); ``is_title`` says whether a numbered rule's text is its
    heading; ``split_title`` turns a heading into (translated name, English
    name or None); ``citation_words`` are (pattern, function) pairs: each match
    is rewritten in English by its function and read by
    :func:`ingest.rule_refs.find_citations`;
    ``omitted`` marks a part the source leaves out (``<생략>``).
    """

    lang: str
    name: str  # for messages: "Chinese", "Korean"
    effective_date: Pattern[str]
    contents: str
    glossary: str
    credits: str | None
    example: Pattern[str]
    is_title: Callable[[str], bool]
    split_title: Callable[[str], tuple[str, str | None]]
    citation_words: tuple[tuple[Pattern[str], Callable[[re.Match[str]], str]], ...] = ()
    obsolete: Pattern[str] | None = None
    omitted: Pattern[str] | None = None
    sample: str = field(default="", repr=False)


_SECTION = re.compile(r"^(?P<num>\d)\.\s*(?P<title>\S.*)$")
# 701 / 701.23 / 701.23a; a numbered rule has its period (100.1.), a rule too (100.).
_ITEM = re.compile(
    r"^(?P<head>\d{3})(?:\.(?P<sub>\d+)(?P<letter>[a-z]?))?(?P<dot>\.?)(?P<space>\s*)(?P<text>.*)$"
)


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


def find_effective_date(lines: list[str], fmt: TranslationFormat) -> tuple[str, int] | None:
    """(``YYYYMMDD``, line) of the first effective-date line.

    >>> from ingest.cr_zh import CHINESE
    >>> find_effective_date(["万智牌完整规则", "", "此规则于2026年4月17日起生效。"], CHINESE)
    ('20260417', 3)
    """
    for i, line in enumerate(lines):
        m = fmt.effective_date.search(line)
        if m:
            return f"{int(m['y']):04d}{int(m['m']):02d}{int(m['d']):02d}", i + 1
    return None


@dataclass(frozen=True)
class TranslationParts:
    """Line ranges (0-based, end exclusive) of the parts of a translated CR."""

    contents: tuple[int, int]
    rules: tuple[int, int]
    glossary: tuple[int, int] | None
    credits: tuple[int, int] | None


def split_translation(lines: list[str], fmt: TranslationFormat) -> TranslationParts | None:
    """Find the contents, rules, glossary and credits; ``None`` when there is no rule 100.1.

    The body starts at the section heading above the first ``100.1.``; the
    glossary and credits headings are looked for after it (the contents list
    them too).
    """
    first_rule = next((i for i, line in enumerate(lines) if re.match(r"^100\.1\.\s*\S", line.strip())), None)
    if first_rule is None:
        return None
    start = first_rule
    for i in range(first_rule - 1, max(first_rule - 8, -1), -1):
        stripped = lines[i].strip()
        if _SECTION.match(stripped):
            start = i
            break
    contents = next((i for i in range(start) if lines[i].strip() == fmt.contents), None)
    glossary = next((i for i in range(start, len(lines)) if lines[i].strip() == fmt.glossary), None)
    credits = None
    if fmt.credits:
        credits = next((i for i in range(glossary if glossary is not None else start, len(lines))
                        if lines[i].strip() == fmt.credits), None)
    rules_end = glossary if glossary is not None else (credits if credits is not None else len(lines))
    return TranslationParts(
        contents=(contents + 1 if contents is not None else 0, start),
        rules=(start, rules_end),
        glossary=(glossary + 1, credits if credits is not None else len(lines)) if glossary is not None else None,
        credits=(credits + 1, len(lines)) if credits is not None else None,
    )


def find_translated_citations(text: str, fmt: TranslationFormat) -> list[Citation]:
    """The rules and sections ``text`` cites, in the translation's words and in English ones.

    Each match of a language pattern is read in English; its ``cited`` is the
    text as printed. Numbers a language pattern took are not read again.

    >>> from ingest.cr_zh import CHINESE
    >>> [(c.number, c.kind, c.cited) for c in find_translated_citations("参见规则717，“景点牌”；以及第8章。", CHINESE)]
    [('717', 'rule', '规则717'), ('8', 'section', '第8章')]
    """
    found: list[Citation] = []
    covered: list[tuple[int, int]] = []
    for pattern, replacement in fmt.citation_words:
        for m in pattern.finditer(text):
            english = replacement(m)
            for cite in find_citations(english):
                found.append(Citation(cite.number, cite.kind, m.group(0).rstrip("，,、 "), m.start()))
            covered.append((m.start(), m.end()))
    for cite in find_citations(text):
        if not any(a <= cite.start < b for a, b in covered):
            found.append(cite)
    found.sort(key=lambda c: c.start)
    return found


def iter_translated_rules(lines: list[str], first_line: int, release: str, source: str,
                          fmt: TranslationFormat) -> Iterator[Record]:
    """Sections, rules, examples, references and headings from the rules part.

    ``first_line`` is the 1-based line number of ``lines[0]`` in the file.
    """
    lang = fmt.lang
    sections: list[Section] = []
    headings: list[Heading] = []
    items: list[_Item] = []
    problems: list[IngestProblem] = []
    current: _Item | None = None
    in_example = False

    def problem(line_no: int, severity: str, code: str, message: str) -> None:
        problems.append(IngestProblem(source, line_no, severity, code, message, release, lang))

    for offset, raw in enumerate(lines):
        line_no = first_line + offset
        stripped = raw.strip().strip("\u3000")
        if not stripped:
            continue
        m = _ITEM.match(stripped) if stripped[0].isdigit() else None
        if m and m.group("sub") is None and not m.group("dot"):
            m = None  # "100张" is prose; a rule heading has its period
        if m and m.group("sub") is None and not m.group("text"):
            m = None
        m_sec = _SECTION.match(stripped) if stripped[0].isdigit() and not m else None
        if m_sec and (current is None or current.number[0] != m_sec.group("num")):
            number = m_sec.group("num")
            title, _ = fmt.split_title(m_sec.group("title").strip())
            sections.append(Section(release, lang, number, title, len(sections) + 1, source, line_no))
            headings.append(Heading(release, lang, number, stripped, source, line_no))
            current, in_example = None, False
            continue
        if m:
            head, sub, letter = m.group("head"), m.group("sub"), m.group("letter")
            number = head if sub is None else f"{head}.{sub}{letter}"
            text = m.group("text").strip()
            in_example = False
            title = title_en = printed = None
            if text and not m.group("space") and not (sub is not None and not letter and m.group("dot")):
                problem(line_no, "warning", "typo-no-space",
                        f"{number} is printed without a space before its text ({stripped[:len(number) + 4]}…)")
            if sub is None:
                kind = "rule"
                title, title_en = fmt.split_title(text)
                printed, text = stripped, ""
            elif letter:
                kind = "subrule"
                if m.group("dot"):
                    problem(line_no, "warning", "typo-subrule-period",
                            f"subrule {number} is printed as {number}. (stray period); parsed as a subrule")
            else:
                kind = "numbered"
                if not m.group("dot"):
                    problem(line_no, "warning", "typo-numbered-period",
                            f"numbered rule {number} is printed without its period; parsed as a numbered rule")
                if fmt.is_title(text):
                    title, title_en = fmt.split_title(text)
                    printed, text = stripped, ""
            current = _Item(number, kind, title, title_en, printed, [text] if text else [], line_no)
            items.append(current)
            continue
        m_ex = fmt.example.match(stripped)
        if m_ex and current is not None:
            if m_ex.groupdict().get("odd"):
                problem(line_no, "warning", "example-punctuation",
                        f"an example of {current.number} begins {stripped[:m_ex.end('odd')]!r} "
                        "instead of with a colon; read as an example")
            current.examples.append((line_no, [m_ex.group("text").strip()]))
            in_example = True
            continue
        if current is None:
            problem(line_no, "warning", "stray-text", f"text outside any rule skipped: {stripped[:60]!r}")
            continue
        (current.examples[-1][1] if in_example else current.parts).append(stripped)

    items = _apply_numbering(items, problem)
    yield from sections
    for record in iter_item_records(items, {s.number for s in sections}, release, lang, source, problem):
        if isinstance(record, RuleRef):
            continue  # found again below with the language's citation words
        yield record
        if isinstance(record, (Rule, Example)):
            number = record.number if isinstance(record, Rule) else record.rule_number
            kind = "rule" if isinstance(record, Rule) else "example"
            for cite in find_translated_citations(record.text, fmt):
                yield RuleRef(release, lang, number, kind, cite.number, cite.kind, cite.cited,
                              source, record.line)
    headings.extend(Heading(release, lang, item.number, item.printed, source, item.line)
                    for item in items if item.printed is not None)
    yield from headings
    yield from problems


def _apply_numbering(items: list[_Item], problem: Callable[[int, str, str, str], None]) -> list[_Item]:
    """Repair numbering typos as in English (:func:`ingest.numbering.apply_numbering`)."""
    return apply_numbering(items, problem)


def iter_translated_glossary(lines: list[str], first_line: int, release: str, source: str,
                             fmt: TranslationFormat) -> Iterator[Record]:
    """Glossary entries: blocks separated by blank lines, the term on the first line."""
    blocks: list[tuple[int, list[str]]] = []
    previous_blank = True
    for offset, raw in enumerate(lines):
        stripped = raw.strip()
        if not stripped:
            previous_blank = True
            continue
        if previous_blank or not blocks:
            blocks.append((first_line + offset, [stripped]))
        else:
            blocks[-1][1].append(stripped)
        previous_blank = False
    for line_no, block in blocks:
        heading, definition = block[0], "\n".join(block[1:])
        obsolete = bool(fmt.obsolete and fmt.obsolete.search(heading))
        term = fmt.obsolete.sub("", heading).strip() if fmt.obsolete and obsolete else heading
        if not definition:
            yield IngestProblem(source, line_no, "warning", "glossary-no-definition",
                                f"glossary term {term!r} has no definition", release, fmt.lang)
        cites = find_translated_citations(definition, fmt)
        refs = tuple(dict.fromkeys(c.number for c in cites))
        yield GlossaryEntry(release, fmt.lang, term, definition, source, line_no, rule_refs=refs,
                            obsolete=obsolete)
        for cite in cites:
            yield RuleRef(release, fmt.lang, term, "glossary", cite.number, cite.kind, cite.cited, source, line_no)


def parse_translation_text(text: str, source: str, fmt: TranslationFormat) -> Iterator[Record]:
    """Parse a decoded translated CR (LF line endings); see the module docstring."""
    lines = text.split("\n")
    found = find_effective_date(lines[:40], fmt) or find_effective_date(lines, fmt)
    parts = split_translation(lines, fmt)
    if found is None or parts is None:
        missing = " and ".join(what for what, absent in (("no rule 100.1", parts is None),
                                                         ("no effective date", found is None)) if absent)
        yield IngestProblem(source, 1, "error", "not-a-cr",
                            f"not parsed as a {fmt.name} Comprehensive Rules release: {missing}; "
                            f"first line: {lines[0][:40]!r}", None, fmt.lang)
        return
    release, _ = found
    yield Release(release, fmt.lang, f"{release[:4]}-{release[4:6]}-{release[6:]}", source)
    # A whole translation ends with its glossary heading and, where it has one, its credits
    # heading: a file without them was cut short (loading it would drop half the rules).
    missing = (f"no {fmt.glossary} heading" if parts.glossary is None else
               f"no {fmt.credits} heading" if fmt.credits and parts.credits is None else None)
    if missing:
        last = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip()), 0)
        yield IngestProblem(source, last + 1, "error", "truncated",
                            f"the file stops before its end ({missing}; its last line is "
                            f"{lines[last].strip()[:40]!r}): a truncated release is not loaded", release, fmt.lang)
    r0, r1 = parts.rules
    yield from iter_translated_rules(lines[r0:r1], r0 + 1, release, source, fmt)
    if parts.glossary is None:
        yield IngestProblem(source, None, "warning", "no-glossary",
                            f"no glossary heading ({fmt.glossary}) found", release, fmt.lang)
        return
    g0, g1 = parts.glossary
    body = [line for line in lines[g0:g1] if line.strip()]
    if fmt.omitted and body and fmt.omitted.match(body[0].strip()):
        yield IngestProblem(source, g0, "warning", "glossary-omitted",
                            f"the source omits its glossary ({fmt.glossary} {body[0].strip()})", release, fmt.lang)
        return
    yield from iter_translated_glossary(lines[g0:g1], g0 + 1, release, source, fmt)
