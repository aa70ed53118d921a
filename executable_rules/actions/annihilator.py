"""Annihilator — CR 702.86 (702.86a)

Annihilator is a triggered ability: "Annihilator N" means "Whenever this
creature attacks, defending player sacrifices N permanents" (Annihilator — CR
702.86a). The defending player chooses which of their permanents to sacrifice
as the ability resolves (Sacrifice — CR 701.21a); with fewer than N, they
sacrifice all they have.

The engine writes annihilator out as that sentence (:func:`written_out`) and reads
it with the Oracle grammar (:mod:`executable_rules.engine.keyword_abilities`).

>>> written_out("2")
'Whenever this creature attacks, defending player sacrifices two permanents.'
"""

from __future__ import annotations

KEYWORD = "Annihilator"
KIND = "keyword ability"
JAPANESE = ("滅殺",)
SUBRULES = ("a",)
SUMMARY = "Whenever it attacks, the defending player sacrifices N permanents."
OUT_OF_REACH = {
    "b": "no card of the corpus has annihilator twice and the model grants no annihilator, so several instances never "
         "meet (each instance is written out as its own ability)",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""

_WORDS = {"1": "a permanent", "2": "two permanents", "3": "three permanents", "4": "four permanents",
          "5": "five permanents", "6": "six permanents"}


def written_out(argument: str) -> str:
    """Annihilator — CR 702.86a, word for word, with N filled in: the engine reads this as the ability."""
    n = argument.strip()
    return f"Whenever this creature attacks, defending player sacrifices {_WORDS.get(n, n + ' permanents')}."


def annihilator(argument: str) -> str:
    """The ability "Annihilator N" stands for (702.86a): :func:`written_out`."""
    return written_out(argument)
