"""The Ring Tempts You — CR 701.54 (701.54a–e)

Each time the Ring tempts a player, they choose a creature they control, which
becomes their Ring-bearer until another creature becomes their Ring-bearer or
another player gains control of it (The Ring Tempts You — CR 701.54a).
Ring-bearer is a designation, not a copiable value (The Ring Tempts You — CR 701.54b).
A player without the emblem named The Ring gets it before choosing; what the
emblem says grows with the number of times the Ring has tempted that player
(The Ring Tempts You — CR 701.54c). The Ring has tempted a player once they
complete this, even if they control no creature to choose
(The Ring Tempts You — CR 701.54d). "Is your Ring-bearer" is true of a creature
on the battlefield under your control with the designation
(The Ring Tempts You — CR 701.54e): after another player gains control of it,
it isn't anyone's.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["you"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "you",
...                        ZoneKind.BATTLEFIELD)
>>> the_ring_tempts_you(state, "you") == bears, times_tempted(state, "you")
(True, 1)
>>> ring_abilities(state, "you")
["Your Ring-bearer is legendary and can't be blocked by creatures with greater power."]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..designations import designate, has_designation, remove_designation
from ..model import Effect, EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "The Ring Tempts You"
KIND = "keyword action"
JAPANESE = ("指輪があなたを誘惑する",)
SUBRULES = ("a", "b", "c", "d", "e")
SUMMARY = "Get the emblem The Ring if you haven't it, then choose a creature you control as your Ring-bearer."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player"}
"""``do = "ring_tempts_you"``; the decision picks the Ring-bearer."""

EMBLEM = "The Ring"
RING_TEXT = (
    "Your Ring-bearer is legendary and can't be blocked by creatures with greater power.",
    "Whenever your Ring-bearer attacks, draw a card, then discard a card.",
    "Whenever your Ring-bearer becomes blocked by a creature, that creature's controller sacrifices it at end of combat.",
    "Whenever your Ring-bearer deals combat damage to a player, each opponent loses 3 life.",
)
"""What The Ring has once it has tempted its owner 1, 2, 3 and 4 or more times (701.54c)."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.54{letter}")


def _designation(player: str) -> str:
    return f"Ring-bearer ({player})"


def times_tempted(state: GameState, player: str) -> int:
    """How many times the Ring has tempted ``player`` this game (701.54d events)."""
    return sum(1 for e in state.events if e.player == player and e.citation == cite("d"))


def has_the_ring(state: GameState, player: str) -> bool:
    return any(e.name == EMBLEM and e.controller == player for e in state.effects)


def ring_abilities(state: GameState, player: str) -> list[str]:
    """What ``player``'s emblem The Ring says now (701.54c); none without the emblem."""
    return list(RING_TEXT[:times_tempted(state, player)]) if has_the_ring(state, player) else []


def is_ring_bearer(state: GameState, player: str, card: int) -> bool:
    """701.54e: on the battlefield, under ``player``'s control, with the designation."""
    c = state.cards[card]
    return (state.zone_of(card) is state.battlefield and c.controller == player
            and has_designation(state, card, _designation(player)))


def ring_bearer(state: GameState, player: str) -> int | None:
    return next((c.id for c in state.permanents(player) if is_ring_bearer(state, player, c.id)), None)


def the_ring_tempts_you(state: GameState, player: str, *, choose: Chooser = first_legal) -> int | None:
    """The Ring tempts ``player``; return their new Ring-bearer (None if they control no creature)."""
    chosen: int | None = None
    with state.action("the Ring tempts you"):
        if not has_the_ring(state, player):                                  # 701.54c: the emblem first
            state.append(state.effects, Effect(EMBLEM, player, RING_TEXT[0]))
            state.emit(EventKind.EFFECT, player, detail=f"{player} gets an emblem named {EMBLEM}", citation=cite("c"))
        creatures = [c.id for c in state.permanents(player) if c.is_creature]
        if creatures:
            answer = decide(state, Decision.of(player, "the Ring tempts you: choose your Ring-bearer", cite("a"),
                                               [Option(f"choose {state.cards[c].display_name}", c) for c in creatures]),
                            choose)
            chosen = answer.value
            for other in state.permanents():
                if other.id != chosen:
                    remove_designation(state, other.id, _designation(player))
            designate(state, chosen, _designation(player))
            state.emit(EventKind.EFFECT, player, (chosen,),
                       detail=f"{state.cards[chosen].display_name} becomes {player}'s Ring-bearer", citation=cite("a"))
        else:
            state.emit(EventKind.NOTHING, player, detail="no creature to choose as Ring-bearer", citation=cite("a"))
        state.emit(EventKind.EFFECT, player, detail=f"the Ring has tempted {player} "
                   f"({times_tempted(state, player) + 1} time(s))", citation=cite("d"))
    return chosen


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "ring_tempts_you" }``."""
    the_ring_tempts_you(run.state, player, choose=choose)


def _bearer(state: GameState, player: str | None, expected: Any) -> str:
    """``you.ring_bearer = "Grizzly Bears"`` ("" for none)."""
    assert player is not None
    card = ring_bearer(state, player)
    return state.cards[card].display_name if card is not None else ""


def _tempted(state: GameState, player: str | None, expected: Any) -> int:
    assert player is not None
    return times_tempted(state, player)


def _ring(state: GameState, player: str | None, expected: Any) -> list[str]:
    assert player is not None
    return ring_abilities(state, player)


EXPECT = {"ring_bearer": _bearer, "times_tempted": _tempted, "the_ring": _ring}


ring_tempts_you = the_ring_tempts_you
"""The action under its module's name."""
