"""Regenerate — CR 701.19 (701.19a–c)

A resolving spell or ability that regenerates a permanent makes a
regeneration shield: the next time that permanent would be destroyed this
turn, instead all damage marked on it is removed and its controller taps it
(and an attacking or blocking creature is removed from combat) (701.19a). A
static ability that regenerates a permanent ("If Mossbridge Troll would be
destroyed, regenerate it.") replaces every destruction of it that way
(701.19b). Making a shield is not regenerating; an effect that says a
permanent can't be regenerated ("Destroy all creatures. They can't be
regenerated.") doesn't stop a shield from being made, but the shield isn't
used (701.19c).

Regeneration replaces destruction only (Destroy — CR 701.8c): a permanent
sacrificed, or put into the graveyard for having 0 toughness, isn't destroyed,
and its shield does nothing. A shield protects the object it was made for: a
permanent that leaves the battlefield and comes back is a new object without
it (Zones — CR 400.7); an unused shield ends with the turn
(Cleanup Step — CR 514.2). The model has no combat yet, so there is no combat to remove a
regenerated creature from.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> skeletons = state.add_card(OracleCard.simple("Drudge Skeletons", "{1}{B}", "Creature", power="1", toughness="1"),
...                            "Alice", ZoneKind.BATTLEFIELD)
>>> regenerate(state, "Alice", skeletons)
>>> state.cards[skeletons].damage = 3
>>> regenerates_instead(state, skeletons)
True
>>> state.cards[skeletons].damage, state.cards[skeletons].tapped, shields(state, skeletons)
(0, True, 0)
>>> regenerates_instead(state, skeletons)
False
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import ContinuousEffect, EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Regenerate"
KIND = "keyword action"
JAPANESE = ("再生する", "再生")
SUBRULES = ("a", "b", "c")
SUMMARY = "The next time the permanent would be destroyed this turn, remove its damage and tap it instead."
OUT_OF_REACH: dict[str, str] = {}

SHIELD = "regeneration shield"
"""The ``layer`` of a shield kept among the lasting effects (``state.continuous``). It isn't a layer effect
(613) but a replacement effect (614.8); it is kept there because it needs what they have: the object it
protects, by reference (a new object has none), and a duration that ends in the cleanup step."""

STEP_KEYS = {"card", "player"}
"""``do = "regenerate"``: a resolving effect regenerates ``card`` (makes a shield for it)."""


def regenerate(state: GameState, player: str, card: int, *, source: str = "") -> None:
    """A resolving spell or ability of ``player``'s makes a regeneration shield for ``card`` (701.19a)."""
    if state.zone_of(card) is not state.battlefield:
        return
    shield = ContinuousEffect(source or "regeneration", SHIELD, (state.ref(card),), state.stamp(),
                              duration="until end of turn")
    state.append(state.continuous, shield)
    state.emit(EventKind.EFFECT, player, (card,),
               detail="a regeneration shield: the next time it would be destroyed this turn, it regenerates instead",
               citation=Citation(KEYWORD, "701.19a"))


def shields(state: GameState, card: int) -> int:
    """How many regeneration shields protect the permanent ``card`` now."""
    ref = state.ref(card)
    return sum(1 for e in state.continuous if e.layer == SHIELD and ref in e.affected)


def regenerates_by_static(state: GameState, card: int) -> bool:
    """Whether the permanent has "If ~ would be destroyed, regenerate it." (701.19b)."""
    c = state.cards[card]
    if c.face_down:
        return False
    return any(a.kind == "spell" and a.text.startswith("if ~ would be destroyed, regenerate it")
               for a in c.oracle.parsed.abilities)


def regenerates_instead(state: GameState, card: int, *, can_be_regenerated: bool = True) -> bool:
    """The permanent ``card`` would be destroyed: if a shield or a static ability regenerates it, do so
    (701.19a, 701.19b) and return True; otherwise return False (it is destroyed)."""
    static = regenerates_by_static(state, card)
    if not shields(state, card) and not static:
        return False
    c = state.cards[card]
    if not can_be_regenerated:
        state.emit(EventKind.NOTHING, c.controller, (card,),
                   detail="it can't be regenerated: its regeneration doesn't apply", citation=Citation(KEYWORD, "701.19c"))
        return False
    from .tap_and_untap import tap
    ref = state.ref(card)
    letter = "b" if static else "a"
    if not static:
        used = next(e for e in state.continuous if e.layer == SHIELD and ref in e.affected)
        state.replace_list(state.continuous, [e for e in state.continuous if e is not used])
    if c.damage:
        state.set(c, "damage", 0)
    state.emit(EventKind.NOTHING, c.controller, (card,),
               detail="regenerates instead of being destroyed: its damage is removed and its controller taps it"
               + ("" if static else " (the shield is used up)"), citation=Citation(KEYWORD, f"701.19{letter}"))
    tap(state, c.controller, card, detail="regenerated", citation=Citation(KEYWORD, f"701.19{letter}"))
    return True


def _observe_shields(state: GameState, player: str | None, expected: Any) -> dict[str, int]:
    found = {}
    for name in expected:
        cards = [c for c in state.battlefield.cards if state.cards[c].oracle.name == name]
        found[name] = shields(state, cards[0]) if cards else 0
    return found


EXPECT = {"regeneration_shields": _observe_shields}
"""``regeneration_shields = { "Drudge Skeletons" = 1 }``: shields on that permanent (0 if it isn't there)."""


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "regenerate", card = "Drudge Skeletons" }``."""
    regenerate(run.state, player, run.card(step["card"]))
