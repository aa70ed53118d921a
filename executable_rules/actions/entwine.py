"""Entwine — CR 702.42 (702.42a–b)

Entwine is a static ability of modal spells: "Entwine [cost]" means "You may
choose all modes of this spell instead of just the number specified. If you
do, you pay an additional [cost]" (Entwine — CR 702.42a), announced with the
modes as the spell is cast (Casting Spells — CR 601.2b) and added to its total
cost (601.2f). An entwined spell follows each mode's text in the order written
(702.42b), its targets chosen for each mode in that order.

:func:`entwine` asks whether the cost is paid; the engine's mode choice
(``choose_mode`` in :mod:`executable_rules.engine.stack`) then keeps every mode.

>>> from executable_rules.model import OracleCard
>>> str(entwine_cost(OracleCard.simple("Barbed Lightning", "{2}{R}", "Sorcery", text="Choose one —\\n• A.\\n• B.\\n"
...                                    "Entwine {2}").main))
'{2}'
"""

from __future__ import annotations

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..model import Face, GameState, ManaCost
from ..oracle import parse_card

KEYWORD = "Entwine"
KIND = "keyword ability"
JAPANESE = ("双呪",)
SUBRULES = ("a", "b")
SUMMARY = "Choose all the modes of the modal spell by paying an additional cost."
OUT_OF_REACH: dict[str, str] = {}


def entwine_cost(face: Face) -> ManaCost | None:
    """The face's entwine cost (``Entwine {2}``); None without entwine, or for one that isn't mana."""
    argument = parse_card(face.name, face.text).keyword_argument(KEYWORD)
    if not argument or not argument.startswith("{"):
        return None
    return ManaCost.parse(argument.replace(" ", ""))


def entwine(state: GameState, player: str, face: Face, choose: Chooser) -> ManaCost | None:
    """``player`` announces whether they pay the face's entwine cost (702.42a); return the cost paid, or None."""
    cost = entwine_cost(face)
    if cost is None:
        return None
    answer = decide(state, Decision.of(player, f"{face.name}: pay entwine {cost} and choose all modes?",
                                       Citation(KEYWORD, "702.42a"),
                                       [Option(f"pay entwine {cost}", True), Option(f"don't pay entwine {cost}", False)]),
                    choose)
    return cost if answer.value else None
