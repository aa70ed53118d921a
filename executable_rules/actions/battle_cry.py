"""Battle Cry — CR 702.91 (702.91a–b)

Battle cry is a triggered ability: "Whenever this creature attacks, each other attacking creature gets +1/+0
until end of turn."
Battle Cry — CR 702.91a
If a creature has multiple instances of battle cry, each triggers separately.
Battle Cry — CR 702.91b

The engine writes battle cry out as that sentence (:data:`MEANS`) and reads it with the Oracle grammar
(:mod:`executable_rules.engine.keyword_abilities`), so it triggers as attackers are declared and resolves like any
printed "whenever ~ attacks" ability. "Each other attacking creature" is every creature that is attacking as the
ability resolves, but not the source (Declare Attackers Step — CR 508.1k): a creature that didn't attack gets
nothing, nor does one that becomes an attacker only later. Each instance is its own written-out ability, so two
instances trigger twice (702.91b).

>>> from executable_rules.model import OracleCard
>>> pest = OracleCard.simple("Twice Pest", "{1}", "Creature", text="Battle cry\\nBattle cry", power="0", toughness="1")
>>> [(a.trigger, a.line) for a in battle_cry(pest)]
[('attacks', 1001), ('attacks', 2001)]
"""

from __future__ import annotations

from ..engine.keyword_abilities import abilities_of, keyword_of
from ..model import OracleCard
from ..oracle import Ability

KEYWORD = "Battle Cry"
KIND = "keyword ability"
JAPANESE = ("喊声",)
SUBRULES = ("a",)
SUMMARY = "Whenever this creature attacks, each other attacking creature gets +1/+0 until end of turn."
OUT_OF_REACH = {
    "b": "no card of the corpus has battle cry twice or grants battle cry, so a creature with two instances can't be "
         "set up from real cards; the engine writes out one ability per instance (the doctest above)",
}
MEANS = "Whenever this creature attacks, each other attacking creature gets +1/+0 until end of turn."
"""Battle Cry — CR 702.91a, word for word: the engine reads this as the ability."""


def battle_cry(card: OracleCard) -> list[Ability]:
    """The card's battle cry triggered abilities, one per instance of battle cry (702.91b), as the engine reads them."""
    lines = {a.line for a in card.parsed.abilities if any(k == KEYWORD for k, _ in a.keywords)}
    return [a for a in abilities_of(card) if keyword_of(a) in lines and a.trigger == "attacks"]
