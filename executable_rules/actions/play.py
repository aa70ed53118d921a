"""Play — CR 701.18 (701.18a–b)

To play a land is to put it onto the battlefield from where it is (usually
the hand), as a special action that doesn't use the stack: a player may do so
when they have priority in a main phase of their own turn with an empty
stack, if they haven't played a land this turn (701.18a; Lands — CR 305.1,
305.2) — or as many more as effects allow. Putting a land onto the
battlefield with a spell or ability isn't playing it, so it doesn't use the
land play. To play a card is to play it as a land or cast it as a spell,
whichever it is (701.18b).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> forests = [state.add_card(OracleCard.simple("Forest", None, "Land", supertypes=("Basic",)), "Alice", ZoneKind.HAND)
...            for _ in range(2)]
>>> play_land(state, "Alice", forests[0]); state.names(state.battlefield)
['Forest']
>>> play_land(state, "Alice", forests[1])
Traceback (most recent call last):
...
executable_rules.errors.IllegalChoice: illegal choice 'play Forest': a player may play a land in their own main phase with an empty stack, 1 per turn (1 played) (Lands — CR 305.2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Play"
KIND = "keyword action"
JAPANESE = ("プレイする", "プレイ")
SUBRULES = ("a", "b")
SUMMARY = "Play a land (a special action, one a turn) or cast a spell, whichever the card is."
OUT_OF_REACH = {
    "c": "\"play with …\" in the sense of playing the game is wording, not an action (the one such effect the "
         "model has, a revealed top card, is Search's)",
    "d": "a note on Oracle errata (\"play\" a spell became \"cast\"): the corpus's Oracle text already says cast",
    "e": "a note on Oracle errata (\"play\" an ability became \"activate\"): the corpus's Oracle text already says "
         "activate",
}

STEP_KEYS = {"player", "card", "targets"}
"""``do = "play"``: ``player`` plays ``card`` from their hand: a land is played, anything else cast."""


def play_land(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> None:
    """``player`` plays the land ``card`` (a special action: no stack)."""
    from ..engine.replacement import enter_battlefield
    p = state.player(player)
    name = state.cards[card].display_name
    if not state.cards[card].is_land:
        raise IllegalChoice(f"play {name}", "only a land card is played", Citation("Lands", "305.1"))
    if p.lands_played >= p.land_plays or state.active != player or "main" not in state.step or state.stack.cards:
        raise IllegalChoice(f"play {name}", "a player may play a land in their own main phase with an empty stack, "
                            f"{p.land_plays} per turn ({p.lands_played} played)", Citation("Lands", "305.2"))
    state.set(p, "lands_played", p.lands_played + 1)
    enter_battlefield(state, card, player, choose=choose, detail="played (a special action: Play — CR 701.18a)")


def play(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> None:
    """``player`` plays ``card``: plays it as a land, or casts it as a spell (701.18b)."""
    from ..engine.stack import cast_spell
    if state.cards[card].is_land:
        play_land(state, player, card, choose=choose)
    else:
        cast_spell(state, player, card, choose=choose)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "play", card = "Forest" }``."""
    from ..scenarios import _Targets
    if "targets" in step:
        choose = _Targets(run, step["targets"], choose)
    play(run.state, player, run.card(step["card"], zone=f"{player}.hand"), choose=choose)
