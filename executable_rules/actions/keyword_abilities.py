"""Keyword Abilities — CR 702 (702.1a–c)

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

An effect that says "the same is true for" a list of keywords grants every variant of each: Concerted
Effort grants each landwalk and each protection found among your creatures to each of them (702.1c).

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
from typing import Any

from ..choices import Chooser
from ..citation import Citation
from ..model import Card, ContinuousEffect, Event, EventKind, GameState, TriggeredAbility
from ..oracle.keywords import canonical_keyword

KEYWORD = "Keyword Abilities"
KIND = "rule"
JAPANESE = ("キーワード能力",)
SUBRULES = ("1a", "1b", "1c")
SUMMARY = "General rules of keyword abilities: a keyword's cost is its variable cost; a variable a granting effect defines is reevaluated constantly."
EXAMPLES_OUT_OF_REACH: dict[tuple[str, int], str] = {}
"""CR examples of these rules that aren't scenarios, with the reason."""
OUT_OF_REACH = {
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


_SAME_IS_TRUE = re.compile(r"^at the beginning of each upkeep, creatures you control gain (?P<first>[a-z ]+) until end "
                           r"of turn if a creature you control has (?P=first)\. the same is true for (?P<rest>[a-z ,]+)\.$")


READS_LINES = (_GRANTED, _SAME_IS_TRUE)
"""Lines this module applies by reading their text (the grammar has no template): a run doesn't report them unread."""


def _same_is_true(card: Card) -> list[tuple[int, list[str]]]:
    """(line, keyword titles) of "… The same is true for [keywords]." upkeep abilities (Concerted Effort), read by text:
    the grammar has no template for it."""
    found = []
    for ability in card.oracle.parsed.abilities:
        m = _SAME_IS_TRUE.match(ability.text)
        if m:
            words = [m["first"]] + [w.strip().removeprefix("and ").strip() for w in m["rest"].split(",")]
            found.append((ability.line, [canonical_keyword(w) or w for w in words if w]))
    return found


def keyword_triggers(state: GameState, card: Card, event: Event) -> list[tuple[int, str]]:
    """Concerted Effort's ability triggers at the beginning of each upkeep."""
    if event.kind is not EventKind.STEP or not event.detail.startswith("upkeep"):
        return []
    return [(line, "the same is true for " + ", ".join(words)) for line, words in _same_is_true(card)]


def resolve_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    """Each keyword of the list that a creature you control has is granted, every variant of it, to each creature
    you control until end of turn (702.1c)."""
    from ..engine.layers import characteristics
    words = next((w for line, w in _same_is_true(state.cards[ability.source.card]) if line == ability.line), [])
    creatures = [c.id for c in state.permanents(ability.controller) if "Creature" in characteristics(state, c.id).types]
    granted: list[str] = []
    for title in words:
        for creature in creatures:
            for label in _instances(state, creature, title):
                if label not in granted:
                    granted.append(label)
    if not granted:
        state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                   detail="no creature you control has any of them", citation=Citation(KEYWORD, "702.1c"))
        return
    state.append(state.continuous, ContinuousEffect(ability.label, "6", tuple(state.ref(c) for c in creatures),
                                                    state.stamp(), keywords=tuple(granted)))
    state.emit(EventKind.EFFECT, ability.controller, tuple(creatures),
               detail="each gains " + ", ".join(granted) + " until end of turn: every variant found",
               citation=Citation(KEYWORD, "702.1c"))


def _instances(state: GameState, creature: int, title: str) -> list[str]:
    """The instances of ``title`` a creature has, as granted: ``Landwalk swampwalk`` and ``Protection from red``
    carry their variant, beside the title itself."""
    from ..engine.layers import characteristics
    found = []
    keywords = characteristics(state, creature).keywords
    for printed, argument in state.cards[creature].oracle.parsed.keywords:
        if printed == title:
            found += [title] + ([f"{title} {argument}"] if argument else [])
    found += [k for k in keywords if k == title or k.startswith(title + " ")]
    return list(dict.fromkeys(found))


def keywords_of(state: GameState, player: str | None, expected: Any) -> Any:
    """``has_keywords = { "Grizzly Bears" = ["Landwalk swampwalk", …] }``: these keyword abilities (granted variants
    included) are among the permanent's now (as a list of those expected that it has)."""
    from ..engine.layers import characteristics
    found = {}
    for name, wanted in expected.items():
        cards = [c for c in state.battlefield.cards if state.cards[c].oracle.name == name]
        have = characteristics(state, cards[0]).keywords if cards else frozenset()
        found[name] = [k for k in wanted if k in have]
    return found


EXPECT = {"has_keywords": keywords_of}
