"""Flash — CR 702.8 (702.8a)

Flash is a static ability that works in any zone from which the card could be
played: "You may play this card any time you could cast an instant"
(Flash — CR 702.8a). Without it, a spell that isn't an instant is cast only in
its controller's main phase while the stack is empty
(Timing and Priority — CR 117.1a); with it, on any player's turn, in any step,
and in response to other spells. :func:`flash` is what
:func:`~executable_rules.engine.stack.cast_spell` asks before checking timing.

>>> from executable_rules.model import OracleCard
>>> flash(OracleCard.simple("Ambush Viper", "{1}{G}", "Creature", text="Flash\\nDeathtouch"))
True
>>> flash(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature"))
False
"""

from __future__ import annotations

from ..model import OracleCard

KEYWORD = "Flash"
KIND = "keyword ability"
JAPANESE = ("瞬速",)
SUBRULES = ("a",)
SUMMARY = "The card may be cast any time its controller could cast an instant."
OUT_OF_REACH = {
    "b": "multiple instances of flash are redundant: no card of the corpus has flash twice or grants flash to a card "
         "that has it (the cards that look like it give \"as though it had flash\"), so there is nothing to set up",
}


def flash(card: OracleCard) -> bool:
    """Whether the card has flash (Flash — CR 702.8a): it may be cast any time you could cast an instant."""
    return card.parsed.has_keyword(KEYWORD)
