"""Landwalk — CR 702.14 (702.14a–e)

Landwalk is written "[type]walk" (702.14a), an evasion ability (702.14b): a creature with landwalk can't be
blocked as long as the defending player controls a land of that type — with that subtype ("swampwalk"), with
the type or supertype and the subtype ("snow forestwalk"), without it ("nonbasic landwalk") (702.14c).
Landwalk abilities don't cancel each other: the defending player's own creature with the same landwalk still
can't block (702.14d).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/landwalk.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Landwalk — CR 702.14a–d.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> wraith = state.add_card(OracleCard.simple("Bog Wraith", "{3}{B}", "Creature", power="3", toughness="3",
...                         text="Swampwalk"), "you", ZoneKind.BATTLEFIELD)
>>> landwalk(state, wraith)
['swampwalk']
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Landwalk"
KIND = "keyword ability"
JAPANESE = ('土地渡り',)
SUBRULES = ('a', 'b', 'c', 'd')
SUMMARY = "Can't be blocked while the defending player controls a land of the named type."
OUT_OF_REACH: dict[str, str] = {
    "e": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def landwalk(state: GameState, card: int) -> list[str]:
    """The landwalk abilities ``card`` has now, as printed ("swampwalk", "snow forestwalk")."""
    c = state.cards[card]
    if c.face_down or KEYWORD not in characteristics(state, card).keywords:
        return []
    return [argument for title, argument in c.oracle.parsed.keywords if title == KEYWORD]
