"""Find the rule numbers a text cites: ``rule 608.2d``, ``rules 701.23a–c``, ``section 7``.

Works on English and Japanese text alike. The Japanese CR writes
``rule 701.19〔再生する〕参照``, bare ``700.13. 参照``, a section as
``rule 8〔多人数戦ルール〕``, a bare rule as ``727〔…〕`` or ``(719 参照)`` and ranges with a
full-width tilde (``601.2f～h``) or a bare number (``119.9-10``).

>>> [c.number for c in find_citations("See rules 701.23a–c and rule 608.2d.")]
['701.23a', '701.23b', '701.23c', '608.2d']
>>> [c.number for c in find_citations("see section 7, “Additional Rules”")]
['7']
>>> [(c.number, c.kind) for c in find_citations("rule 701.19〔再生する〕参照")]
[('701.19', 'rule')]
>>> [c.number for c in find_citations("rules 701.19–701.22")]
['701.19', '701.20', '701.21', '701.22']
>>> [(c.number, c.kind) for c in find_citations("rule 8〔多人数戦ルール〕、708〔裏向きの呪文〕参照、(719 参照)")]
[('8', 'section'), ('708', 'rule'), ('719', 'rule')]
>>> [c.number for c in find_citations("rule 601.2bとrule 601.2f～h、rule 119.9-10")]
['601.2b', '601.2f', '601.2g', '601.2h', '119.9', '119.10']
"""

from __future__ import annotations

import bisect
import itertools
import re
from typing import Iterator, NamedTuple, Sequence

# Subrule letters skip "l" and "o" (they look like 1 and 0).
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"

_NUM = r"\d{3}(?:\.\d+[a-z]?)?"
_DASH = r"\s*(?:–|—|-|−|~|〜|～|through|to)\s*"
# One cited item: a number, optionally a range to a number or to a bare letter.
_ITEM = rf"{_NUM}(?:{_DASH}(?:{_NUM}|[a-z](?![A-Za-z])|\d{{1,2}}(?![\d.])))?"
_LIST_SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*、\s*|\s*および\s*|\s*と\s*)"
_RULE_LIST = re.compile(
    rf"(?<![A-Za-z])(?P<word>rules?|Rules?)\s+(?P<list>{_ITEM}(?:{_LIST_SEP}{_ITEM})*)"
)
_SECTION_LIST = re.compile(r"\b(?P<word>sections?|Sections?)\s+(?P<list>\d(?:\s*(?:,|and|or)\s*\d)*)\b")
# A bare "701.23a" is unambiguous (no prose number looks like it); a bare "701" is not.
_BARE = re.compile(r"(?<![\d.])(?P<num>\d{3}\.\d+[a-z]?)(?![\d])")
_ITEM_RE = re.compile(rf"(?P<start>{_NUM})(?:{_DASH}(?P<end>{_NUM}|[a-z](?![A-Za-z])|\d{{1,2}}(?![\d.])))?")
# Japanese: "rule 8〔多人数戦ルール〕" cites a section; "708〔…〕" a rule without the word "rule".
_JA_SECTION = re.compile(r"(?<![A-Za-z])(?P<word>rule)\s+(?P<num>\d)〔")
_JA_BARE_RULE = re.compile(r"(?P<num>\d{3})[ \u3000]*$")
# Python's re has no fast scan for a pattern that starts with \b or a class, so
# we scan for literal anchors ("ule", "ection", ".<digit>", "〔", "参照") and try
# the full patterns only where one is found. Each anchor is its own pattern: one
# that starts with a literal gets sre's fast literal search, where an alternation
# is tried at every character (twenty times slower). Short texts are scanned
# together (:func:`find_citations_in`): a scan call costs more than its
# characters.
_ANCHOR_PATTERNS = (re.compile("ule"), re.compile("ection"), re.compile(r"\.\d"), re.compile("〔"),
                    re.compile("参照"))
_ANCHOR = re.compile(r"ule|ection|\.\d|〔|参照")
# Cheap checks before the full patterns: a "rule"/"section" anchor only matters
# when a number follows the word.
_RULE_START = re.compile(r"[Rr]ules?\s+\d")
_SECTION_START = re.compile(r"[Ss]ections?\s+\d")


class Citation(NamedTuple):
    """A number cited in text: ``kind`` is ``rule`` or ``section``; ``cited`` is the text matched.

    A named tuple: a release has thousands, and they are made as text is parsed.
    """

    number: str
    kind: str
    cited: str
    start: int


def rule_kind(number: str) -> str:
    """Say what a CR number names.

    >>> [rule_kind(n) for n in ("7", "701", "701.23", "701.23a")]
    ['section', 'rule', 'numbered', 'subrule']
    """
    if re.fullmatch(r"\d", number):
        return "section"
    if re.fullmatch(r"\d{3}", number):
        return "rule"
    if re.fullmatch(r"\d{3}\.\d+", number):
        return "numbered"
    if re.fullmatch(r"\d{3}\.\d+[a-z]", number):
        return "subrule"
    raise ValueError(f"not a Comprehensive Rules number: {number!r}")


def parent_number(number: str) -> str:
    """The number one level up: 701.23a → 701.23 → 701 → 7.

    >>> parent_number("701.23a"), parent_number("701.23"), parent_number("701")
    ('701.23', '701', '7')
    """
    kind = rule_kind(number)
    if kind == "subrule":
        return number[:-1]
    if kind == "numbered":
        return number.split(".")[0]
    if kind == "rule":
        return number[0]
    return ""


def rule_sort_key(number: str) -> tuple[int, int, int, str] | tuple[int, str]:
    """Sort CR numbers in document order (701.9 before 701.10, 704.5k before 704.5m).

    >>> sorted(["701.10", "701.9a", "701.9", "7", "701"], key=rule_sort_key)
    ['7', '701', '701.9', '701.9a', '701.10']
    """
    m = re.fullmatch(r"(\d)(\d\d)?(?:\.(\d+)([a-z]?))?", number)
    if not m:
        return (99, number)
    section, rest, numbered, letter = m.groups()
    return (
        int(section),
        -1 if rest is None else int(rest),
        -1 if numbered is None else int(numbered),
        letter or "",
    )


def _expand(start: str, end: str | None) -> list[str]:
    if not end:
        return [start]
    if end.isdigit() and rule_kind(start) == "numbered":  # 119.9-10
        end = f"{start.split('.')[0]}.{end}"
    if len(end) == 1 and end.isalpha():  # 701.23a–c
        if not start[-1].isalpha():
            return [start]
        end = start[:-1] + end
    k_start, k_end = rule_kind(start), rule_kind(end)
    if k_start != k_end:
        return [start, end]
    if k_start == "subrule" and start[:-1] == end[:-1]:
        a, b = SUBRULE_LETTERS.find(start[-1]), SUBRULE_LETTERS.find(end[-1])
        if 0 <= a <= b:
            return [start[:-1] + SUBRULE_LETTERS[i] for i in range(a, b + 1)]
    if k_start == "numbered" and start.split(".")[0] == end.split(".")[0]:
        a, b = int(start.split(".")[1]), int(end.split(".")[1])
        if 0 <= b - a <= 50:
            base = start.split(".")[0]
            return [f"{base}.{i}" for i in range(a, b + 1)]
    if k_start == "rule":
        a, b = int(start), int(end)
        if 0 <= b - a <= 20:
            return [str(i) for i in range(a, b + 1)]
    return [start, end]


def find_citations(text: str) -> Iterator[Citation]:
    """Yield every rule or section cited in ``text``, ranges expanded, in text order."""
    return _cite(text, [(m.start(), m.group()) for m in _ANCHOR.finditer(text)])


def find_citations_in(texts: Sequence[str]) -> list[list[Citation]]:
    """The citations of each of ``texts``, as :func:`find_citations` finds them, at once.

    >>> [[c.number for c in found] for found in find_citations_in(["See rule 100.1.", "None.", "rules 7.1–2"])]
    [['100.1'], [], []]
    """
    out: list[list[Citation]] = [[] for _ in texts]
    if not texts:
        return out
    # NUL never occurs in decoded text (decoding refuses it), so no anchor spans two texts.
    joined = "\x00".join(texts)
    starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
    hits = sorted((m.start(), m.group()) for pattern in _ANCHOR_PATTERNS for m in pattern.finditer(joined))
    i = 0
    while i < len(hits):
        index = bisect.bisect_right(starts, hits[i][0]) - 1
        base = starts[index]
        end = base + len(texts[index])
        j = i
        while j < len(hits) and hits[j][0] < end:
            j += 1
        out[index] = list(_cite(texts[index], [(at - base, token) for at, token in hits[i:j]]))
        i = j
    return out


def _cite(text: str, anchors: list[tuple[int, str]]) -> Iterator[Citation]:
    """The citations found from ``anchors`` ((position, token), in text order) of ``text``."""
    consumed = 0
    japanese = "〔" in text
    for at, token in anchors:
        if at < consumed:
            continue
        if token == "ule":
            if at < 1 or not _RULE_START.match(text, at - 1):
                continue
            m = _JA_SECTION.match(text, at - 1) if japanese else None
            if m:
                consumed = m.end() - 1
                yield Citation(m.group("num"), "section", m.group(0)[:-1], m.start())
                continue
            m = _RULE_LIST.match(text, at - 1)
            if m:
                consumed = m.end()
                offset = m.start("list")
                word = m.group("word")
                for item in _ITEM_RE.finditer(m.group("list")):
                    cited = word + " " + item.group(0) if item.start() == 0 else item.group(0)
                    for number in _expand(item.group("start"), item.group("end")):
                        yield Citation(number, "rule", cited, offset + item.start())
        elif token == "ection":
            if at < 1 or not _SECTION_START.match(text, at - 1):
                continue
            m = _SECTION_LIST.match(text, at - 1)
            if m:
                consumed = m.end()
                for number in re.findall(r"\d", m.group("list")):
                    yield Citation(number, "section", m.group(0), m.start())
        elif token == "〔" or token == "参照":
            # "708〔裏向きの呪文〕" or "(719 参照)": three digits just before, not part of 701.23.
            m = _JA_BARE_RULE.search(text, max(at - 6, consumed), at)
            if m and (m.start() == 0 or text[m.start() - 1] not in "0123456789."):
                yield Citation(m.group("num"), "rule", m.group("num"), m.start())
            consumed = at + len(token)
        else:
            m = _BARE.match(text, at - 3) if at >= 3 else None
            if m:
                consumed = m.end()
                yield Citation(m.group("num"), "rule", m.group(0), m.start())
