"""Parse an English Comprehensive Rules file into records: ``parse_cr``.

Stages: ``read_source`` decodes the bytes; ``split_document`` finds the
effective date, the contents, the numbered rules, the glossary and the credits;
``iter_rule_items`` turns the rules part into rules, subrules and examples;
``iter_glossary`` does the glossary. Cross-references come from
:mod:`ingest.rule_refs`.

What we do with the source's quirks, and why:

- Releases since 1999 share one shape (``100.1.`` numbered rules, ``100.1a``
  subrules, ``Example:`` paragraphs), but files before 2004 and some after are
  hard-wrapped at about 80-100 columns. A file is taken as hard-wrapped when
  almost no line reaches 130 characters; then an unindented continuation line
  joins the line before with a space, and an indented one starts a new
  paragraph of the same rule.
- Official files have typos in the numbering (``119.1d.`` with a stray period,
  ``606.5`` without its period). The number decides the kind of item, the
  punctuation does not; each such typo is kept as a warning.
- A number that goes backwards is not taken as a new rule: in a hard-wrapped
  file it is a wrapped line that happens to start with a number, so it joins
  the text before (and a warning says so).
- A file that is not a Comprehensive Rules document at all (the 1999 "Rulings
  Summary") yields a single error problem and no release, never a half release.

>>> records = list(parse_cr_text(SAMPLE, "sample.txt"))
>>> [type(r).__name__ for r in records][:5]
['Release', 'Section', 'Section', 'Rule', 'Rule']
>>> [(e.rule_number, e.text) for e in records if type(e).__name__ == "Example"]
[('100.1a', 'See rule 701.23a.')]
>>> [r.number for r in records if type(r).__name__ == "Rule"]
['100', '100.1', '100.1a', '701', '701.23', '701.23a']
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Sequence, Union

from .decoding import lost_characters, read_source
from .records import Example, GlossaryEntry, IngestProblem, Release, Rule, RuleRef, Section, fast_constructor
from .numbering import NumberedItem, apply_numbering
from .rule_refs import find_citations_in

Record = Union[Release, Section, Rule, Example, GlossaryEntry, RuleRef, IngestProblem]

SAMPLE = """Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

Contents

1. Game Concepts
100. General

1. Game Concepts

100. General

100.1. These Magic rules apply to any Magic game.

100.1a A two-player game is a game that begins with only two players.

Example: See rule 701.23a.

7. Additional Rules

701. Keyword Actions

701.23. Search

701.23a To search for a card in a zone, look at all cards in that zone.

Glossary

Search
To look for a card. See rule 701.23, “Search.”

Credits

Someone
"""

_MONTHS = {
    m: i
    for i, m in enumerate(
        "january february march april may june july august september october november december".split(),
        1,
    )
}
_DATE_PHRASE = re.compile(
    r"(?:effective|current|updated)\s+(?:as\s+of\s+)?(?P<month>[A-Z][a-z]+)\s+(?P<day>\d{1,2}),\s+(?P<year>\d{4})"
)
_DATE_SLASH = re.compile(r"COMPREHENSIVE RULES\s+(?P<m>\d\d)/(?P<d>\d\d)/(?P<y>\d\d)\b")

# Patterns run on stripped lines, so they need no trailing-space handling.
_SECTION = re.compile(r"(?P<num>\d)\.\s+(?P<title>\S.*)")
_RULE = re.compile(r"(?P<num>\d{3})\.\s+(?P<title>\S.*)")
# Any numbered item: 701 / 701.23 / 701.23a, with or without its period, and
# the typos "702. 37a" (a space inside the number) and "305.3.After", "901.4.All" (no space
# after the period: a capital or a quote right after it starts the text).
_ITEM_LINE = re.compile(
    r"^(?P<head>\d{3})(?:\.(?P<space> ?)(?P<sub>\d+)(?P<letter>[a-z]?))?(?P<dot>\.?)"
    r"(?P<gap>\s+|(?<=\d\.)(?=[A-Z“\"]))(?P<text>\S.*)"
)
_LETTER_ONLY = re.compile(r"(?P<num>\d{3}\.[a-z])\s+(?P<text>\S.*)")
_DEFINITION_NUMBER = re.compile(r"^\d+\.\s")
# ``Example:``, and in 1999 ``EXAMPLE:`` (then often indented with its rule).
_EXAMPLE = re.compile(r"(?:Examples?|EXAMPLES?):\s*(?P<text>.*)")
_UNDERLINE = re.compile(r"^\s*[-=_]{5,}\s*$")
_FIRST_RULE = re.compile(r"100\.1\.?\s")
_OBSOLETE = re.compile(r"\s*\(Obsolete\)\s*$", re.I)
_ALIAS_SEPARATOR = re.compile(r",\s+")
_HEADING_END = re.compile(r"[.:;?,”\"’'\]]$")
_SENTENCE_END = re.compile(r"[.:;!?,”\"’')\]]$")


# The records a release makes thousands of, made without the frozen __init__'s per-field cost.
_rule = fast_constructor(Rule)
_rule_ref = fast_constructor(RuleRef)
_example = fast_constructor(Example)
_glossary_entry = fast_constructor(GlossaryEntry)


@dataclass
class _Item:
    number: str
    kind: str
    title: str | None
    parts: list[str]
    line: int
    examples: list[tuple[int, list[str]]]
    indent: int = 0  # of the number's line: 1999 indents a subrule and its lines as a block


def find_effective_date(lines: list[str]) -> tuple[str, int] | None:
    """Return (``YYYYMMDD``, line number) of the first effective-date phrase.

    >>> find_effective_date(["", "These rules are effective as of July 11, 2009."])
    ('20090711', 2)
    >>> find_effective_date(["COMPREHENSIVE RULES         04/23/99"])
    ('19990423', 1)
    """
    for i, line in enumerate(lines[:200], 1):
        m = _DATE_PHRASE.search(line)
        if m and m.group("month").lower() in _MONTHS:
            d = dt.date(int(m.group("year")), _MONTHS[m.group("month").lower()], int(m.group("day")))
            return d.strftime("%Y%m%d"), i
        m = _DATE_SLASH.search(line)
        if m:
            year = int(m.group("y"))
            year += 1900 if year > 50 else 2000
            return f"{year}{m.group('m')}{m.group('d')}", i
    return None


@dataclass(frozen=True)
class DocumentParts:
    """Line ranges (0-based, end exclusive) of the parts of a CR document."""

    contents: tuple[int, int]
    rules: tuple[int, int]
    glossary: tuple[int, int] | None
    credits: tuple[int, int] | None


def _find_heading(lines: list[str], start: int, word: str) -> int | None:
    """Index of the first line from ``start`` that is ``word`` alone (any case)."""
    n = len(word)
    for i in range(start, len(lines)):
        line = lines[i]
        if len(line) < n + 8 and line.strip().lower() == word:
            return i
    return None


def split_document(lines: list[str]) -> DocumentParts | None:
    """Find the contents, rules, glossary and credits; ``None`` when there are no rules."""
    first_rule = next(
        (i for i, line in enumerate(lines) if line.startswith("100.1") and _FIRST_RULE.match(line)), None
    )
    if first_rule is None:
        return None
    # The body starts at the section heading above 100.1 (skipping the 100. heading).
    start = first_rule
    for i in range(first_rule - 1, max(first_rule - 15, -1), -1):
        stripped = lines[i].strip()
        if _SECTION.match(stripped):
            start = i
            break
        if stripped and not (_RULE.match(stripped) or _UNDERLINE.match(stripped)):
            break
        if _RULE.match(stripped):
            start = i
    glossary = _find_heading(lines, start, "glossary")
    credits = _find_heading(lines, glossary if glossary is not None else start, "credits")
    rules_end = glossary if glossary is not None else (credits if credits is not None else len(lines))
    return DocumentParts(
        contents=(0, start),
        rules=(start, rules_end),
        glossary=(glossary + 1, credits if credits is not None else len(lines))
        if glossary is not None
        else None,
        credits=(credits + 1, len(lines)) if credits is not None else None,
    )


def is_hard_wrapped(lines: list[str]) -> bool:
    """A hard-wrapped file has (almost) no line of 130 characters or more."""
    return sum(1 for line in lines if len(line) >= 130) <= 5


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join(parts: list[str], line: str, wrapped: bool, base: int = 0, paragraph: bool = False) -> None:
    """Add a continuation ``line`` to ``parts``.

    In a hard-wrapped file a line joins the paragraph before with a space,
    unless it starts a new one: after a blank line (``paragraph``), or
    indented deeper than the item's own first line (``base``). Files of 1999
    indent a subrule and all its lines as a block, later ones indent only a
    paragraph's first line; both read right this way.

    >>> parts = ["If a card"]
    >>> _join(parts, "  instruction requires", True, base=2); parts
    ['If a card instruction requires']
    >>> _join(parts, "     A new paragraph.", True, base=2); parts
    ['If a card instruction requires', 'A new paragraph.']
    """
    text = line.strip()
    if wrapped and parts and not paragraph and _indent(line) <= base:
        parts[-1] = f"{parts[-1].rstrip()} {text}"
    else:
        parts.append(text)


def _looks_like_title(text: str) -> bool:
    """A heading such as ``Search``, ``For Mirrodin!`` or ``∞ (Infinity)``, not a sentence."""
    return len(text) <= 60 and not _HEADING_END.search(text) and not text.endswith(").")


def iter_rule_items(
    lines: list[str], first_line: int, release: str, lang: str, source: str, wrapped: bool
) -> Iterator[Record]:
    """Yield sections, rules, examples and references from the rules part.

    ``first_line`` is the 1-based line number of ``lines[0]`` in the file.
    """
    sections: list[Section] = []
    items: list[_Item] = []
    problems: list[IngestProblem] = []
    current: _Item | None = None
    section_number = ""
    in_example = False

    def problem(line_no: int, severity: str, code: str, message: str) -> None:
        problems.append(IngestProblem(source, line_no, severity, code, message, release, lang))

    previous_text = ""  # the last non-blank line, to tell a wrapped number from a new rule
    blank_before = False  # a blank line before this one: in a hard-wrapped file, a new paragraph
    example_indent = 0
    for offset, raw in enumerate(lines):
        stripped = raw.strip()
        if not stripped or (stripped[0] in "-=_" and _UNDERLINE.match(stripped)):
            previous_text = ""
            blank_before = True
            continue
        line_no = first_line + offset
        after = previous_text
        previous_text = stripped
        paragraph, blank_before = blank_before, False
        first = stripped[0]
        if first.isdigit():
            m = _ITEM_LINE.match(stripped)
            if m:
                head, space, sub, letter, dot, gap, text = m.groups()
                if sub is None and not dot:
                    m = None  # "701 cards" is prose, a rule heading has its period
            if m and wrapped and after and not _SENTENCE_END.search(after) and current is not None:
                # "...see rule\n419.8 "Sources of Damage."": the number wraps a sentence.
                if in_example:
                    _join(current.examples[-1][1], raw, wrapped, example_indent)
                else:
                    _join(current.parts, raw, wrapped, current.indent)
                continue
            if m:
                number = head if sub is None else f"{head}.{sub}{letter}"
                in_example = False
                if space:
                    problem(line_no, "warning", "typo-space-in-number",
                            f"{number} is printed as {head}. {sub}{letter}; parsed as {number}")
                if not gap:
                    problem(line_no, "warning", "typo-no-space",
                            f"{number} is printed with its text glued to it ({stripped[:len(number) + 8]}…); "
                            f"parsed as {number}")
                if sub is None:
                    kind, title, text = "rule", text, ""
                elif letter:
                    kind, title = "subrule", None
                    if dot:
                        problem(line_no, "warning", "typo-subrule-period",
                                f"subrule {number} is printed as {number}. (stray period); parsed as a subrule")
                else:
                    kind = "numbered"
                    if not dot:
                        problem(line_no, "warning", "typo-numbered-period",
                                f"numbered rule {number} is printed without its period; parsed as a numbered rule")
                    title = text if _looks_like_title(text) else None
                    text = "" if title else text
                current = _Item(number, kind, title, [text] if text else [], line_no, [],
                                _indent(raw) if wrapped else 0)
                items.append(current)
                continue
            m_typo = _LETTER_ONLY.match(stripped)
            if m_typo and current is not None:
                # "306.b": a subrule whose number lost its digits; check_numbering may repair it.
                current = _Item(m_typo.group("num"), "subrule", None, [m_typo.group("text")], line_no, [],
                                _indent(raw))
                items.append(current)
                in_example = False
                continue
            m_sec = _SECTION.match(stripped)
            if m_sec and (current is None or current.number[0] != m_sec.group("num")):
                section_number = m_sec.group("num")
                sections.append(Section(release, lang, section_number, m_sec.group("title"),
                                        len(sections) + 1, source, line_no))
                current, in_example = None, False
                continue
        elif first == "E" and current is not None:
            m_ex = _EXAMPLE.match(stripped)
            if m_ex:
                current.examples.append((line_no, [m_ex.group("text")]))
                in_example, example_indent = True, _indent(raw) if wrapped else 0
                continue
        if current is None:
            problem(line_no, "warning", "stray-text", f"text outside any rule skipped: {stripped[:60]!r}")
            continue
        if in_example and wrapped and paragraph:
            in_example = False  # 1999: a paragraph after a blank line goes on with the rule, not the example
        if in_example:
            _join(current.examples[-1][1], raw, wrapped, example_indent, paragraph)
        else:
            _join(current.parts, raw, wrapped, current.indent, paragraph)

    items = apply_numbering(items, problem)
    yield from sections
    yield from iter_item_records(items, {s.number for s in sections}, release, lang, source, problem)
    yield from problems


def iter_item_records(items: Sequence[NumberedItem], known_sections: set[str], release: str, lang: str,
                      source: str, problem: Callable[[int, str, str, str], None]) -> Iterator[Record]:
    """Rules (with their parents), their citations and their examples from parsed items, in order.

    Shared by the English and the Japanese parsers; an item's ``title_en`` is
    taken where it has one.
    """
    texts: list[str] = []
    for item in items:
        texts.append("\n".join(item.parts))
        texts.extend("\n".join(parts) for _line, parts in item.examples)
    cited = iter(find_citations_in(texts))
    text_of = iter(texts)
    for position, item in enumerate(items, 1):
        number, kind = item.number, item.kind
        if kind == "rule":
            parent = number[0]
            if parent not in known_sections:
                problem(item.line, "warning", "missing-section", f"rule {number} has no section {parent} heading")
        elif kind == "numbered":
            parent = number.split(".")[0]
        else:
            parent = number[:-1]
        yield _rule(release, lang, number, kind, parent, item.title, next(text_of),
                    position, source, item.line, getattr(item, "title_en", None))
        for cite in next(cited):
            yield _rule_ref(release, lang, number, "rule", cite.number, cite.kind, cite.cited, source, item.line)
        for seq, (ex_line, _parts) in enumerate(item.examples, 1):
            yield _example(release, lang, number, seq, next(text_of), source, ex_line)
            for cite in next(cited):
                yield _rule_ref(release, lang, number, "example", cite.number, cite.kind, cite.cited, source,
                                ex_line)


def _glossary_aliases(term: str) -> tuple[str, ...]:
    """Split ``Control, Controller`` into aliases; keep ``Active Player, Nonactive Player Order`` whole.

    Parts are aliases when each shares its first three letters with the first part.

    >>> _glossary_aliases("Kicker, Kicked")
    ('Kicker', 'Kicked')
    >>> _glossary_aliases("Active Player, Nonactive Player Order")
    ()
    """
    parts = [p.strip().strip("“”\"").rstrip(",").strip() for p in _ALIAS_SEPARATOR.split(term)]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return ()
    stem = parts[0][:3].lower()
    if all(p[:3].lower() == stem for p in parts):
        return tuple(parts)
    return ()


@dataclass
class _GlossaryDraft:
    line: int
    term: str
    parts: list[str] = field(default_factory=list)
    indent: int = 0  # of the definition's first line (1999 indents every definition)
    opens_list: bool = False


def _next_indent(lines: list[str], offset: int) -> int:
    """Indentation of the first non-blank line after ``lines[offset]``; -1 when there is none."""
    for line in lines[offset + 1:offset + 6]:
        if line.strip():
            return _indent(line)
    return -1


def iter_glossary(
    lines: list[str], first_line: int, release: str, lang: str, source: str, wrapped: bool
) -> Iterator[Record]:
    """Yield glossary entries: a term line after a blank line, then its definition.

    A definition that opens a list (ends with ``:``) may have sub-headings of
    its own, unindented after a blank line like a term, but followed by
    indented items: 2001–2003 list the expansion symbols under "Expansions and
    Editions", "Promotional Cards" and "Social-Play Sets" inside the entry
    "Expansion Symbol". Those stay in the definition.
    """
    entries: list[_GlossaryDraft] = []
    previous_blank = True
    for offset, raw in enumerate(lines):
        stripped = raw.strip()
        if not stripped:
            previous_blank = True
            continue
        if stripped[0] in "-=_" and _UNDERLINE.match(raw):
            continue
        if stripped.lower() == "index":
            break  # early releases end the glossary with an index of terms
        line_no = first_line + offset
        entry = entries[-1] if entries else None
        if previous_blank and not raw[:1].isspace() and not _DEFINITION_NUMBER.match(raw):
            if entry is not None and entry.opens_list and _next_indent(lines, offset) > entry.indent:
                entry.parts.append(stripped)  # a sub-heading of the list
            else:
                entries.append(_GlossaryDraft(line_no, stripped))
        elif entry is not None:
            if not entry.parts:
                entry.indent = _indent(raw)
                entry.parts.append(stripped)
            else:
                _join(entry.parts, raw, wrapped, entry.indent, previous_blank)
            if stripped.endswith(":"):
                entry.opens_list = True
        previous_blank = False
    definitions = ["\n".join(e.parts) for e in entries]
    for entry, definition, cites in zip(entries, definitions, find_citations_in(definitions)):
        heading, line_no = entry.term, entry.line
        obsolete = "(" in heading and _OBSOLETE.search(heading) is not None
        term = _OBSOLETE.sub("", heading) if obsolete else heading
        if not definition:
            yield IngestProblem(source, line_no, "warning", "glossary-no-definition",
                                f"glossary term {term!r} has no definition", release, lang)
        refs = tuple(dict.fromkeys(c.number for c in cites))
        yield _glossary_entry(release, lang, term, definition, source, line_no,
                              _glossary_aliases(term) if "," in term else (), refs, obsolete, None, None)
        for cite in cites:
            yield _rule_ref(release, lang, term, "glossary", cite.number, cite.kind, cite.cited, source, line_no)


def parse_cr_text(text: str, source: str, expected_release: str | None = None) -> Iterator[Record]:
    """Parse decoded CR text (LF line endings). See the module docstring."""
    lines = text.split("\n")
    found = find_effective_date(lines)
    parts = split_document(lines)
    if found is None or parts is None:
        reason = (
            "no numbered rules (no line starting 100.1)" if parts is None else "no effective date found"
        )
        if parts is None and found is None:
            reason = "no effective date and no numbered rules"
        yield IngestProblem(
            source, 1, "error", "not-a-cr",
            f"not parsed as a Comprehensive Rules release: {reason}; first line: {lines[0][:70]!r}",
            expected_release, "en",
        )
        return
    release, date_line = found
    if expected_release and expected_release != release:
        yield IngestProblem(source, date_line, "warning", "date-mismatch",
                            f"file name says {expected_release}, text says effective {release}; using the text",
                            release, "en")
    wrapped = is_hard_wrapped(lines)
    iso = f"{release[:4]}-{release[4:6]}-{release[6:]}"
    yield Release(release, "en", iso, source)
    if parts.credits is None:
        # Every release ends with its glossary and credits: a file without them was cut short.
        last = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip()), 0)
        missing = "no Credits section" if parts.glossary else "no Glossary and no Credits section"
        yield IngestProblem(
            source, last + 1, "error", "truncated",
            f"the file stops before its end ({missing}; its last line is {lines[last].strip()[:60]!r}): "
            "a truncated release is not loaded", release, "en")
    else:
        again = next((i for i in range(parts.credits[0], len(lines))
                      if lines[i].startswith("100.1") and _FIRST_RULE.match(lines[i])), None)
        if again is not None:
            # A second copy appended (a download resumed twice): the first copy is whole, so load it.
            yield IngestProblem(
                source, again + 1, "warning", "repeated-text",
                f"the rules start again after the Credits (line {again + 1}: a second copy appended?); "
                "only the first copy is read", release, "en")
    r0, r1 = parts.rules
    yield from iter_rule_items(lines[r0:r1], r0 + 1, release, "en", source, wrapped)
    if parts.glossary:
        g0, g1 = parts.glossary
        yield from iter_glossary(lines[g0:g1], g0 + 1, release, "en", source, wrapped)
    else:
        yield IngestProblem(source, None, "warning", "no-glossary", "no glossary found", release, "en")


def release_from_filename(name: str) -> str | None:
    """``MagicCompRules 20260116.txt`` → ``20260116``."""
    m = re.search(r"(?<!\d)(\d{8})(?!\d)", name)
    return m.group(1) if m else None


def parse_cr(path: str | Path, display_path: str | None = None) -> Iterator[Record]:
    """Parse one English CR file (plain, gzip, any encoding) into records.

    Raises :class:`~ingest.records.SourceError` when the file cannot be read
    as text; a readable file that is not a CR yields an error problem instead.
    """
    shown = display_path or str(path)
    source = read_source(path, shown)
    yield from parse_cr_text(source.text, shown, release_from_filename(Path(path).name))
    yield from filter(None, [lost_characters(source)])
