"""Exhaust — CR 702.177 (no subrule run)

"Exhaust — [Cost]: [Effect]" means "[Cost]: [Effect]. Activate only once."
(Exhaust — CR 702.177a). An effect may let a player do something as long as
they haven't activated an exhaust ability this turn; it allows that only if
they haven't begun to activate one this turn (702.177b).

No card of the corpus has exhaust (Aetherdrift, 2025, isn't in its card data),
so the model runs neither subrule; :func:`exhaust` reads the exhaust abilities
a card's Oracle text prints, so a corpus that gains such cards shows them.

>>> from executable_rules.model import OracleCard
>>> exhaust(OracleCard.simple("Test", "{G}", "Creature", text="Exhaust — {2}{G}: Put two +1/+1 counters on this creature."))
['{2}{G}: put two +1/+1 counters on ~.']
"""

from __future__ import annotations

from ..model import OracleCard

KEYWORD = "Exhaust"
KIND = "keyword ability"
JAPANESE = ("消尽",)
SUBRULES: tuple[str, ...] = ()
SUMMARY = "An activated ability that can be activated only once."
OUT_OF_REACH = {
    "a": "no card in the corpus has exhaust (Aetherdrift is not in its card data), and the grammar reads "
         "\"Exhaust — cost: effect\" as a keyword line, not as an activated ability the engine can activate",
    "b": "the example's Elvish Refueler and Loot, the Pathfinder have no Oracle text in the corpus (only their "
         "Japanese names, in jpname_20250920.json), and the model doesn't track "
         "having begun to activate an ability while activating a mana ability during it",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def exhaust(card: OracleCard) -> list[str]:
    """The "[cost]: [effect]" of each exhaust ability the card prints (read from its parsed keyword lines)."""
    return [argument.lstrip("— ").strip() for title, argument in card.parsed.keywords if title == KEYWORD]
