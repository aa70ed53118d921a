"""Disguise — CR 702.168 (none of 702.168a–f can be run: no card of the corpus has disguise)

"Disguise [cost]" means "You may cast this card as a 2/2 face-down creature with
ward {2}, no name, no subtypes, and no mana cost by paying {3} rather than
paying its mana cost" (Disguise — CR 702.168a); it is turned face up for its
disguise cost as a special action (702.168d), as morph is (Morph — CR 702.37e).
The engine reads a disguise cost where the card data gives one
(:attr:`executable_rules.model.OracleCard.disguise`, used when a manifested or
cloaked card with disguise is turned face up), but the corpus's card data ends
before Murders at Karlov Manor (2024), the first set with disguise, so no
scenario can use a real card with it.

>>> from executable_rules.model import OracleCard
>>> disguise(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature")) is None
True
"""

from __future__ import annotations

from ..model import ManaCost, OracleCard

KEYWORD = "Disguise"
KIND = "keyword ability"
JAPANESE = ("変装",)
SUBRULES: tuple[str, ...] = ()
SUMMARY = "Cast the card face down as a 2/2 creature with ward {2} for {3}; turn it face up for its disguise cost."
_NO_CARD = ("no card of the corpus's card data has disguise (Murders at Karlov Manor, 2024, is after its newest set), "
            "so a scenario with a real card can't be written")
OUT_OF_REACH = {letter: _NO_CARD for letter in "abcdef"}


def disguise(card: OracleCard) -> ManaCost | None:
    """The card's disguise cost in mana, as the card data gives it (None without disguise)."""
    return card.disguise
