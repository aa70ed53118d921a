"""Toxic — CR 702.164 (702.164a–c)

Toxic is a static ability written "toxic N" (702.164a). Combat damage dealt to a player by a creature with
toxic also gives that player poison counters equal to the creature's total toxic value — the sum of the N of
all its toxic abilities (702.164b) — besides the damage's other results (702.164c); ten poison counters lose the
game (State-Based Actions — CR 704.5c). No card of the corpus has toxic (the mechanic is from 2023): the
scenarios use the invented card "Test: Toxic Rat" (``data/cards.toml``). The damage itself is
:func:`executable_rules.engine.effects.damage`. Implemented here: Toxic — CR 702.164a, 702.164c.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> rat = state.add_card(OracleCard.simple("Test: Toxic Rat", "{1}{B}", "Creature", power="1", toughness="1",
...                      text="Toxic 2"), "you", ZoneKind.BATTLEFIELD)
>>> toxic(state, rat)
2
"""

from __future__ import annotations

from ..engine.effects import total_toxic_value
from ..model import GameState

KEYWORD = "Toxic"
KIND = "keyword ability"
JAPANESE = ("毒性",)
SUBRULES = ("a", "c")
SUMMARY = "Combat damage it deals to a player also gives that player poison counters equal to its total toxic value."
OUT_OF_REACH: dict[str, str] = {
    "b": "the total of several toxic abilities needs a creature that gains toxic from an effect (the rule's example: "
         "toxic 2 gaining toxic 1); granted toxic isn't read, and no corpus card has toxic at all",
}
"""Subrules the model doesn't run, each with the reason."""

EXAMPLES_OUT_OF_REACH = {("702.164b", 1): OUT_OF_REACH["b"]}
"""CR examples of this rule the model can't run, each with the reason."""


def toxic(state: GameState, card: int) -> int:
    """The total toxic value of ``card``: the sum of the N of its printed toxic abilities (0 without toxic)."""
    return total_toxic_value(state, card)
