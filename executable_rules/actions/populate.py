"""Populate — CR 701.36 (701.36a–b)

To populate, a player chooses a creature token they control and creates a token
that's a copy of it (Populate — CR 701.36a): the copy has the original's
copiable values (Copying Objects — CR 707.2), not its counters, damage or
tapped state. A player who controls no creature token creates nothing
(701.36b). The creature token is chosen as populate happens: it isn't a target.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> bird = OracleCard.simple("Bird Token", None, "Creature", power="1", toughness="1", is_token=True)
>>> first = state.add_card(bird, "Alice", ZoneKind.BATTLEFIELD)
>>> copy = populate(state, "Alice")
>>> state.names(state.battlefield)
['Bird Token', 'Bird Token']
>>> populate(GameState.new(["Bob"]), "Bob") is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState, ZoneKind

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Populate"
KIND = "keyword action"
JAPANESE = ("居住する", "居住")
SUBRULES = ("a", "b")
SUMMARY = "Create a token that's a copy of a creature token you control."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player"}


def populate(state: GameState, player: str, *, choose: Chooser = first_legal) -> int | None:
    """``player`` populates; return the new token (``None`` if they control no creature token, 701.36b)."""
    from ..engine.layers import characteristics
    tokens = [c.id for c in state.permanents(player) if c.is_token and "Creature" in characteristics(state, c.id).types]
    if not tokens:
        state.emit(EventKind.NOTHING, player, detail="populate: no creature token to copy, so no token is created",
                   citation=Citation(KEYWORD, "701.36b"))
        return None
    with state.action("populate"):
        answer = decide(state, Decision.of(player, "populate: copy which creature token", Citation(KEYWORD, "701.36a"),
                                           [Option(f"copy {state.cards[t].display_name}", t) for t in tokens]), choose)
        original = state.cards[answer.value]
        token = state.add_card(original.oracle, player, ZoneKind.BATTLEFIELD)
        state.emit(EventKind.CREATE, player, (token,), destination="battlefield",
                   detail=f"a token that's a copy of {original.display_name}", citation=Citation(KEYWORD, "701.36a"))
        state.emit(EventKind.MOVE, player, (token,), destination="battlefield", detail="a token enters",
                   citation=Citation("Tokens", "111.1"))
    return token


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "populate" }``."""
    populate(run.state, player, choose=choose)
