"""Airbend — CR 701.65 (701.65a–b)

To airbend permanents and/or spells, a player exiles them. For each card exiled
this way, for as long as it remains exiled, its owner may cast it by paying {2}
rather than paying its mana cost (Airbend — CR 701.65a). A spell exiled this way
is removed from the stack without being countered; a token exiled ceases to
exist (State-Based Actions — CR 704.5d), so it can't be cast. Paying {2}
instead of the mana cost is an alternative cost: the spell's mana cost and mana
value don't change (Mana Cost and Color — CR 202.3), and the usual timing rules
apply. "Whenever you airbend" abilities trigger once when the player exiles one
or more objects this way (Airbend — CR 701.65b): the ``airbend`` event.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["you", "them"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "them",
...                        ZoneKind.BATTLEFIELD)
>>> airbend(state, "you", [bears]) == [bears], may_cast_for_two(state, "them", bears), may_cast_for_two(state, "you", bears)
(True, True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..designations import designate, has_designation
from ..errors import IllegalChoice
from ..model import EventKind, GameState, ManaCost, Spell

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Airbend"
KIND = "keyword action"
JAPANESE = ("気の技",)
SUBRULES = ("a", "b")
SUMMARY = "Exile permanents and/or spells; each card's owner may cast it from exile for {2} rather than its mana cost."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "cards", "card", "cast"}
"""``do = "airbend"``: ``cards`` (or ``card``) are exiled; ``{ do = "airbend", cast = "Name" }`` casts an airbent
card from exile for {2}."""

PERMISSION = "airbent: may be cast for {2}"
TWO = ManaCost(("2",))


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.65{letter}")


def airbend(state: GameState, player: str, objects: Sequence[int]) -> list[int]:
    """``player`` airbends ``objects`` (permanents and/or spells); return the cards exiled."""
    exiled: list[int] = []
    with state.action("airbend"):
        for card in objects:
            zone = state.zone_of(card)
            if zone not in (state.battlefield, state.stack):
                continue
            name = state.cards[card].display_name
            state.move(card, state.exile)
            state.emit(EventKind.EXILE, player, (card,), names=(name,), source=zone.label, destination="exile",
                       detail="airbent" + (": removed from the stack, not countered" if zone is state.stack else ""),
                       citation=cite("a"))
            if not state.cards[card].is_token:
                designate(state, card, PERMISSION)
            exiled.append(card)
        if exiled:
            state.emit(EventKind.NOTHING, player, exiled, detail=f"{player} airbends", citation=cite("b"))
    return exiled


def may_cast_for_two(state: GameState, player: str, card: int) -> bool:
    """Whether ``player`` may cast ``card`` for {2} now: they own it and it is still the card airbent in exile."""
    return (card in state.cards and state.zone_of(card) is state.exile and state.cards[card].owner == player
            and has_designation(state, card, PERMISSION))


def cast_airbent(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> Spell:
    """``player`` casts the airbent ``card`` from exile, paying {2} rather than its mana cost (701.65a)."""
    from ..engine.stack import cast_spell
    if not may_cast_for_two(state, player, card):
        raise IllegalChoice(f"cast {state.cards[card].display_name} for {{2}}", "only its owner may, and only while it "
                            "remains exiled by airbending", cite("a"))
    return cast_spell(state, player, card, pay_instead=(TWO, "airbend: {2} rather than its mana cost"), choose=choose)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "airbend", cards = ["Grizzly Bears"] }`` or ``{ do = "airbend", cast = "Grizzly Bears" }``."""
    if "cast" in step:
        cast_airbent(run.state, player, run.card(str(step["cast"]), "cast", zone="exile"), choose=choose)
        return
    names = step.get("cards") or [step["card"]]
    cards = []
    for name in names:
        on_stack = [c for c in run.state.stack.cards if c in run.state.cards and run.state.cards[c].oracle.name == name]
        cards.append(on_stack[0] if on_stack else run.card(str(name), "cards"))
    airbend(run.state, player, cards)
