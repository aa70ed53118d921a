"""Aura Swap — CR 702.65 (702.65a–b)

"Aura swap [cost]" means "[Cost]: You may exchange this permanent with an
Aura card in your hand." (Aura Swap — CR 702.65a): the Aura on the battlefield
goes to its owner's hand and the Aura card from the hand enters the
battlefield attached to what the first one enchanted. If either half of the
exchange can't be completed, the ability has no effect (702.65b): the Aura card
in hand can't enchant that permanent (Enchant — CR 702.5a), the Aura isn't the
activating player's own (it would go to its owner's hand, not theirs), or the
Aura has left the battlefield before the ability resolves.

The engine writes aura swap out as that ability (:data:`MEANS`) and reads it
with the Oracle grammar; :func:`exchange` carries out its effect.

>>> from executable_rules.model import OracleCard
>>> str(aura_swap(OracleCard.simple("Arcanum Wings", "{1}{U}", "Enchantment", subtypes=("Aura",),
...     text="Enchant creature\\nEnchanted creature has flying.\\nAura swap {2}{U}")))
'{2}{U}'
"""

from __future__ import annotations

from typing import Any

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..model import EventKind, GameState, ManaCost, OracleCard

KEYWORD = "Aura Swap"
KIND = "keyword ability"
JAPANESE = ("オーラ交換",)
SUBRULES = ("a", "b")
SUMMARY = "Pay the cost: exchange this Aura on the battlefield with an Aura card in your hand."
OUT_OF_REACH: dict[str, str] = {}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def written_out(argument: str) -> str:
    """The ability "Aura swap [cost]" stands for (702.65a)."""
    return f"{''.join(argument.split())}: Exchange ~ with an Aura card in your hand."


def aura_swap(card: OracleCard) -> ManaCost | None:
    """The cost of the card's "Aura swap [cost]", read from its Oracle text by the grammar (None without it)."""
    argument = card.parsed.keyword_argument(KEYWORD)
    return ManaCost.parse(argument.replace(" ", "")) if argument and argument.startswith("{") else None


def _no_effect(state: GameState, player: str, name: str, why: str) -> None:
    state.emit(EventKind.NOTHING, player, names=(name,), detail=f"{why}: the exchange can't be completed, so the "
               "ability has no effect", citation=Citation(KEYWORD, "702.65b"))


def exchange(state: GameState, ctx: Any, node: Any, choose: Chooser) -> None:
    """"You may exchange this permanent with an Aura card in your hand." as the ability resolves (702.65a–b)."""
    from ..engine.replacement import enter_battlefield
    from .attach import attached_object, enters_attached
    from .enchant import cant_enchant
    player, aura = ctx.controller, ctx.source
    name = ctx.name
    if aura not in state.cards or state.zone_of(aura) is not state.battlefield:
        _no_effect(state, player, name, "the Aura has left the battlefield")
        return
    card = state.cards[aura]
    enchanted = attached_object(state, aura)
    if card.owner != player:
        _no_effect(state, player, name, f"{card.oracle.name} is owned by {card.owner}, not by the player who "
                   f"activated the ability: it can't be put into {state.player(player).hand.label}")
        return
    if enchanted is None:
        _no_effect(state, player, name, f"{card.oracle.name} enchants nothing")
        return
    hand = state.player(player).hand
    auras = [c for c in hand.cards if "Aura" in state.cards[c].oracle.subtypes]
    fitting = [c for c in auras if cant_enchant(state, c, enchanted) is None]
    if not fitting:
        why = "no Aura card in hand" if not auras else (
            "no Aura card in hand can enchant " + (enchanted if isinstance(enchanted, str)
                                                   else state.cards[enchanted].display_name))
        _no_effect(state, player, name, why)
        return
    options = [Option(f"exchange with {state.cards[c].oracle.name}", c) for c in fitting]
    options.append(Option("don't exchange", None))
    answer = decide(state, Decision.of(player, f"{name}: exchange {card.oracle.name} with an Aura card in your hand?",
                                       Citation(KEYWORD, "702.65a"), options), choose)
    if answer.value is None:
        return
    new = int(answer.value)
    state.move(aura, hand)
    state.emit(EventKind.MOVE, player, (aura,), names=(card.oracle.name,), source="battlefield",
               destination=hand.label, detail="exchanged: to its owner's hand", citation=Citation(KEYWORD, "702.65a"))
    enter_battlefield(state, new, player, choose=choose, detail="exchanged: from the hand onto the battlefield")
    enters_attached(state, new, enchanted, Citation(KEYWORD, "702.65a"))
