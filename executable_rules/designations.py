"""Designations: marks a permanent has that are neither abilities nor copiable values.

Suspected (Suspect — CR 701.60b), harnessed (Harness — CR 701.64b) and Ring-bearer
(The Ring Tempts You — CR 701.54b) are designations. The model keeps one as a
:class:`~executable_rules.model.ContinuousEffect` of layer ``"designation"`` naming it,
affecting the permanent as the object it is now: a permanent that leaves the
battlefield is a new object (Zones — CR 400.7) and has none of them. The layers
ignore such an effect; a designation that grants abilities (suspected: menace and
"This creature can't block", Suspect — CR 701.60c) adds a layer 6 effect beside it.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["you"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "you",
...                        ZoneKind.BATTLEFIELD)
>>> designate(state, bears, "harnessed")
True
>>> designate(state, bears, "harnessed"), has_designation(state, bears, "harnessed")
(False, True)
>>> state.move(bears, state.player("you").graveyard)
>>> has_designation(state, bears, "harnessed")
False
"""

from __future__ import annotations

from .model import ContinuousEffect, GameState

LAYER = "designation"


def designations(state: GameState, card: int) -> list[str]:
    """The designations ``card`` has as the object it is now, in the order it got them."""
    ref = state.ref(card)
    return [e.source for e in state.continuous if e.layer == LAYER and ref in e.affected]


def has_designation(state: GameState, card: int, name: str) -> bool:
    return name in designations(state, card)


def designate(state: GameState, card: int, name: str, *, keywords: tuple[str, ...] = ()) -> bool:
    """Give ``card`` the designation ``name`` (and, while it has it, ``keywords``); False if it already has it."""
    if has_designation(state, card, name):
        return False
    ref = (state.ref(card),)
    state.append(state.continuous, ContinuousEffect(name, LAYER, ref, state.stamp(), duration="indefinitely"))
    if keywords:
        state.append(state.continuous, ContinuousEffect(name, "6", ref, state.stamp(), keywords=keywords,
                                                        duration="indefinitely"))
    return True


def remove_designation(state: GameState, card: int, name: str) -> bool:
    """Take the designation ``name`` (and the abilities it grants) from ``card``; False if it hadn't it."""
    ref = state.ref(card)
    keep = [e for e in state.continuous if not (e.source == name and ref in e.affected and e.layer in (LAYER, "6"))]
    if len(keep) == len(state.continuous):
        return False
    state.replace_list(state.continuous, keep)
    return True


def holders(state: GameState, name: str) -> list[int]:
    """The permanents on the battlefield with the designation ``name``."""
    return [c.id for c in state.permanents() if has_designation(state, c.id, name)]
