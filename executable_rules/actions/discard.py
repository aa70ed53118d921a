"""Discard — CR 701.9 (701.9a–b)

To discard a card is to move it from its owner's hand to that player's
graveyard (701.9a). The player who discards chooses which card, unless the
effect says the discard is at random or that another player chooses (701.9b).
A player told to discard more cards than they have discards their hand.

Every discard in the engine goes through this module: effects ("Target player
discards two cards", "… discards two cards at random", "You choose a nonland
card from it. That player discards that card."), costs ("As an additional cost
to cast this spell, discard a card", Casting Spells — CR 601.2h) and the
instructions of villainous choices.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice", "Bob"])
>>> for n in ("Shock", "Opt", "Forest"):
...     _ = state.add_card(OracleCard.simple(n, "{R}", "Instant"), "Bob", ZoneKind.HAND)
>>> [state.cards[c].name for c in discard_cards(state, "Bob", 2, choose=Scripted(["discard Opt", "discard Forest"]))]
['Opt', 'Forest']
>>> state.events[-1].describe()
"Bob: move Forest from Bob's hand to Bob's graveyard — discarded (chosen by Bob) (Discard — CR 701.9b)"
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Discard"
KIND = "keyword action"
JAPANESE = ("捨てる",)
SUBRULES = ("a", "b")
SUMMARY = "Move a card from its owner's hand to their graveyard; by default the discarding player chooses it."
OUT_OF_REACH = {
    "c": "the model has no effect that puts a discarded card into a hidden zone instead of the graveyard, nor a "
         "cost that names a characteristic of the discarded card, so an undefined discarded card can't arise",
}

STEP_KEYS = {"card", "player", "count", "random", "chooser"}
"""``do = "discard"``: ``player`` discards ``card`` (from their hand), or ``count`` cards chosen by them, by
``chooser`` (another player), or ``random = true``."""


def discard(state: GameState, player: str, card: int, *, detail: str = "discarded",
            citation: Citation | None = None) -> bool:
    """``player`` discards ``card`` from their hand; return whether it reached their graveyard (a replacement
    effect may send it elsewhere). :class:`IllegalChoice` if it isn't in their hand."""
    hand = state.player(player).hand
    c = state.cards[card]
    if state.zone_of(card) is not hand:
        raise IllegalChoice(f"discard {c.display_name}", f"it is in {state.zone_of(card).label}, not {hand.label}",
                            Citation(KEYWORD, "701.9a"))
    graveyard = state.player(c.owner).graveyard
    name = c.display_name
    state.move(card, graveyard)
    state.emit(EventKind.MOVE, player, (card,), names=(name,), source=hand.label, destination=state.zone_of(card).label,
               detail=detail, citation=citation or Citation(KEYWORD, "701.9a"))
    return state.zone_of(card) is graveyard


def discard_cards(state: GameState, player: str, n: int, *, chooser: str | None = None, at_random: bool = False,
                  fits: Callable[[int], bool] | None = None, description: str = "card",
                  choose: Chooser = first_legal) -> list[int]:
    """``player`` discards ``n`` cards (as many as they have), one at a time: chosen by ``player``, by
    ``chooser``, or at random (701.9b); ``fits`` limits the cards that may be chosen. Return them."""
    hand = state.player(player).hand
    who = chooser or player
    done: list[int] = []
    for i in range(n):
        pool = [c for c in hand.cards if fits is None or fits(c)]
        if not pool:
            if i == 0 or fits is not None:
                state.emit(EventKind.NOTHING, player, detail=f"no {description} in hand to discard",
                           citation=Citation(KEYWORD, "701.9a"))
            else:
                state.emit(EventKind.NOTHING, player, detail="no card left to discard", citation=Citation(KEYWORD, "701.9a"))
            break
        if at_random:
            card = state.random_order(pool)[0]
            how = "chosen at random"
        else:
            prompt = f"{player} discards {description} ({i + 1} of {n})" if n > 1 else f"{player} discards {description}"
            answer = decide(state, Decision.of(who, prompt, Citation(KEYWORD, "701.9b"),
                                               [Option(f"discard {state.cards[c].display_name}", c) for c in pool]), choose)
            card = answer.value
            how = f"chosen by {who}"
        discard(state, player, card, detail=f"discarded ({how})", citation=Citation(KEYWORD, "701.9b"))
        done.append(card)
    return done


def discard_hand(state: GameState, player: str) -> list[int]:
    """``player`` discards their hand."""
    cards = list(state.player(player).hand.cards)
    for card in cards:
        discard(state, player, card, detail="discarded (the whole hand)")
    return cards


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "discard", card = "Shock" }`` or ``{ do = "discard", count = 2, random = true }``."""
    if "card" in step:
        discard(run.state, player, run.card(step["card"], zone=f"{player}.hand"))
        return
    chooser = run.player(step, "chooser") if "chooser" in step else None
    discard_cards(run.state, player, int(step.get("count", 1)), chooser=chooser, at_random=bool(step.get("random")),
                  choose=choose)
