"""Activate — CR 701.2 (701.2a)

To activate an activated ability is to put it on the stack and pay its costs,
so that it will resolve (701.2a; Activating Activated Abilities — CR 602).
Only the object's controller — or its owner, if it has no controller — can
activate its abilities unless the object says otherwise: a player told to
activate another player's permanent's ability is refused. A mana ability
doesn't use the stack; it resolves as it is activated
(Mana Abilities — CR 605.3a). The engine's :func:`executable_rules.engine.stack.activate` does
the work; this module names the rule and checks who may activate.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice", "Bob"])
>>> elves = state.add_card(OracleCard.simple("Llanowar Elves", "{G}", "Creature", power="1", toughness="1",
...                        text="{T}: Add {G}."), "Bob", ZoneKind.BATTLEFIELD)
>>> activate(state, "Alice", elves, "{T}")
Traceback (most recent call last):
...
executable_rules.errors.IllegalChoice: illegal choice "activate Llanowar Elves's ability": only its controller, Bob, can activate its activated abilities (Activate — CR 701.2a)
>>> activate(state, "Bob", elves, "{T}"); state.player("Bob").mana
('G',)
"""

from __future__ import annotations

from ..choices import Chooser, first_legal
from ..model import GameState

KEYWORD = "Activate"
KIND = "keyword action"
JAPANESE = ("起動する", "起動")
SUBRULES = ("a",)
SUMMARY = "Put an activated ability on the stack and pay its costs; only its object's controller may."
OUT_OF_REACH: dict[str, str] = {}


def activate(state: GameState, player: str, card: int, which: str = "", *, x: int = 0,
             choose: Chooser = first_legal) -> None:
    """``player`` activates the ability of ``card`` whose text starts with ``which``."""
    from ..engine.stack import activate as activate_ability
    activate_ability(state, player, card, which, x=x, choose=choose)
