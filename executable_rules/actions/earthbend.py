"""Earthbend — CR 701.66 (701.66a–b)

"Earthbend N" means "Target land you control becomes a 0/0 land creature with
haste in addition to its other types. Put N +1/+1 counters on it. When that
land dies or is put into exile, return it to the battlefield tapped under your
control." (Earthbend — CR 701.66a) The land stays a creature for as long as it
is on the battlefield (the effect has no duration); the "when that land dies
or is put into exile" ability is a delayed triggered ability
(Handling Triggered Abilities — CR 603.7) that goes on the stack like any
other, and returns the land as a new object: a land again, not a creature,
without counters (Zones — CR 400.7). "Whenever you earthbend" abilities trigger
when that delayed triggered ability is created (Earthbend — CR 701.66b), which is
the event this module emits.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.engine.layers import characteristics
>>> state = GameState.new(["you"])
>>> forest = state.add_card(OracleCard.simple("Forest", None, "Land", supertypes=["Basic"], subtypes=["Forest"]), "you",
...                         ZoneKind.BATTLEFIELD)
>>> earthbend(state, "you", forest, 2)
True
>>> c = characteristics(state, forest)
>>> sorted(c.types), (c.power, c.toughness), "Haste" in c.keywords
(['Creature', 'Land'], (2, 2), True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import ContinuousEffect, Event, EventKind, GameState, TriggeredAbility, ZoneKind

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Earthbend"
KIND = "keyword action"
JAPANESE = ("土の技",)
SUBRULES = ("a", "b")
SUMMARY = "A land you control becomes a 0/0 haste land creature with N +1/+1 counters; when it dies or is exiled, it returns tapped."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "land", "n"}
"""``do = "earthbend"``: ``land`` (the target) earthbends ``n``."""

RETURN_TEXT = "When ~ dies, return it to the battlefield tapped under your control."
"""The delayed triggered ability as the grammar reads it (dying or being exiled are both watched for here)."""
DELAYED_LINE = -1
"""The ``line`` of a delayed triggered ability: it is no line of the card's Oracle text."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.66{letter}")


def earthbend(state: GameState, player: str, land: int, n: int) -> bool:
    """``player`` earthbends ``n`` with ``land`` as the target; False if it is no longer a land they control."""
    c = state.cards[land]
    if state.zone_of(land) is not state.battlefield or not c.is_land or c.controller != player:
        state.emit(EventKind.NOT_RESOLVED, player, (land,), detail="the target isn't a land you control",
                   citation=Citation("Resolving Spells and Abilities", "608.2b"))
        return False
    ref = (state.ref(land),)
    with state.action(f"earthbend {n}"):
        for layer, extra in (("4", {"types": frozenset({"Creature"})}), ("6", {"keywords": ("Haste",)}),
                             ("7b", {"power": 0, "toughness": 0})):
            state.append(state.continuous, ContinuousEffect("earthbend", layer, ref, state.stamp(),
                                                            duration="indefinitely", **extra))
        state.emit(EventKind.EFFECT, player, (land,), detail="becomes a 0/0 land creature with haste",
                   citation=cite("a"))
        if n > 0:
            state.add_counters(land, "+1/+1", n)
            state.emit(EventKind.COUNTER, player, (land,), amount=n, detail=f"{n} +1/+1 counter(s)", citation=cite("a"))
        _watch_for_leaving(state, player, land, state.incarnation.get(land, 0))
        state.emit(EventKind.EFFECT, player, (land,), detail=f"{player} earthbends: a delayed triggered ability is "
                   "created (when that land dies or is put into exile, return it tapped)", citation=cite("b"))
    return True


def _watch_for_leaving(state: GameState, player: str, land: int, incarnation: int) -> None:
    name = state.cards[land].oracle.name

    def watcher(state: GameState, event: Event) -> None:
        if land not in event.cards or event.source != state.battlefield.label:
            return
        if state.incarnation.get(land, 0) != incarnation + 1:      # only the object earthbent leaving, once
            return
        zone = state.zone_of(land) if land in state.cards else None
        if zone is None or zone.kind not in (ZoneKind.GRAVEYARD, ZoneKind.EXILE):
            return
        if any(t.source.card == land and t.line == DELAYED_LINE for t in state.pending_triggers):
            return
        state.append(state.pending_triggers, TriggeredAbility(
            state.ref(land), name, player, "When that land dies or is put into exile, return it to the battlefield "
            "tapped under your control.", event, line=DELAYED_LINE))
        state.emit(EventKind.NOTHING, player, (land,), detail="the delayed triggered ability of earthbend triggers",
                   citation=cite("a"))

    state.append(state.watchers, watcher)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "earthbend", land = "Forest", n = 2 }``."""
    earthbend(run.state, player, run.card(str(step["land"])), int(step.get("n", 1)))
