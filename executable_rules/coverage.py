"""What an action module covers of its rule: implemented, out of reach, missing; and its examples.

A module of :mod:`executable_rules.actions` declares the subrules it runs
(``SUBRULES``) and the ones the model can't run with the reason
(``OUT_OF_REACH``, letter → reason). Every lettered subrule of the rule in the
newest CR must be in exactly one of the two; :func:`partition` says where each
letter is, given the letters the CR has (the caller reads them from the CR:
this package never imports ``kb``).

An ``Example:`` of the CR is covered by a scenario linked to it, or is out of
reach: because its subrule is (``OUT_OF_REACH["c"]`` names every example of
subrule c), or because an ``OUT_OF_REACH`` key names the example itself,
``"c example 2"`` (the second example of subrule c) or ``"c example"`` (every
example of c), for an example the model can't run under a subrule it does run.

>>> class Shuffle:
...     KEYWORD = "Shuffle"; SUBRULES = ("a", "e")
...     OUT_OF_REACH = {"b": "no effect looks at a library's order", "c example 2": "no Black Sun's Zenith"}
>>> p = partition(Shuffle, ["a", "b", "c", "d", "e"])
>>> p.implemented, p.out_of_reach, p.missing
(('a', 'e'), ('b',), ('c', 'd'))
>>> p.partitions
False
>>> example_reason(Shuffle, "b", 1)
"no effect looks at a library's order"
>>> example_reason(Shuffle, "c", 2), example_reason(Shuffle, "c", 1)
("no Black Sun's Zenith", None)
>>> example_key("c example 2"), example_key("C, Example 2"), example_key("c")
(('c', 2), ('c', 2), None)

``UNMODELLED`` holds keyword actions of 701 that have no module at all, with
the reason; it is empty while every action has (or is getting) a module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

UNMODELLED: dict[str, str] = {}
"""Keyword title → why there is no module for it at all (the coverage test accepts these)."""

_EXAMPLE_KEY = re.compile(r"^\s*(?P<letter>[a-z]{1,2})?\s*[,/:]?\s*example\s*(?P<seq>\d+)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Partition:
    """The lettered subrules of one rule, by where a module puts them (each tuple in the CR's order)."""

    implemented: tuple[str, ...]
    out_of_reach: tuple[str, ...]
    missing: tuple[str, ...]
    unknown: tuple[str, ...]
    """Letters the module declares that the CR doesn't have (a renumbering, a typo)."""
    twice: tuple[str, ...]
    """Letters in both SUBRULES and OUT_OF_REACH."""

    @property
    def partitions(self) -> bool:
        """Every letter of the rule in exactly one of SUBRULES and OUT_OF_REACH, and no other letter."""
        return not (self.missing or self.unknown or self.twice)


def out_of_reach(module: Any) -> dict[str, str]:
    """The module's ``OUT_OF_REACH`` (``{}`` when it has none), keys as written."""
    return dict(getattr(module, "OUT_OF_REACH", None) or {})


def example_key(key: str) -> tuple[str, int | None] | None:
    """``("c", 2)`` for the key ``"c example 2"``, ``("c", None)`` for ``"c example"``; None for a subrule letter."""
    m = _EXAMPLE_KEY.match(key)
    if not m or not m.group("letter"):
        return None
    return m.group("letter").lower(), int(m.group("seq")) if m.group("seq") else None


def subrule_reasons(module: Any) -> dict[str, str]:
    """``OUT_OF_REACH`` without the keys that name examples: letter → reason."""
    return {k: v for k, v in out_of_reach(module).items() if example_key(k) is None}


def example_reasons(module: Any) -> dict[tuple[str, int | None], str]:
    """The ``OUT_OF_REACH`` keys that name examples: (letter, seq or None) → reason."""
    found = {}
    for key, reason in out_of_reach(module).items():
        named = example_key(key)
        if named:
            found[named] = reason
    # The same said as EXAMPLES_OUT_OF_REACH = {(number, seq): reason} (the example of Banding — CR 702.22h).
    # A module of a whole rule (702, letters such as "1b") keeps the number; a keyword's module, the letter.
    whole_rule = any(x[:1].isdigit() for x in getattr(module, "SUBRULES", ()))
    for (number, seq), reason in getattr(module, "EXAMPLES_OUT_OF_REACH", {}).items():
        tail = number.split(".", 1)[1] if "." in number else number
        found[(tail if whole_rule else tail.lstrip("0123456789"), seq)] = reason
    return found


def partition(module: Any, letters: Iterable[str]) -> Partition:
    """Where ``module`` puts each of ``letters`` (the rule's lettered subrules in the newest CR)."""
    letters = list(letters)
    implemented = set(getattr(module, "SUBRULES", ()))
    reasons = set(subrule_reasons(module))
    return Partition(
        implemented=tuple(x for x in letters if x in implemented),
        out_of_reach=tuple(x for x in letters if x in reasons and x not in implemented),
        missing=tuple(x for x in letters if x not in implemented and x not in reasons),
        unknown=tuple(sorted((implemented | reasons) - set(letters))),
        twice=tuple(x for x in letters if x in implemented and x in reasons),
    )


def example_reason(module: Any, letter: str, seq: int) -> str | None:
    """Why the ``seq``-th example of subrule ``letter`` is out of reach, if the module says it is."""
    named = example_reasons(module)
    return named.get((letter, seq)) or named.get((letter, None)) or subrule_reasons(module).get(letter)
