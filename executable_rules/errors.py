"""The errors of the executable rules, each saying what went wrong and where to look.

- :class:`IllegalChoice` — a rules violation: a player chose an option the
  rules forbid (finding nothing when searching for "a card", casting a
  discovered card whose spell would have too high a mana value). The message
  names the rule broken. It is a ``ValueError``, as python-chess's
  ``IllegalMoveError`` is.
- :class:`UnknownOption` — a script named an option the decision doesn't have
  at all (a typo, not a rules question); the message lists the options.
- :class:`ExplorationLimit` — :func:`executable_rules.choices.explore` stopped
  because it reached its limit on outcomes or time.
- :class:`Unimplemented` — the Oracle text is read (or not) but the engine can't carry it out yet.
- :class:`ImpossibleState` — the model reached a state the rules can't produce:
  our bug, to be reported.

Bad scenario files raise :class:`ingest.records.SourceError` (``path:line: message``).

>>> from executable_rules.citation import Citation
>>> e = IllegalChoice("cast Fetch Quest", "its mana value 7 is greater than 3", Citation("Discover", "701.57a"))
>>> str(e)
"illegal choice 'cast Fetch Quest': its mana value 7 is greater than 3 (Discover — CR 701.57a)"
>>> isinstance(e, ValueError)
True
"""

from __future__ import annotations

from .citation import Citation


class IllegalChoice(ValueError):
    """A choice the rules don't allow; ``citation`` is the rule broken."""

    def __init__(self, label: str, reason: str, citation: Citation | None):
        self.label = label
        self.reason = reason
        self.citation = citation
        where = f" ({citation})" if citation else ""
        super().__init__(f"illegal choice {label!r}: {reason}{where}")


class UnknownOption(ValueError):
    """A scripted choice that isn't among the decision's options."""


class ExplorationLimit(RuntimeError):
    """Exploring every choice would take more outcomes or time than allowed."""


class Unimplemented(NotImplementedError):
    """The grammar read this text, but the engine can't carry it out yet: a scenario that needs it fails saying so."""


class ImpossibleState(AssertionError):
    """The model reached a state the rules can't produce. This is a bug: please report it."""
