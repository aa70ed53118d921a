"""Cycling — CR 702.29 (702.29a, 702.29c, 702.29e)

Cycling is an activated ability that works only while its card is in a
player's hand: "Cycling [cost]" means "[Cost], Discard this card: Draw a card"
(Cycling — CR 702.29a). Discarding the card is part of the cost, so it is in the
graveyard before anyone can respond, and the draw happens when the ability
resolves. "When you cycle this card" means "when you discard this card to pay a
cycling cost", and triggers from the graveyard it went to (702.29c).
Typecycling — "[Type]cycling [cost]" — means "[Cost], Discard this card: Search
your library for a [type] card, reveal it, and put it into your hand. Then
shuffle" (702.29e).

The engine writes cycling out as that ability (:func:`written_out`) and reads it
with the Oracle grammar (:mod:`executable_rules.engine.keyword_abilities`); it
may be activated only from the hand (:data:`ACTIVE_ZONE`).

>>> written_out("{2}")
'{2}, Discard this card: Draw a card.'
>>> written_out("swampcycling {2}")
'{2}, Discard this card: Search your library for a Swamp card, reveal it, put it into your hand, then shuffle.'
>>> written_out("basic landcycling {1}{G}")
'{1}{G}, Discard this card: Search your library for a basic land card, reveal it, put it into your hand, then shuffle.'
"""

from __future__ import annotations

import re

from ..choices import Chooser, first_legal
from ..model import GameState, ZoneKind

KEYWORD = "Cycling"
KIND = "keyword ability"
JAPANESE = ("サイクリング",)
SUBRULES = ("a", "c", "e")
SUMMARY = "Pay the cost and discard the card from your hand: draw a card (typecycling: search for a card of that type)."
OUT_OF_REACH = {
    "b": "no effect of the model depends on an object having activated abilities, so that cycling exists outside "
         "the hand has nothing to act on",
    "d": "\"whenever you cycle or discard a card\" (Drake Haven, Archfiend of Ifnir) isn't read as a trigger: the "
         "grammar has the words, the engine no discard event to match them to",
    "f": "typecycling is written out as a cycling ability (its discard is a cycling event), but no card of the "
         "corpus has both typecycling and an ability that triggers on cycling, and no effect changes or stops "
         "cycling costs, so there is nothing to show it with",
}
ACTIVE_ZONE = ZoneKind.HAND
"""Cycling functions only while its card is in a player's hand (702.29a)."""

_TYPE = re.compile(r"^(basic land|[a-z]+)cycling\s*", re.IGNORECASE)


def written_out(argument: str) -> str:
    """The ability "Cycling [cost]" or "[Type]cycling [cost]" stands for (702.29a, 702.29e)."""
    m = _TYPE.match(argument)
    cost = argument[m.end():] if m else argument
    cost = "".join(cost.split())
    if not m:
        return f"{cost}, Discard this card: Draw a card."
    kind = m.group(1).lower()
    what = kind if kind in ("basic land", "land", "creature", "artifact", "enchantment") else kind.capitalize()
    article = "an" if what[0].lower() in "aeiou" else "a"
    return (f"{cost}, Discard this card: Search your library for {article} {what} card, reveal it, put it into "
            "your hand, then shuffle.")


def cycling(state: GameState, player: str, card: int, *, x: int = 0, choose: Chooser = first_legal) -> None:
    """``player`` cycles ``card`` from their hand: pays the cost, discards it, and the ability goes on the stack."""
    from ..engine.stack import activate
    activate(state, player, card, "cycling", x=x, choose=choose)
