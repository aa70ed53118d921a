"""Undying — CR 702.93 (702.93a)

Undying is a triggered ability: "When this permanent is put into a graveyard
from the battlefield, if it had no +1/+1 counters on it, return it to the
battlefield under its owner's control with a +1/+1 counter on it"
(Undying — CR 702.93a). Like persist (Persist — CR 702.79a), it reads the
permanent's last known information, and the card that returns is a new object
(Zones — CR 400.7).

The engine writes undying out as that sentence (:data:`MEANS`) and reads it with
the Oracle grammar (:mod:`executable_rules.engine.keyword_abilities`).

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.engine.replacement import put_into_graveyard
>>> from executable_rules.engine.turn import resolve_stack
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["Alice", "Bob"])
>>> wolf = state.add_card(OracleCard.simple("Young Wolf", "{G}", "Creature", text="Undying", power="1",
...                       toughness="1"), "Alice", ZoneKind.BATTLEFIELD)
>>> _ = put_into_graveyard(state, wolf, "destroyed")
>>> resolve_stack(state); state.cards[wolf].counters
{'+1/+1': 1}
>>> undying(state, wolf)
False
"""

from __future__ import annotations

from ..model import GameState
from .persist import had_no_counters

KEYWORD = "Undying"
KIND = "keyword ability"
JAPANESE = ("不死",)
SUBRULES = ("a",)
SUMMARY = "When it dies with no +1/+1 counter on it, it returns to the battlefield with a +1/+1 counter."
OUT_OF_REACH: dict[str, str] = {}
MEANS = ("When this permanent is put into a graveyard from the battlefield, if it had no +1/+1 counters on it, "
         "return it to the battlefield under its owner's control with a +1/+1 counter on it.")
"""Undying — CR 702.93a, word for word: the engine reads this as the ability."""


def undying(state: GameState, card: int) -> bool:
    """Whether undying would return ``card`` if it died now (it has no +1/+1 counter)."""
    return had_no_counters(state, card, "+1/+1")
