"""Aura Swap — CR 702.65 (no subrule run)

"Aura swap [cost]" means "[Cost]: You may exchange this permanent with an
Aura card in your hand." (Aura Swap — CR 702.65a). If either half of the
exchange can't be completed — the Aura card in hand can't enchant what this
Aura enchants, or this Aura isn't the activating player's own — the ability
has no effect (702.65b; Exchange — CR 701.12).

The model has no attachments (an Aura enchanting a permanent), so it runs
neither subrule; :func:`aura_swap` reads the cost from a card's Oracle text
(Arcanum Wings, Lucent Liminid … are in the corpus).

>>> from executable_rules.model import OracleCard
>>> str(aura_swap(OracleCard.simple("Arcanum Wings", "{1}{U}", "Enchantment", subtypes=("Aura",),
...     text="Enchant creature\\nEnchanted creature has flying.\\nAura swap {2}{U}")))
'{2}{U}'
"""

from __future__ import annotations

from ..model import ManaCost, OracleCard

KEYWORD = "Aura Swap"
KIND = "keyword ability"
JAPANESE = ("オーラ交換",)
SUBRULES: tuple[str, ...] = ()
SUMMARY = "Pay the cost: exchange this Aura on the battlefield with an Aura card in your hand."
OUT_OF_REACH = {
    "a": "the model has no Auras attached to permanents, so an Aura on the battlefield enchants nothing it could "
         "exchange an Aura card with",
    "b": "both examples (an Aura card that can't enchant the enchanted permanent; an Aura you control but don't own) "
         "need attachments and the exchange of a permanent with a card in hand, which the model lacks",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def aura_swap(card: OracleCard) -> ManaCost | None:
    """The cost of the card's "Aura swap [cost]", read from its Oracle text by the grammar (None without it)."""
    argument = card.parsed.keyword_argument(KEYWORD)
    return ManaCost.parse(argument.replace(" ", "")) if argument and argument.startswith("{") else None
