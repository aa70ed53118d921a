"""Double — CR 701.10 (701.10a–f)

Doubling a creature's power and/or toughness is a continuous effect that
modifies them (layer 7c) rather than setting them (701.10a): the creature
gets +X/+0, X being its power as the effect begins (701.10b), and X doesn't
change if its power changes later. A negative power doubled gets -X/-0, X
being how far below 0 it is (701.10c) — in both cases, X is its power.
Doubling a life total makes the player gain or lose the life needed to have
twice it (701.10d): a life total of -10 becomes -20, and it is life gained or
lost. Doubling counters gives as many more of those counters (701.10e);
doubling mana adds as much more of each type (701.10f).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.engine.layers import characteristics
>>> state = GameState.new(["Alice"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> double_power(state, "Alice", bears, toughness=True)
(2, 2)
>>> c = characteristics(state, bears); (c.power, c.toughness)
(4, 4)
>>> double_life(state, "Alice"), state.player("Alice").life
(20, 40)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import ContinuousEffect, EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Double"
KIND = "keyword action"
JAPANESE = ("2倍にする", "2倍")
SUBRULES = ("a", "b", "c", "d", "e", "f")
SUMMARY = "Double power/toughness (+X/+0), a life total, counters or mana: add as much as there is."
OUT_OF_REACH = {
    "g": "the model has no damage replacement effects (\"it deals double that damage instead\")",
}

STEP_KEYS = {"player", "card", "power", "toughness", "life", "counters", "mana"}
"""``do = "double"``: ``card`` with ``power = true`` / ``toughness = true``; ``life = true`` (the player's);
``counters = "+1/+1"`` on ``card``; ``mana = true`` (the player's mana)."""


def _pump(state: GameState, player: str, card: int, times: int, power: bool, toughness: bool, source: str,
          keyword: str, number: str, duration: str) -> tuple[int, int]:
    from ..engine.layers import characteristics
    ch = characteristics(state, card)
    p = (ch.power or 0) * times if power else 0
    t = (ch.toughness or 0) * times if toughness else 0
    state.append(state.continuous, ContinuousEffect(source, "7c", (state.ref(card),), state.stamp(), p, t,
                                                    duration=duration, until_turn_of=player))
    negative = (power and (ch.power or 0) < 0) or (toughness and (ch.toughness or 0) < 0)
    state.emit(EventKind.EFFECT, player, (card,), detail=f"gets {p:+d}/{t:+d} {duration}",
               citation=Citation(keyword, f"{number}{'c' if negative else 'b'}"))
    return p, t


def double_power(state: GameState, player: str, card: int, *, power: bool = True, toughness: bool = False,
                 source: str = "double", duration: str = "until end of turn") -> tuple[int, int]:
    """Double the creature's power and/or toughness; return the +X/+Y it gets."""
    return _pump(state, player, card, 1, power, toughness, source, KEYWORD, "701.10", duration)


def double_life(state: GameState, player: str) -> int:
    """``player``'s life total is doubled; return the change."""
    from ..instructions import gain_life, lose_life
    life = state.player(player).life
    if life > 0:
        gain_life(state, player, life, detail="life total doubled (Double — CR 701.10d)")
    elif life < 0:
        lose_life(state, player, -life, detail="life total doubled (Double — CR 701.10d)")
    return life


def double_counters(state: GameState, player: str, card: int, kind: str) -> int:
    """Put as many ``kind`` counters on the permanent as it has; return how many were added."""
    have = state.cards[card].counters.get(kind, 0)
    if have:
        state.add_counters(card, kind, have)
    state.emit(EventKind.COUNTER, player, (card,), amount=have, detail=f"{have} {kind} counter(s) more: doubled",
               citation=Citation(KEYWORD, "701.10e"))
    return have


def double_mana(state: GameState, player: str) -> tuple[str, ...]:
    """``player`` adds as much more mana of each type as they have; return the mana added."""
    p = state.player(player)
    added = tuple(p.mana)
    state.set(p, "mana", p.mana + added)
    state.emit(EventKind.MANA, player, detail="adds " + ("".join(f"{{{m}}}" for m in added) or "nothing") + ": doubled",
               citation=Citation(KEYWORD, "701.10f"))
    return added


def double(state: GameState, player: str, card: int) -> tuple[int, int]:
    """The action by its name: double the creature's power (:func:`double_power`)."""
    return double_power(state, player, card)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "double", card = "Grizzly Bears", power = true }``, ``{ do = "double", life = true }``, …"""
    state = run.state
    if step.get("life"):
        double_life(state, player)
    elif step.get("mana"):
        double_mana(state, player)
    elif "counters" in step:
        double_counters(state, player, run.card(step["card"]), str(step["counters"]))
    else:
        double_power(state, player, run.card(step["card"]), power=bool(step.get("power", True)),
                     toughness=bool(step.get("toughness", False)))
