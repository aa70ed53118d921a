"""Evoke — CR 702.74 (702.74a)

Evoke is two abilities: a static one, "You may cast this card by paying [cost] rather than paying its mana cost",
and a triggered one, "When this permanent enters, if its evoke cost was paid, its controller sacrifices it"
(Evoke — CR 702.74a). The evoke cost is an alternative cost (Casting Spells — CR 601.2b, 601.2f–h): the spell's
mana cost and mana value don't change. :func:`evoke` casts a card for its evoke cost; the permanent it becomes
remembers that the cost was paid (a new object that enters otherwise — returned by Exhume — doesn't), and the
engine writes the trigger out as :data:`MEANS` (its "if" is checked as it triggers:
Handling Triggered Abilities — CR 603.4), so the card's own enters abilities trigger beside it and their
controller orders them.

>>> from executable_rules.model import OracleCard
>>> str(evoke_cost(OracleCard.simple("Shriekmaw", "{4}{B}", "Creature", text="Fear\\nEvoke {1}{B}").main))
'{1}{B}'
"""

from __future__ import annotations

from typing import Any

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, Face, GameState, ManaCost, Spell

KEYWORD = "Evoke"
KIND = "keyword ability"
JAPANESE = ("想起",)
SUBRULES = ("a",)
SUMMARY = "Cast the card for its evoke cost; when it enters, if that cost was paid, its controller sacrifices it."
OUT_OF_REACH: dict[str, str] = {}
MEANS = "When this permanent enters, if its evoke cost was paid, its controller sacrifices it."
"""The triggered ability evoke stands for (702.74a), read by the grammar like a printed line."""
STEP_KEYS = {"player", "card", "targets"}
"""``do = "evoke"``: cast ``card`` from its owner's hand for its evoke cost (``targets`` as for ``cast_spell``)."""


def evoke_cost(face: Face) -> ManaCost | None:
    """The face's "Evoke [mana cost]"; None without one (or for a cost that isn't mana)."""
    from ..oracle import parse_card
    argument = parse_card(face.name, face.text).keyword_argument(KEYWORD)
    try:
        return ManaCost.parse(argument) if argument and argument.startswith("{") else None
    except ValueError:
        return None


def evoke(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> Spell:
    """``player`` casts ``card`` paying its evoke cost rather than its mana cost (702.74a)."""
    from ..engine.stack import cast_spell
    c = state.cards[card]
    cost = evoke_cost(c.oracle.main)
    if cost is None:
        raise IllegalChoice(f"evoke {c.oracle.name}", f"{c.oracle.name} has no evoke cost in mana",
                            Citation(KEYWORD, "702.74a"))
    spell = cast_spell(state, player, card, instead=cost, instead_name="evoke", choose=choose)
    state.emit(EventKind.NOTHING, player, (card,), detail=f"cast for its evoke cost {cost} rather than its mana cost "
               f"{c.oracle.mana_cost}", citation=Citation(KEYWORD, "702.74a"))
    return spell


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "evoke", card = "Shriekmaw", targets = [...] }``."""
    from ..scenarios import _Targets
    if "targets" in step:
        choose = _Targets(run, step["targets"], choose)
    evoke(run.state, player, run.card(step["card"], zone=f"{player}.hand"), choose=choose)
