"""Check the numbering of a CR document in order, and repair evident typos.

Official files have numbering typos: ``502.35b`` printed where ``502.36b``
belongs (the rule before is ``502.36a``), ``501.2`` for ``510.2``, ``505.54``
for ``505.5``, ``306.b`` for ``306.3b``, ``702.30d`` twice. A number is taken
as printed when it is where it should be (the next subrule of the current
numbered rule, a later numbered rule of the current rule, a later rule). When
it is not, and it is one typing slip (one character inserted, dropped, changed
or two swapped) away from the number expected next, it is repaired to that
number. A numbered rule that jumps ahead (``505.54`` after ``505.4``) is
repaired only when the next item confirms it (``505.5a`` follows), because a
real gap in the numbering looks the same.

``check_numbering`` takes the printed numbers in document order and returns the
numbers to use, with a message for every repair or irregularity.

>>> fixed, notes = check_numbering(["502.36", "502.36a", "502.35b", "502.37"])
>>> fixed
['502.36', '502.36a', '502.36b', '502.37']
>>> notes[0][1]
'502.35b printed where 502.36b belongs (after 502.36a); read as 502.36b'
>>> check_numbering(["505", "505.4", "505.54", "505.5a"])[0]
['505', '505.4', '505.5', '505.5a']
>>> check_numbering(["702", "702.31", "702.33", "702.33a"])[0]  # a real gap stays
['702', '702.31', '702.33', '702.33a']
>>> check_numbering(["702.86", "702.86a", "702.86", "702.87"])[0]  # a subrule that lost its letter
['702.86', '702.86a', '702.86b', '702.87']
>>> check_numbering(["100", "100.b", "100.1"])[0]  # nothing to repair it to: left for the caller
['100', '100.b', '100.1']
"""

from __future__ import annotations

import re
from typing import Callable, Protocol, TypeVar

from .rule_refs import SUBRULE_LETTERS

_PARTS = re.compile(r"(\d{3})(?:\.(\d*)([a-z]?))?")


def _split(number: str) -> tuple[str, str | None, str]:
    m = _PARTS.fullmatch(number)
    if not m:
        return number, None, ""
    return m.group(1), m.group(2), m.group(3) or ""


def _kind(number: str) -> str:
    head, sub, letter = _split(number)
    if sub is None:
        return "rule"
    return "subrule" if letter else "numbered"


def is_one_slip(printed: str, expected: str) -> bool:
    """One character inserted, dropped, changed, or two neighbours swapped.

    >>> is_one_slip("501.2", "510.2"), is_one_slip("306.b", "306.3b"), is_one_slip("701.2", "701.25")
    (True, True, True)
    >>> is_one_slip("702.32", "702.32")
    False
    """
    a, b = printed, expected
    if a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    if abs(len(a) - len(b)) != 1:
        return False
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _next_letter(letter: str) -> str | None:
    if not letter:
        return "a"
    i = SUBRULE_LETTERS.find(letter)
    return SUBRULE_LETTERS[i + 1] if 0 <= i < len(SUBRULE_LETTERS) - 1 else None


def check_numbering(printed: list[str]) -> tuple[list[str], list[tuple[int, str]]]:
    """Return (numbers to use, [(index, message)]) for items in document order."""
    fixed: list[str] = []
    notes: list[tuple[int, str]] = []
    rule = numbered = ""
    letter = ""
    seen: set[str] = set()
    for i, number in enumerate(printed):
        head, sub, let = _split(number)
        kind = "subrule" if let else ("rule" if sub is None else "numbered")
        expected: str | None = None
        if kind == "subrule":
            nxt = _next_letter(letter)
            expected = f"{numbered}{nxt}" if numbered and nxt else None
            in_place = not numbered or (
                bool(sub) and f"{head}.{sub}" == numbered and (not letter or let > letter))
        elif kind == "numbered":
            if numbered and numbered.split(".")[0] == rule:
                expected = f"{rule}.{int(numbered.split('.')[1]) + 1}"
            elif rule:
                expected = f"{rule}.1"
            current_sub = int(numbered.split(".")[1]) if numbered and numbered.startswith(rule + ".") else 0
            in_place = not rule or (
                head == rule and sub is not None and sub.isdigit() and int(sub) > current_sub)
        else:
            in_place = not rule or int(head) > int(rule)
        use = number
        if number == expected:
            pass
        elif in_place and kind == "numbered" and expected and is_one_slip(number, expected):
            # A jump ahead: repair only if the next item is a subrule of the expected number.
            following = printed[i + 1] if i + 1 < len(printed) else ""
            if following[:-1] == expected and following[-1:].isalpha():
                use = expected
        elif (kind == "numbered" and number == numbered and letter and _next_letter(letter)
              and printed[i + 1:i + 2] == [expected]):
            # "702.86" again after 702.86a, and 702.87 next: the subrule 702.86b lost its letter.
            use = f"{numbered}{_next_letter(letter)}"
        elif not in_place and kind != "rule" and expected and is_one_slip(number, expected):
            use = expected
        if use != number:
            after = fixed[-1] if fixed else "the start"
            notes.append((i, f"{number} printed where {use} belongs (after {after}); read as {use}"))
        elif not in_place:
            after = fixed[-1] if fixed else "the start"
            notes.append((i, f"{number} is out of order (after {after})"))
        if use in seen:
            notes.append((i, f"{use} appears twice"))
        seen.add(use)
        fixed.append(use)
        if use != number:
            head, sub, let = _split(use)
            kind = "subrule" if let else ("rule" if sub is None else "numbered")
        if kind == "rule":
            rule, numbered, letter = head, "", ""
        elif kind == "numbered":
            rule, numbered, letter = head, use, ""
        elif sub:  # an unrepaired "306.b" says nothing about where we are
            numbered, letter = f"{head}.{sub}", let
            rule = head
    return fixed, notes


class NumberedItem(Protocol):
    """What :func:`apply_numbering` (and :func:`ingest.cr.iter_item_records`) need of a parser's item."""

    number: str
    kind: str
    title: str | None
    parts: list[str]
    line: int
    examples: list[tuple[int, list[str]]]


Item = TypeVar("Item", bound=NumberedItem)
_VALID_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")


def apply_numbering(items: list[Item], problem: Callable[[int, str, str, str], None]) -> list[Item]:
    """Give parsed items the numbers :func:`check_numbering` settles on; merge what cannot stand alone.

    Each repair or irregularity is reported through ``problem(line, severity,
    code, message)``. An item left with an unusable number, or a second item of
    one number, is kept as text of the item before (or of the first of that
    number), never dropped. Used by the English and the Japanese parsers.
    """
    fixed, notes = check_numbering([item.number for item in items])
    for index, message in notes:
        code = "typo-number" if "read as" in message else (
            "duplicate-number" if "twice" in message else "out-of-order")
        problem(items[index].line, "warning", code, message)
    kept: list[Item] = []
    by_number: dict[str, Item] = {}
    for item, number in zip(items, fixed):
        if not _VALID_NUMBER.fullmatch(number) or number in by_number:
            host = by_number.get(number) or (kept[-1] if kept else None)
            if host is None:
                problem(item.line, "error", "unplaced-text", f"text of {number} has no rule to go with")
                continue
            host.parts.append(f"{item.number} " + "\n".join(item.parts))
            host.examples.extend(item.examples)
            problem(item.line, "warning", "merged-item",
                    f"{item.number} kept as text of {host.number} (it cannot stand as its own rule)")
            continue
        item.number = number
        item.kind = "subrule" if number[-1].isalpha() else ("numbered" if "." in number else "rule")
        kept.append(item)
        by_number[number] = item
    return kept
