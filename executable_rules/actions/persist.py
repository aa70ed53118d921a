"""Persist — CR 702.79 (702.79a)

Persist is a triggered ability: "When this permanent is put into a graveyard
from the battlefield, if it had no -1/-1 counters on it, return it to the
battlefield under its owner's control with a -1/-1 counter on it"
(Persist — CR 702.79a). Whether it had a -1/-1 counter is read from its last
known information — the permanent as it last existed on the battlefield — both
as it triggers and as it resolves (an intervening "if":
Handling Triggered Abilities — CR 603.4). The card that returns is a new object (Zones — CR 400.7);
if it has left the graveyard before the ability resolves, nothing returns.

The engine writes persist out as that sentence (:data:`MEANS`) and reads it with
the Oracle grammar (:mod:`executable_rules.engine.keyword_abilities`).

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.engine.replacement import put_into_graveyard
>>> from executable_rules.engine.turn import resolve_stack
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["Alice", "Bob"])
>>> elite = state.add_card(OracleCard.simple("Safehold Elite", "{1}{G/W}", "Creature", text="Persist", power="2",
...                        toughness="2"), "Alice", ZoneKind.BATTLEFIELD)
>>> _ = put_into_graveyard(state, elite, "destroyed")
>>> resolve_stack(state); state.cards[elite].counters, state.zone_of(elite).label
({'-1/-1': 1}, 'battlefield')
>>> _ = put_into_graveyard(state, elite, "destroyed")
>>> persist(state, elite), state.pending_triggers
(False, [])
"""

from __future__ import annotations

from ..model import GameState

KEYWORD = "Persist"
KIND = "keyword ability"
JAPANESE = ("頑強",)
SUBRULES = ("a",)
SUMMARY = "When it dies with no -1/-1 counter on it, it returns to the battlefield with a -1/-1 counter."
OUT_OF_REACH: dict[str, str] = {}
MEANS = ("When this permanent is put into a graveyard from the battlefield, if it had no -1/-1 counters on it, "
         "return it to the battlefield under its owner's control with a -1/-1 counter on it.")
"""Persist — CR 702.79a, word for word: the engine reads this as the ability."""


def had_no_counters(state: GameState, card: int, kind: str) -> bool:
    """Whether ``card`` had no ``kind`` counters as it last existed on the battlefield (or has none there now)."""
    if state.zone_of(card) is state.battlefield:
        return not state.cards[card].counters.get(kind, 0)
    known = state.last_known.get(card)
    return known is None or not dict(known.counters).get(kind, 0)


def persist(state: GameState, card: int) -> bool:
    """Whether persist returns ``card`` (it had no -1/-1 counter as it last existed on the battlefield)."""
    return had_no_counters(state, card, "-1/-1")
