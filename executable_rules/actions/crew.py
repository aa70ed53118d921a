"""Crew — CR 702.122 (702.122a–c)

Crew is an activated ability of Vehicle cards: "Crew N" means "Tap any number
of other untapped creatures you control with total power N or greater: This
permanent becomes an artifact creature until end of turn" (Crew — CR
702.122a). A creature "crews a Vehicle" when it is tapped to pay that cost
(702.122b), and the Vehicle is then "crewed by" it (702.122c).

Tapping creatures for the cost isn't the {T} symbol, so a creature that came
under its controller's control this turn can crew (the card rulings), and more
creatures than needed may be tapped. The cost is paid in full as the ability is
activated (Activating Activated Abilities — CR 602.2), so killing a crewing
creature in response doesn't stop the ability. As it resolves, a layer 4 effect
adds the types artifact and creature until end of turn (Cleanup Step — CR
514.2 ends it): the Vehicle has its printed power and toughness, and it doesn't
"enter the battlefield" — it was already there.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.engine.turn import resolve_stack
>>> from executable_rules.engine.layers import characteristics
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> skiff = state.add_card(OracleCard.simple("Sky Skiff", "{2}", "Artifact", power="2", toughness="3",
...                        text="Flying\\nCrew 1"), "you", ZoneKind.BATTLEFIELD)
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "you",
...                        ZoneKind.BATTLEFIELD)
>>> crew(state, "you", skiff, [bears]); resolve_stack(state)
>>> sorted(characteristics(state, skiff).types), crewed_by(state, skiff)
(['Artifact', 'Creature'], ['Grizzly Bears'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..choices import Chooser
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import ContinuousEffect, EventKind, GameState, TriggeredAbility

KEYWORD = "Crew"
KIND = "keyword ability"
JAPANESE = ("搭乗",)
SUBRULES = ("a", "b", "c")
SUMMARY = "Tap other untapped creatures you control with total power N or more: the Vehicle becomes an artifact creature until end of turn."
OUT_OF_REACH = {
    "d": "no card of the corpus says a creature \"can't crew Vehicles\", so there is no such effect to obey",
    "e": "\"whenever [this Vehicle] becomes crewed\" (Mindlink Mech, Mobilizer Mech) is read by no template of the "
         "grammar, so no ability triggers on a crew ability resolving",
}
STEP_KEYS = {"player", "card", "creatures"}
"""The keys of the scenario step ``{ do = "crew", card = "Sky Skiff", creatures = ["Grizzly Bears"] }``."""

CREWED_BY = "crewed by "
"""The designation a Vehicle gets for each creature tapped to pay its crew cost (702.122c), ``crewed by <name>``."""


def crew_number(state: GameState, card: int) -> int | None:
    """N of the permanent's "Crew N" (None without crew)."""
    argument = state.cards[card].oracle.parsed.keyword_argument(KEYWORD)
    return int(argument) if argument and argument.strip().isdigit() else None


def _power(state: GameState, card: int) -> int:
    from ..engine.layers import characteristics
    return int(characteristics(state, card).power or 0)


def _why_not(state: GameState, player: str, vehicle: int, creatures: Sequence[int]) -> tuple[str, str] | None:
    from ..engine.layers import characteristics
    name = state.cards[vehicle].display_name
    n = crew_number(state, vehicle)
    if n is None or state.zone_of(vehicle) is not state.battlefield:
        return f"{name} is no permanent with crew", "702.122a"
    if state.cards[vehicle].controller != player:
        return f"{player} doesn't control {name}: only its controller activates its crew ability", "702.122a"
    for c in creatures:
        card = state.cards[c]
        if c == vehicle:
            return f"{name} can't crew itself: crew taps *other* creatures", "702.122a"
        if (state.zone_of(c) is not state.battlefield or card.controller != player
                or "Creature" not in characteristics(state, c).types):
            return f"{card.display_name} isn't a creature {player} controls", "702.122a"
        if card.tapped:
            return f"{card.display_name} is tapped: crew taps untapped creatures", "702.122a"
    total = sum(_power(state, c) for c in creatures)
    if total < n:
        return f"the creatures' total power is {total}, less than {n}", "702.122a"
    return None


def crew(state: GameState, player: str, vehicle: int, creatures: Sequence[int]) -> None:
    """``player`` activates ``vehicle``'s crew ability, tapping ``creatures`` to pay for it (702.122a); the ability
    goes on the stack."""
    name = state.cards[vehicle].display_name
    why = _why_not(state, player, vehicle, creatures)
    if why:
        raise IllegalChoice(f"crew {name}", why[0], Citation(KEYWORD, why[1]))
    with state.action(f"crew {name}"):
        for c in creatures:                                    # the cost, paid in full (602.2b)
            state.set(state.cards[c], "tapped", True)
            state.emit(EventKind.TAP, player, (c,), detail=f"tapped to pay {name}'s crew cost: it crews {name}",
                       citation=Citation(KEYWORD, "702.122b"))
            state.designate(vehicle, CREWED_BY + state.cards[c].display_name)
        event = state.emit(EventKind.NOTHING, player, (vehicle,), detail=f"crew {crew_number(state, vehicle)} activated",
                           citation=Citation(KEYWORD, "702.122a"))
        ability_id = state.next_id
        state.set(state, "next_id", ability_id + 1)
        ability = TriggeredAbility(state.ref(vehicle), state.cards[vehicle].oracle.name, player,
                                   "crew: this permanent becomes an artifact creature until end of turn", event,
                                   id=ability_id, activated=True, keyword=KEYWORD)
        state.set_item(state.abilities, ability_id, ability)
        state.append(state.stack.cards, ability_id)


def crewed_by(state: GameState, vehicle: int) -> list[str]:
    """The creatures that were tapped to pay the Vehicle's crew costs, as the object it is now (702.122c)."""
    return [name.removeprefix(CREWED_BY) for card, incarnation, name in sorted(state.designations)
            if card == vehicle and incarnation == state.incarnation.get(vehicle, 0) and name.startswith(CREWED_BY)]


def resolve_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    """The crew ability resolves: its permanent becomes an artifact creature until end of turn (702.122a)."""
    if not state.is_current(ability.source):
        state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                   detail="its permanent has left the battlefield: nothing happens", citation=Citation(KEYWORD, "702.122a"))
        return
    card = ability.source.card
    state.append(state.continuous, ContinuousEffect(f"{ability.source_name}'s crew ability", "4", (ability.source,),
                                                    state.stamp(), types=frozenset({"Artifact", "Creature"})))
    state.emit(EventKind.EFFECT, ability.controller, (card,),
               detail="it becomes an artifact creature until end of turn (it doesn't enter the battlefield)",
               citation=Citation(KEYWORD, "702.122a"))


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "crew", card = "Sky Skiff", creatures = ["Grizzly Bears"] }``."""
    crew(run.state, player, run.card(step["card"]), [run.card(n, "creatures") for n in step.get("creatures", [])])


def _crewed_by(state: GameState, player: str | None, expected: Any) -> Any:
    """``crewed_by = { "Sky Skiff" = ["Grizzly Bears"] }``: who crewed each Vehicle, as the object it is now."""
    found = {}
    for name in expected:
        cards = [c for c in state.battlefield.cards if state.cards[c].display_name == name]
        found[name] = sorted(crewed_by(state, cards[0])) if cards else None
    return found


def _is_creature(state: GameState, player: str | None, expected: Any) -> Any:
    """``creature = { "Sky Skiff" = true }``: whether each named permanent is a creature now (every layer applied)."""
    from ..engine.layers import characteristics
    found = {}
    for name in expected:
        cards = [c for c in state.battlefield.cards if state.cards[c].display_name == name]
        found[name] = bool(cards) and "Creature" in characteristics(state, cards[0]).types
    return found


EXPECT = {"crewed_by": _crewed_by, "creature": _is_creature}
