"""Sacrifice — CR 701.21 (701.21a)

To sacrifice a permanent, its controller moves it from the battlefield
directly to its owner's graveyard (701.21a). A player can sacrifice only a
permanent they control: not a card in another zone, not another player's
permanent. Sacrificing isn't destroying, so neither regeneration nor
indestructible can stop it (Destroy — CR 701.8b, Regenerate — CR 701.19c).

Every sacrifice in the engine goes through this module: effects ("Target
player sacrifices a creature"), costs ("Sacrifice a creature:",
Activating Activated Abilities — CR 602.2b; "As an additional cost to cast
this spell, sacrifice a creature", Casting Spells — CR 601.2h) and the
instructions of villainous choices.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice", "Bob"])
>>> myr = state.add_card(OracleCard.simple("Darksteel Myr", "{3}", "Artifact Creature", power="0", toughness="1",
...                      indestructible=True), "Bob", ZoneKind.BATTLEFIELD, controller="Alice")
>>> sacrifice(state, "Bob", myr)
Traceback (most recent call last):
...
executable_rules.errors.IllegalChoice: illegal choice 'sacrifice Darksteel Myr': a player can sacrifice only a permanent they control; Alice controls it (Sacrifice — CR 701.21a)
>>> sacrifice(state, "Alice", myr), state.names(state.player("Bob").graveyard)
(True, ['Darksteel Myr'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Sacrifice"
KIND = "keyword action"
JAPANESE = ("生け贄に捧げる", "生け贄")
SUBRULES = ("a",)
SUMMARY = "Its controller moves a permanent they control from the battlefield to its owner's graveyard."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"card", "player"}
"""``do = "sacrifice"``: ``player`` sacrifices ``card`` (refused if it isn't a permanent they control)."""


def sacrifice(state: GameState, player: str, card: int, *, detail: str = "sacrificed") -> bool:
    """``player`` sacrifices the permanent ``card``; return whether it reached its owner's graveyard (a
    replacement effect may send it elsewhere). :class:`IllegalChoice` if it isn't a permanent they control."""
    from ..engine.replacement import put_into_graveyard
    c = state.cards[card]
    action = f"sacrifice {c.display_name}"
    if state.zone_of(card) is not state.battlefield:
        raise IllegalChoice(action, f"it is in {state.zone_of(card).label}: only a permanent can be sacrificed",
                            Citation(KEYWORD, "701.21a"))
    if c.controller != player:
        raise IllegalChoice(action, f"a player can sacrifice only a permanent they control; {c.controller} controls it",
                            Citation(KEYWORD, "701.21a"))
    return put_into_graveyard(state, card, detail, Citation(KEYWORD, "701.21a"))


def sacrifice_one(state: GameState, player: str, fits: Callable[[int], bool], description: str, *,
                  choose: Chooser = first_legal, detail: str = "sacrificed", citation: Citation | None = None,
                  exclude: Sequence[int] = ()) -> int | None:
    """``player`` chooses one of the permanents they control that ``fits`` and sacrifices it; return it
    (``None``, with a note, when they control none)."""
    pool = [c.id for c in state.permanents(player) if fits(c.id) and c.id not in exclude]
    if not pool:
        what = description.removeprefix("a ").removeprefix("an ")
        state.emit(EventKind.NOTHING, player, detail=f"no {what} to sacrifice", citation=Citation(KEYWORD, "701.21a"))
        return None
    answer = decide(state, Decision.of(player, f"sacrifice {description}", citation or Citation(KEYWORD, "701.21a"),
                                       [Option(f"sacrifice {state.cards[c].display_name}", c) for c in pool]), choose)
    sacrifice(state, player, answer.value, detail=detail)
    return int(answer.value)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "sacrifice", card = "Grizzly Bears", player = "opponent" }``."""
    sacrifice(run.state, player, run.card(step["card"]))
