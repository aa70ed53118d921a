"""Storm — CR 702.40 (702.40a–b)

Storm is a triggered ability that functions on the stack: "When you cast this
spell, copy it for each other spell that was cast before it this turn. If the
spell has any targets, you may choose new targets for any of the copies"
(Storm — CR 702.40a). The trigger goes on the stack above the spell, so the
copies resolve first; the copies aren't cast (Copying Objects — CR 707.10), so
they don't count for a later storm, and a spell that is countered after its
storm trigger went on the stack is still copied as it last existed there.
Each instance of storm triggers separately (702.40b).

The engine writes storm out as its rule's sentence (:data:`MEANS`), read by the
Oracle grammar like any printed "when you cast this spell" ability; the copy
effect is the engine's (``copy_spell`` in :mod:`executable_rules.engine.stack`),
shared with "copy target instant or sorcery spell".

>>> from executable_rules.engine.keyword_abilities import abilities_of
>>> from executable_rules.model import OracleCard
>>> grapeshot = OracleCard.simple("Grapeshot", "{1}{R}", "Sorcery", text="Grapeshot deals 1 damage to any target.\\nStorm")
>>> [(a.trigger, a.effects) for a in abilities_of(grapeshot) if a.kind == "triggered"]
[('self_cast', ('for_each', 'copy_spell'))]
"""

from __future__ import annotations

from ..model import Event, EventKind, GameState

KEYWORD = "Storm"
KIND = "keyword ability"
JAPANESE = ("ストーム",)
SUBRULES = ("a",)
SUMMARY = "When you cast it, copy it for each other spell cast before it this turn; the copies may have new targets."
OUT_OF_REACH = {
    "b": "no card of the corpus has storm twice or grants it, so a spell with two instances can't be set up from "
         "real cards; the engine would trigger each instance (one written-out ability per instance)",
}
MEANS = ("When you cast this spell, copy it for each other spell that was cast before it this turn. If the spell has "
         "any targets, you may choose new targets for any of the copies.")
"""Storm — CR 702.40a, word for word: the engine reads this as the ability."""


def storm(state: GameState, cast: Event | None) -> int:
    """How many copies storm makes for the spell whose casting is ``cast``: the spells cast this turn before it
    (702.40a); copies of spells aren't cast (Copying Objects — CR 707.10), so they don't count."""
    events = [e for e in state.events[state.turn_started:] if e.kind is EventKind.CAST]
    return next((i for i, e in enumerate(events) if e is cast), len(events))
