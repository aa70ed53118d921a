"""Delve — CR 702.66 (702.66a–b)

Delve is a static ability that works while its spell is on the stack: "For each
generic mana in this spell's total cost, you may exile a card from your
graveyard rather than pay that mana" (Delve — CR 702.66a). It isn't an
additional or alternative cost: it applies only once the total cost is
determined (702.66b; Casting Spells — CR 601.2f), so it pays for the generic
part of a kicker cost too, but never for colored mana, and the spell's mana
value doesn't change. :func:`delve` is what
:func:`~executable_rules.engine.stack.cast_spell` asks before the mana is paid.

>>> from executable_rules.model import GameState, ManaCost, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice"])
>>> for _ in range(2):
...     _ = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature"), "Alice", ZoneKind.GRAVEYARD)
>>> str(delve(state, "Alice", ManaCost.parse("{4}{B}"), "Murderous Cut", choose=Scripted(["exile Grizzly Bears", "exile Grizzly Bears"])))
'{2}{B}'
>>> state.names(state.exile)
['Grizzly Bears', 'Grizzly Bears']
"""

from __future__ import annotations

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState, ManaCost, OracleCard

KEYWORD = "Delve"
KIND = "keyword ability"
JAPANESE = ("探査",)
SUBRULES = ("a", "b")
SUMMARY = "Exile cards from your graveyard to pay for the generic mana of the spell's total cost."
OUT_OF_REACH = {
    "c": "multiple instances of delve are redundant: no card of the corpus has delve twice or gives a spell delve",
}


def has_delve(card: OracleCard) -> bool:
    return card.parsed.has_keyword(KEYWORD)


def delve(state: GameState, player: str, cost: ManaCost, name: str, *, choose: Chooser = first_legal) -> ManaCost:
    """Let ``player`` exile cards from their graveyard for the generic mana of ``cost`` (the spell's total cost,
    702.66b); return what is left to pay with mana."""
    generic = sum(int(s) for s in cost.symbols if s.isdigit())
    graveyard = state.player(player).graveyard
    exiled = 0
    while exiled < generic and graveyard.cards:
        by_name = {state.cards[c].display_name: c for c in reversed(graveyard.cards)}   # same name: the same choice
        options = [Option(f"exile {name}", c) for name, c in reversed(by_name.items())]
        options.append(Option("stop delving", None))
        answer = decide(state, Decision.of(player, f"delve for {name}: exile a card from your graveyard to pay {{1}} "
                                           f"({generic - exiled} generic left)", Citation(KEYWORD, "702.66a"), options),
                        choose)
        if answer.value is None:
            break
        state.move(answer.value, state.exile)
        state.emit(EventKind.EXILE, player, (answer.value,), source=graveyard.label, destination="exile",
                   detail=f"delve: pays {{1}} of {name}'s total cost {cost}", citation=Citation(KEYWORD, "702.66a"))
        exiled += 1
    if not exiled:
        return cost
    left = generic - exiled
    colored = tuple(s for s in cost.symbols if not s.isdigit())
    return ManaCost(((str(left),) if left else ()) + colored)
