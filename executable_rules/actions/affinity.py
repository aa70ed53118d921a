"""Affinity — CR 702.41 (702.41a)

Affinity is a static ability that works while its spell is on the stack:
"Affinity for [text]" means "This spell costs {1} less to cast for each [text]
you control" (Affinity — CR 702.41a). It reduces only the generic part of the
total cost (Casting Spells — CR 601.2f), never below zero, and counts the
permanents its caster controls as the cost is determined (the spell itself is on
the stack, not among them). :func:`affinity` is what
:func:`~executable_rules.engine.stack.cast_spell` asks.

>>> from executable_rules.model import GameState, ManaCost, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> for _ in range(5):
...     _ = state.add_card(OracleCard.simple("Ornithopter", "{0}", "Artifact Creature"), "Alice", ZoneKind.BATTLEFIELD)
>>> cast = OracleCard.simple("Thoughtcast", "{4}{U}", "Sorcery", text="Affinity for artifacts\\nDraw two cards.")
>>> str(affinity(state, "Alice", cast, ManaCost.parse("{4}{U}")))
'{U}'
"""

from __future__ import annotations

import re

from ..citation import Citation
from ..model import EventKind, GameState, ManaCost, OracleCard

KEYWORD = "Affinity"
KIND = "keyword ability"
JAPANESE = ("親和",)
SUBRULES = ("a",)
SUMMARY = "The spell costs {1} less to cast for each [text] its caster controls."
OUT_OF_REACH = {
    "b": "no card of the corpus has affinity twice, and no effect grants affinity, so multiple instances can't be set up",
}

_LINE = re.compile(r"^affinity for ([a-z]+)", re.IGNORECASE)
_TYPES = {"artifacts": "Artifact", "creatures": "Creature", "enchantments": "Enchantment", "lands": "Land"}


def affinity_for(card: OracleCard) -> list[str]:
    """What each of the card's affinity abilities counts: a card type or a subtype (``Artifact``, ``Plains``)."""
    found = []
    for line in card.text.split("\n"):
        m = _LINE.match(line.strip())
        if m:
            word = m.group(1).lower()
            found.append(_TYPES.get(word) or word.capitalize().removesuffix("s"))
    return found


def affinity(state: GameState, player: str, card: OracleCard, cost: ManaCost) -> ManaCost:
    """``cost`` less {1} for each permanent ``player`` controls of each affinity's kind (generic mana only)."""
    from ..engine.layers import characteristics
    kinds = affinity_for(card)
    if not kinds:
        return cost
    count = sum(1 for kind in kinds for p in state.permanents(player)
                if kind in characteristics(state, p.id).types or kind in characteristics(state, p.id).subtypes)
    generic = sum(int(s) for s in cost.symbols if s.isdigit())
    left = max(0, generic - count)
    reduced = ManaCost(((str(left),) if left else ()) + tuple(s for s in cost.symbols if not s.isdigit()))
    state.emit(EventKind.NOTHING, player, names=(card.name,), detail=f"affinity: {count} {' and '.join(kinds).lower()} "
               f"controlled, {min(count, generic)} less: {cost} becomes {str(reduced) or '{0}'}",
               citation=Citation(KEYWORD, "702.41a"))
    return reduced
