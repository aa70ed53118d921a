"""Soulshift — CR 702.46 (702.46a–b)

Soulshift is a triggered ability: "Soulshift N" means "When this permanent is
put into a graveyard from the battlefield, you may return target Spirit card
with mana value N or less from your graveyard to your hand" (Soulshift — CR
702.46a). Its target is chosen as it goes on the stack, from the graveyard as
it is then: the dying card itself is there too, and may be the target if it is
a Spirit with a small enough mana value. Several instances trigger separately
(702.46b): Forked-Branch Garami's "Soulshift 4, soulshift 4" returns up to two
cards, one for each.

The engine writes soulshift out as that sentence (:func:`written_out`) and reads
it with the Oracle grammar (:mod:`executable_rules.engine.keyword_abilities`).

>>> written_out("3")
'When this permanent is put into a graveyard from the battlefield, you may return target Spirit card with mana value 3 or less from your graveyard to your hand.'
"""

from __future__ import annotations

KEYWORD = "Soulshift"
KIND = "keyword ability"
JAPANESE = ("転生",)
SUBRULES = ("a", "b")
SUMMARY = "When it dies, you may return a Spirit card with mana value N or less from your graveyard to your hand."
OUT_OF_REACH: dict[str, str] = {}
"""Both lettered subrules of soulshift (702.46a, 702.46b) are implemented."""


def written_out(argument: str) -> str:
    """Soulshift — CR 702.46a, word for word, with N filled in: the engine reads this as the ability."""
    return ("When this permanent is put into a graveyard from the battlefield, you may return target Spirit card with "
            f"mana value {argument.strip()} or less from your graveyard to your hand.")


def soulshift(argument: str) -> str:
    """The ability "Soulshift N" stands for (702.46a): :func:`written_out`."""
    return written_out(argument)
