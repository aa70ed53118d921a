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
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence, Union

from .decoding import read_source
from .records import Example, GlossaryEntry, IngestProblem, Release, Rule, RuleRef, Section
from .numbering import NumberedItem, apply_numbering
from .rule_refs import find_citations

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
# the typos "702. 37a" (a space inside the number) and "901.4.All" (no space
# after the period, 20231117: a capital right after it).
_ITEM_LINE = re.compile(
    r"^(?P<head>\d{3})(?:\.(?P<space> ?)(?P<sub>\d+)(?P<letter>[a-z]?))?(?P<dot>\.?)"
    r"(?P<gap>\s+|(?<=\d\.)(?=[A-Z]))(?P<text>\S.*)"
)
_LETTER_ONLY = re.compile(r"(?P<num>\d{3}\.[a-z])\s+(?P<text>\S.*)")
_DEFINITION_NUMBER = re.compile(r"^\d+\.\s")
_EXAMPLE = re.compile(r"Examples?:\s*(?P<text>.*)")
_UNDERLINE = re.compile(r"^\s*[-=_]{5,}\s*$")
_HEADING_END = re.compile(r"[.:;?,”\"’'\]]$")
_SENTENCE_END = re.compile(r"[.:;!?,”\"’')\]]$")


@dataclass
class _Item:
    number: str
    kind: str
    title: str | None
    parts: list[str]
    line: int
    examples: list[tuple[int, list[str]]]


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
        (i for i, line in enumerate(lines) if re.match(r"^100\.1\.?\s", line)), None
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


def _join(parts: list[str], line: str, wrapped: bool) -> None:
    """Add a continuation ``line`` to ``parts``: wrapped text joins with a space."""
    indented = line[:1].isspace()
    text = line.strip()
    if wrapped and not indented and parts:
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
    for offset, raw in enumerate(lines):
        line_no = first_line + offset
        stripped = raw.strip()
        if not stripped or _UNDERLINE.match(stripped):
            previous_text = ""
            continue
        after = previous_text
        previous_text = stripped
        m = _ITEM_LINE.match(stripped) if stripped[0].isdigit() else None
        if m and m.group("sub") is None and not m.group("dot"):
            m = None  # "701 cards" is prose, a rule heading has its period
        if m and wrapped and after and not _SENTENCE_END.search(after) and current is not None:
            # "...see rule\n419.8 "Sources of Damage."": the number wraps a sentence.
            _join(current.examples[-1][1] if in_example else current.parts, raw, wrapped)
            continue
        if m:
            head, sub, letter = m.group("head"), m.group("sub"), m.group("letter")
            number = head if sub is None else f"{head}.{sub}{letter}"
            in_example = False
            text = m.group("text")
            if m.group("space"):
                problem(line_no, "warning", "typo-space-in-number",
                        f"{number} is printed as {head}. {sub}{letter}; parsed as {number}")
            if not m.group("gap"):
                problem(line_no, "warning", "typo-no-space",
                        f"{number} is printed with no space before its text ({stripped[:12]}…); parsed as {number}")
            if sub is None:
                kind, title, text = "rule", text, ""
            elif letter:
                kind, title = "subrule", None
                if m.group("dot"):
                    problem(line_no, "warning", "typo-subrule-period",
                            f"subrule {number} is printed as {number}. (stray period); parsed as a subrule")
            else:
                kind = "numbered"
                if not m.group("dot"):
                    problem(line_no, "warning", "typo-numbered-period",
                            f"numbered rule {number} is printed without its period; parsed as a numbered rule")
                title = text if _looks_like_title(text) else None
                text = "" if title else text
            current = _Item(number, kind, title, [text] if text else [], line_no, [])
            items.append(current)
            continue
        m_typo = _LETTER_ONLY.match(stripped) if stripped[0].isdigit() else None
        if m_typo and current is not None:
            # "306.b": a subrule whose number lost its digits; check_numbering may repair it.
            current = _Item(m_typo.group("num"), "subrule", None, [m_typo.group("text")], line_no, [])
            items.append(current)
            in_example = False
            continue
        m_sec = _SECTION.match(stripped) if stripped[0].isdigit() else None
        if m_sec and (current is None or current.number[0] != m_sec.group("num")):
            section_number = m_sec.group("num")
            sections.append(Section(release, lang, section_number, m_sec.group("title"),
                                    len(sections) + 1, source, line_no))
            current, in_example = None, False
            continue
        m_ex = _EXAMPLE.match(stripped) if stripped[0] == "E" and not raw[:1].isspace() else None
        if m_ex and current is not None:
            current.examples.append((line_no, [m_ex.group("text")]))
            in_example = True
            continue
        if current is None:
            problem(line_no, "warning", "stray-text", f"text outside any rule skipped: {stripped[:60]!r}")
            continue
        if in_example:
            _join(current.examples[-1][1], raw, wrapped)
        else:
            _join(current.parts, raw, wrapped)

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
    for position, item in enumerate(items, 1):
        if item.kind == "rule":
            parent = item.number[0]
            if parent not in known_sections:
                problem(item.line, "warning", "missing-section",
                        f"rule {item.number} has no section {parent} heading")
        elif item.kind == "numbered":
            parent = item.number.split(".")[0]
        else:
            parent = item.number[:-1]
        text = "\n".join(item.parts)
        yield Rule(release, lang, item.number, item.kind, parent, item.title, text,
                   position, source, item.line, title_en=getattr(item, "title_en", None))
        for cite in find_citations(text):
            yield RuleRef(release, lang, item.number, "rule", cite.number, cite.kind,
                          cite.cited, source, item.line)
        for seq, (ex_line, ex_parts) in enumerate(item.examples, 1):
            ex_text = "\n".join(ex_parts)
            yield Example(release, lang, item.number, seq, ex_text, source, ex_line)
            for cite in find_citations(ex_text):
                yield RuleRef(release, lang, item.number, "example", cite.number, cite.kind,
                              cite.cited, source, ex_line)


def _glossary_aliases(term: str) -> tuple[str, ...]:
    """Split ``Control, Controller`` into aliases; keep ``Active Player, Nonactive Player Order`` whole.

    Parts are aliases when each shares its first three letters with the first part.

    >>> _glossary_aliases("Kicker, Kicked")
    ('Kicker', 'Kicked')
    >>> _glossary_aliases("Active Player, Nonactive Player Order")
    ()
    """
    parts = [p.strip().strip("“”\"").rstrip(",").strip() for p in re.split(r",\s+", term)]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return ()
    stem = parts[0][:3].lower()
    if all(p[:3].lower() == stem for p in parts):
        return tuple(parts)
    return ()


def iter_glossary(
    lines: list[str], first_line: int, release: str, lang: str, source: str, wrapped: bool
) -> Iterator[Record]:
    """Yield glossary entries: a term line after a blank line, then its definition."""
    entries: list[tuple[int, str, list[str]]] = []
    previous_blank = True
    for offset, raw in enumerate(lines):
        line_no = first_line + offset
        if not raw.strip():
            previous_blank = True
            continue
        if _UNDERLINE.match(raw):
            continue
        if raw.strip().lower() == "index":
            break  # early releases end the glossary with an index of terms
        if previous_blank and not raw[:1].isspace() and not _DEFINITION_NUMBER.match(raw):
            entries.append((line_no, raw.strip(), []))
        elif entries:
            if entries[-1][2] or wrapped:
                _join(entries[-1][2], raw, wrapped)
            else:
                entries[-1][2].append(raw.strip())
        previous_blank = False
    for line_no, heading, definition_parts in entries:
        obsolete = bool(re.search(r"\(Obsolete\)\s*$", heading, re.I))
        term = re.sub(r"\s*\(Obsolete\)\s*$", "", heading, flags=re.I)
        definition = "\n".join(definition_parts)
        if not definition:
            yield IngestProblem(source, line_no, "warning", "glossary-no-definition",
                                f"glossary term {term!r} has no definition", release, lang)
        cites = list(find_citations(definition))
        refs = tuple(dict.fromkeys(c.number for c in cites))
        yield GlossaryEntry(release, lang, term, definition, source, line_no,
                            aliases=_glossary_aliases(term), rule_refs=refs, obsolete=obsolete)
        for cite in cites:
            yield RuleRef(release, lang, term, "glossary", cite.number, cite.kind, cite.cited,
                          source, line_no)


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
