"""Devoid — CR 702.114 (702.114a)

"Devoid is a characteristic-defining ability. 'Devoid' means 'This object is colorless.' This ability functions
everywhere, even outside the game" (Devoid — CR 702.114a). The layer code
(:func:`~executable_rules.engine.layers.characteristics`) makes an object with devoid colourless before the other
colour effects of layer 5 apply (a characteristic-defining ability applies first:
Interaction of Continuous Effects — CR 613.3), in every zone: Barrage Tyrant on the stack is a colorless Eldrazi spell, so Eldrazi Temple's
restricted mana pays for it (Mana — CR 106.6).

>>> from executable_rules.model import OracleCard
>>> devoid(OracleCard.simple("Barrage Tyrant", "{4}{R}", "Creature", text="Devoid"))
True
"""

from __future__ import annotations

from ..model import OracleCard

KEYWORD = "Devoid"
KIND = "keyword ability"
JAPANESE = ("欠色",)
SUBRULES = ("a",)
SUMMARY = "The object is colorless, in every zone."


def devoid(card: OracleCard) -> bool:
    """Whether the card has devoid (Devoid — CR 702.114a): it is colorless."""
    return card.parsed.has_keyword(KEYWORD)
