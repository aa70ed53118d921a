"""How the executable rules name the rules they implement: by title, then number.

A :class:`Citation` pairs the title of a rule as the newest Comprehensive Rules
we ingest print it (``Discover``, ``Drawing a Card``) with a number under that
title (``701.57a``, ``121.2``). The title is the link: the build resolves it
to a number in every release, so a citation stays right when the CR renumbers
(Discover has had two numbers since 2023). ``tests/test_executable_citations.py``
checks every ``Title — CR number`` written in this package against the newest CR.

>>> c = Citation("Discover", "701.57a")
>>> str(c)
'Discover — CR 701.57a'
>>> c.suffix
'a'
>>> Citation("Drawing a Card", "121.2").suffix
'.2'
>>> Citation.parse("Search — CR 701.23b")
Citation(keyword='Search', number='701.23b')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CITATION_PATTERN = re.compile(r"(?P<keyword>[A-Z][A-Za-z' ,-]*?) — CR (?P<number>\d{3}(?:\.\d+[a-z]?)?)")
"""``Title — CR number`` as written in docstrings, comments, messages and scenario files."""

NUMBER_PATTERN = re.compile(r"^(?P<rule>\d{3})(?:\.(?P<numbered>\d+)(?P<letter>[a-z]?))?$")


_CHECKED: set[str] = set()   # numbers already validated: citations are made on every event


@dataclass(frozen=True)
class Citation:
    """A rule named by the title it is under and its number in the newest CR."""

    keyword: str
    number: str

    def __post_init__(self) -> None:
        if self.number not in _CHECKED:
            if not NUMBER_PATTERN.match(self.number):
                raise ValueError(f"{self.number!r} is not a rule number such as 701.57a or 121.2")
            _CHECKED.add(self.number)

    def __str__(self) -> str:
        return f"{self.keyword} — CR {self.number}"

    @classmethod
    def parse(cls, text: str) -> Citation:
        """Read ``"Title — CR number"``; raise ``ValueError`` naming the expected form."""
        m = CITATION_PATTERN.fullmatch(text.strip())
        if not m:
            raise ValueError(f"{text!r} is not a citation of the form 'Discover — CR 701.57a'")
        return cls(m["keyword"], m["number"])

    @property
    def suffix(self) -> str:
        """The part after the titled rule: ``a`` for 701.57a under 701.57, ``.2`` for 121.2 under 121.

        Keyword actions and abilities are titled at the numbered rule (701.57),
        other rules at the rule (121 "Drawing a Card").
        """
        m = NUMBER_PATTERN.match(self.number)
        assert m is not None
        if self.number.startswith(("701.", "702.")):
            return m["letter"] or ""
        return self.number[3:]
