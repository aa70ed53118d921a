"""Prowess — CR 702.108 (702.108a–b)

Prowess is a triggered ability: "Whenever you cast a noncreature spell, this
creature gets +1/+1 until end of turn" (Prowess — CR 702.108a). It triggers on
casting, so it resolves before the spell that triggered it; the bonus lasts
until the cleanup step even if that spell is countered. Each instance of
prowess triggers separately (Prowess — CR 702.108b).

The engine writes prowess out as that sentence (:data:`MEANS`) and reads it with
the Oracle grammar (:mod:`executable_rules.engine.keyword_abilities`), so it
triggers, goes on the stack and resolves like any printed "whenever you cast"
ability.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.engine.stack import cast_spell
>>> from executable_rules.engine.turn import resolve_stack
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["Alice", "Bob"])
>>> monk = state.add_card(OracleCard.simple("Jeskai Student", "{1}{W}", "Creature", text="Prowess", power="1",
...                       toughness="3"), "Alice", ZoneKind.BATTLEFIELD)
>>> bolt = state.add_card(OracleCard.simple("Shock", "{R}", "Instant", text="Shock deals 2 damage to any target."),
...                       "Alice", ZoneKind.HAND)
>>> state.player("Alice").mana = ("R",)
>>> _ = cast_spell(state, "Alice", bolt)
>>> [t.ability for t in state.pending_triggers]
['whenever you cast a noncreature spell, ~ gets +1/+1 until end of turn.']
>>> resolve_stack(state); power(state, monk)
(2, 4)
>>> [a.line for a in prowess(state.cards[monk].oracle)]
[1001]
"""

from __future__ import annotations

from typing import Any

from ..engine.keyword_abilities import abilities_of, keyword_of
from ..engine.layers import characteristics
from ..model import GameState, OracleCard
from ..oracle import Ability

KEYWORD = "Prowess"
KIND = "keyword ability"
JAPANESE = ("果敢",)
SUBRULES = ("a",)
SUMMARY = "Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn."
OUT_OF_REACH = {
    "b": "no card of the corpus has prowess twice or grants prowess (the wiki notes none does), so a creature with "
         "two instances can't be set up from real cards; the engine would trigger each instance (one written-out "
         "ability per instance)",
}
MEANS = "Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn."
"""Prowess — CR 702.108a, word for word: the engine reads this as the ability."""


def prowess(card: OracleCard) -> list[Ability]:
    """The card's prowess triggered abilities, one per instance of prowess (702.108b), as the engine reads them."""
    lines = {a.line for a in card.parsed.abilities if any(k == KEYWORD for k, _ in a.keywords)}
    return [a for a in abilities_of(card) if keyword_of(a) in lines and a.trigger == "cast"]


def power(state: GameState, card: int) -> tuple[int | None, int | None]:
    """The creature's power and toughness now, prowess bonuses included (layer 7c)."""
    c = characteristics(state, card)
    return c.power, c.toughness


def _pt_all(state: GameState, player: str | None, expected: Any) -> Any:
    """``pt_all = { "Monk Token" = ["1/1", "2/2"] }``: the P/T of every permanent of that name, sorted."""
    found = {}
    for name in expected:
        cards = [c for c in state.battlefield.cards if state.cards[c].display_name == name]
        found[name] = sorted(f"{p}/{t}" for p, t in (power(state, c) for c in cards))
    return found


EXPECT = {"pt_all": _pt_all}
"""The expectation ``pt_all``: P/T of several permanents with one name (two Monk tokens, one pumped)."""
