"""Afterlife — CR 702.135 (702.135a)

Afterlife is a triggered ability: "Afterlife N" means "When this permanent is
put into a graveyard from the battlefield, create N 1/1 white and black Spirit
creature tokens with flying" (Afterlife — CR 702.135a). It triggers from the
graveyard, looking back at the permanent as it last existed, so it works
whatever put the permanent there (destroyed, sacrificed, dealt lethal damage).

The engine writes afterlife out as that sentence (:func:`written_out`) and reads
it with the Oracle grammar (:mod:`executable_rules.engine.keyword_abilities`).

>>> written_out("2")
'When this permanent is put into a graveyard from the battlefield, create two 1/1 white and black Spirit creature tokens with flying.'
"""

from __future__ import annotations

KEYWORD = "Afterlife"
KIND = "keyword ability"
JAPANESE = ("死後",)
SUBRULES = ("a",)
SUMMARY = "When it dies, create N 1/1 white and black Spirit creature tokens with flying."
OUT_OF_REACH = {
    "b": "no card of the corpus has afterlife twice and the model grants no afterlife, so several instances never "
         "meet (each instance is written out as its own ability)",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


_WORDS = {"1": "a", "2": "two", "3": "three", "4": "four", "5": "five"}


def written_out(argument: str) -> str:
    """Afterlife — CR 702.135a, word for word, with N filled in: the engine reads this as the ability."""
    n = argument.strip() or "1"
    many = _WORDS.get(n, n)
    token = "token" if n == "1" else "tokens"
    return (f"When this permanent is put into a graveyard from the battlefield, create {many} 1/1 white and black "
            f"Spirit creature {token} with flying.")


def afterlife(argument: str) -> str:
    """The ability "Afterlife N" stands for (702.135a): :func:`written_out`."""
    return written_out(argument)
