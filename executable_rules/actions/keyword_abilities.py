"""Keyword Abilities — CR 702 (702.1a–b)

General rules of keyword abilities. A "[keyword ability] cost" is only that
keyword's variable cost (Keyword Abilities — CR 702.1a): the scavenge cost
Varolz, the Scar-Striped gives a creature card is its mana cost, and the
activation cost of its scavenge ability is that plus exiling it (see
:mod:`.scavenge`). An effect that grants an object a keyword
ability may define a variable in it from the object's characteristics or the
game state, and that value is reevaluated constantly
(Keyword Abilities — CR 702.1b): Volcano Hellion's "echo {X}, where X is your
life total" costs what the life total is as the echo ability resolves, not as
it triggered.

:func:`keyword_abilities` gives a permanent's keyword abilities with such
variables worked out now: those its keyword lines print, and those its own
text grants it with a variable ("~ has echo {X}, where X is your life total.").

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> hellion = state.add_card(OracleCard.simple("Volcano Hellion", "{2}{R}{R}", "Creature", power="6", toughness="5",
...     text="Volcano Hellion has echo {X}, where X is your life total."), "you", ZoneKind.BATTLEFIELD)
>>> state.player("you").life = 10
>>> keyword_abilities(state, hellion)
[('Echo', '{10}', 1)]
"""

from __future__ import annotations

import re

from ..model import GameState
from ..oracle.keywords import canonical_keyword

KEYWORD = "Keyword Abilities"
KIND = "rule"
JAPANESE = ("キーワード能力",)
SUBRULES = ("1a", "1b")
SUMMARY = "General rules of keyword abilities: a keyword's cost is its variable cost; a variable a granting effect defines is reevaluated constantly."
EXAMPLES_OUT_OF_REACH = {
    ("702.1b", 2): "Past in Flames granting flashback to the cards in a graveyard, and casting a split card's half "
                   "with flashback from a graveyard, aren't modelled",
}
"""CR examples of these rules that aren't scenarios, with the reason."""
OUT_OF_REACH = {
    "1c": "Concerted Effort's \"the same is true for …\" grant of every landwalk and protection variant isn't read "
          "by the grammar, and the model has no landwalk or protection variants to copy",
    "1d": "no ability of the model's cards refers to an object \"with [keyword ability]\" other than flying",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""

_GRANTED = re.compile(r"^~ has (?P<keyword>[a-z ]+) \{x\}, where x is (?P<variable>your life total)\.$", re.IGNORECASE)


def _value(state: GameState, controller: str, variable: str) -> int:
    if variable == "your life total":
        return state.player(controller).life
    raise ValueError(f"unknown variable {variable!r}")


def keyword_abilities(state: GameState, card: int) -> list[tuple[str, str, int]]:
    """(702 title, argument, line) of each keyword ability of ``card``, with a variable its own text defines
    evaluated now (702.1b): ``('Echo', '{10}', 1)`` for Volcano Hellion at 10 life."""
    c = state.cards[card]
    if c.face_down:
        return []
    found = []
    for ability in c.oracle.parsed.abilities:
        for title, argument in ability.keywords:
            found.append((title, argument.replace("} {", "}{"), ability.line))
        m = _GRANTED.match(ability.text)
        granted = canonical_keyword(m["keyword"]) if m else None
        if m and granted:
            found.append((granted, f"{{{_value(state, c.controller or c.owner, m['variable'])}}}", ability.line))
    return found
