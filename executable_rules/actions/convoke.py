"""Convoke — CR 702.51 (702.51a–c)

Convoke is a static ability that works while its spell is on the stack: for
each coloured mana in the spell's total cost, its controller may tap an
untapped creature of that colour they control rather than pay that mana, and
for each generic mana, any untapped creature they control (Convoke — CR 702.51a).
It is neither an additional nor an alternative cost: it applies only once the
total cost is determined, after cost increases and reductions (702.51b), so a
reduction such as Heartless Summoning's lowers the part creatures may pay.
A creature tapped this way has "convoked" the spell (702.51c).

:func:`convoke` is asked by :func:`~executable_rules.engine.stack.cast_spell`
(through :func:`pay_part_of_cost`) once the total cost is known and before
mana is paid (Casting Spells — CR 601.2g–h): for each untapped creature the
caster controls, tap it for one coloured symbol of its colour, for one generic
mana, or not at all. What is left is paid with mana.

>>> from executable_rules.model import GameState, ManaCost, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["you"])
>>> bears = OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2")
>>> ogre = OracleCard.simple("Gray Ogre", "{2}{R}", "Creature", power="2", toughness="2")
>>> ids = [state.add_card(o, "you", ZoneKind.BATTLEFIELD) for o in (bears, ogre)]
>>> left, tapped = convoke(state, "you", "Siege Wurm", ManaCost.parse("{5}{G}{G}"),
...                        choose=Scripted(["tap Grizzly Bears for {G}", "tap Gray Ogre for {1}"]))
>>> str(left), [state.cards[c].name for c in tapped]
('{4}{G}', ['Grizzly Bears', 'Gray Ogre'])
>>> state.events[-1].describe()
'you: tap Gray Ogre — convoked Siege Wurm: pays {1} (Convoke — CR 702.51c)'
"""

from __future__ import annotations

from typing import Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from .tap_and_untap import tap_as_cost
from ..model import EventKind, Face, GameState, ManaCost

KEYWORD = "Convoke"
KIND = "keyword ability"
JAPANESE = ("召集",)
SUBRULES = ("a", "b", "c")
SUMMARY = "Tap untapped creatures you control to pay for a spell's total cost: one coloured mana of their colour or one generic each."
OUT_OF_REACH = {
    "d": "no card in the corpus has convoke twice and the model grants no convoke, so redundant instances never meet",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""

_COLORS = "WUBRG"


def _expand(cost: ManaCost, x: int) -> list[str]:
    """The cost's symbols with X as generic mana: coloured symbols, then one ``"1"`` per generic mana."""
    colored: list[str] = []
    generic = 0
    for s in cost.symbols:
        if s.isdigit():
            generic += int(s)
        elif s in ("X", "Y", "Z"):
            generic += x
        else:
            colored.append(s)
    return colored + ["1"] * generic


def _cost_of(symbols: list[str]) -> ManaCost:
    generic = symbols.count("1")
    rest = tuple(s for s in symbols if s != "1")
    return ManaCost(((str(generic),) if generic or not rest else ()) + rest)


def convoke(state: GameState, player: str, spell: str, cost: ManaCost, *, x: int = 0,
            choose: Chooser = first_legal) -> tuple[ManaCost, list[int]]:
    """``player`` may tap untapped creatures to pay for ``spell``'s total ``cost`` (702.51a); return what is
    left to pay with mana (X counted in) and the creatures tapped."""
    from ..engine.layers import characteristics
    left = _expand(cost, x)
    tapped: list[int] = []
    for card in [c for c in state.permanents(player) if not c.tapped]:
        ch = characteristics(state, card.id)
        if "Creature" not in ch.types or not left:
            continue
        name = card.display_name
        options = [Option(f"don't tap {name}", None)]
        for symbol in dict.fromkeys(s for s in left if s != "1"):
            colors = {c for c in symbol.split("/") if c in _COLORS}
            if colors & ch.colors:
                options.append(Option(f"tap {name} for {{{symbol}}}", symbol))
            else:
                options.append(Option(f"tap {name} for {{{symbol}}}", symbol, False,
                                      f"{name} is {' and '.join(ch.color_names)}: it pays only {{1}} or mana of its colour",
                                      Citation(KEYWORD, "702.51a")))
        if "1" in left:
            options.append(Option(f"tap {name} for {{1}}", "1"))
        answer = decide(state, Decision.of(player, f"convoke {spell}: tap {name}?", Citation(KEYWORD, "702.51a"),
                                           options), choose)
        if answer.value is None:
            continue
        left.remove(answer.value)
        tap_as_cost(state, player, card.id, f"convoke {spell}", detail=f"convoked {spell}: pays {{{answer.value}}}",
                    citation=Citation(KEYWORD, "702.51c"))
        tapped.append(card.id)
    return _cost_of(left), tapped


def pay_part_of_cost(state: GameState, player: str, card: int, face: Face, cost: ManaCost, x: int,
                     choose: Chooser) -> tuple[ManaCost, int]:
    """What :func:`~executable_rules.engine.stack.cast_spell` asks of a spell with convoke once its total cost
    is determined (702.51b): the cost left after creatures paid what the player chose, with X now counted in
    it (so the returned X is 0), or ``cost`` and ``x`` unchanged for a spell without convoke."""
    from ..oracle import parse_card
    if not parse_card(face.name, face.text).has_keyword(KEYWORD):
        return cost, x
    left, tapped = convoke(state, player, face.name, cost, x=x, choose=choose)
    state.emit(EventKind.PAY, player, names=(face.name,),
               detail=f"total cost {cost}" + (f" with X={x}" if cost.has_x else "")
               + f"; {len(tapped)} creature(s) convoked it; {left} left to pay with mana",
               citation=Citation(KEYWORD, "702.51b"))
    return left, 0


def tapped_creatures(state: GameState, player: str | None, expected: Any) -> Any:
    """``convoked = ["Grizzly Bears", …]``: the creatures that convoked a spell (702.51c), as a multiset."""
    got = sorted(e.names[0] for e in state.events
                 if e.kind is EventKind.TAP and e.citation == Citation(KEYWORD, "702.51c"))
    return expected if isinstance(expected, list) and sorted(expected) == got else got


EXPECT = {"convoked": tapped_creatures}
