"""Foretell — CR 702.143 (702.143a–b)

Foretell works while its card is in a hand: any time a player has priority
during their own turn, they may pay {2} and exile a card with foretell from
their hand face down; they may look at it while it stays exiled, and cast it
after the current turn has ended by paying its foretell cost rather than its
mana cost (Foretell — CR 702.143a). The foretell cost is an alternative cost
(Casting Spells — CR 601.2b, 601.2f–h), and casting it follows its card type's
timing: a foretold instant can be cast on the next player's turn, a creature
or sorcery only in its owner's main phase. Exiling it is a special action
(702.143b; Special Actions — CR 116.2h): it uses no stack, and can be done
with spells on the stack.

>>> from executable_rules.model import OracleCard
>>> str(foretell_cost(OracleCard.simple("Demon Bolt", "{2}{R}", "Instant",
...                   text="Demon Bolt deals 4 damage to target creature or planeswalker.\\nForetell {R}")))
'{R}'
"""

from __future__ import annotations

from typing import Any

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, FaceDown, GameState, ManaCost, OracleCard, Spell

KEYWORD = "Foretell"
KIND = "keyword ability"
JAPANESE = ("予顕",)
SUBRULES = ("a", "b")
SUMMARY = "During your turn, pay {2} to exile the card face down from your hand; cast it on a later turn for its foretell cost."
OUT_OF_REACH = {
    "c": "\"if this spell was foretold\" (Poison the Cup, Starnheim Unleashed, Haunting Voyage) is read by no template "
         "of the grammar, so nothing asks whether a spell was foretold",
    "d": "no card the grammar reads makes a card in exile become foretold",
    "e": "telling several face-down foretold cards apart is a duty of the physical game: the model keeps each exiled "
         "card as its own object, with the turn it was foretold",
    "f": "players don't leave the game in the model and it has no end-of-game reveal",
}
STEP_KEYS = {"player", "card", "cast", "targets"}
"""The keys of the scenario step ``{ do = "foretell", card = "Demon Bolt" }`` (``cast = true`` casts a foretold card)."""

FORETELL_PAYMENT = ManaCost.parse("{2}")
"""What foretelling costs (702.143a)."""
FORETOLD_ON = "foretold on turn "


def foretell_cost(card: OracleCard) -> ManaCost | None:
    """The card's foretell cost ("Foretell {1}{U}"); None without foretell."""
    argument = card.parsed.keyword_argument(KEYWORD)
    cost = "".join((argument or "").split())
    return ManaCost.parse(cost) if cost.startswith("{") else None


def foretold_on(state: GameState, card: int) -> int | None:
    """The turn the exiled card was foretold (None if it isn't a foretold card now)."""
    key = state.incarnation.get(card, 0)
    return next((int(name.removeprefix(FORETOLD_ON)) for c, incarnation, name in state.designations
                 if c == card and incarnation == key and name.startswith(FORETOLD_ON)), None)


def foretell(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> None:
    """``player`` pays {2} and exiles ``card`` from their hand face down (702.143a): a special action (702.143b)."""
    from ..engine.mana import pay_mana
    c = state.cards[card]
    name = c.oracle.name
    if foretell_cost(c.oracle) is None:
        raise IllegalChoice(f"foretell {name}", f"{name} has no foretell", Citation(KEYWORD, "702.143a"))
    if state.zone_of(card) is not state.player(player).hand:
        raise IllegalChoice(f"foretell {name}", f"{name} isn't in {player}'s hand", Citation(KEYWORD, "702.143a"))
    if state.active != player:
        raise IllegalChoice(f"foretell {name}", f"it is {state.active}'s turn: a player foretells only during their "
                            "own turn", Citation(KEYWORD, "702.143a"))
    with state.action(f"foretell {name}"):
        pay_mana(state, player, FORETELL_PAYMENT, choose, f"foretelling {name}")
        state.move(card, state.exile)
        state.set(c, "face_down", FaceDown.FORETOLD)      # exiled face down; its owner may look at it
        state.designate(card, f"{FORETOLD_ON}{state.turn}")
        state.emit(EventKind.EXILE, player, (card,), source=state.player(player).hand.label, destination="exile",
                   detail="foretold: exiled face down; a special action, it uses no stack",
                   citation=Citation(KEYWORD, "702.143b"))


def cast_foretold(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> Spell:
    """``player`` casts the foretold ``card`` from exile for its foretell cost, after the turn it was foretold."""
    from ..engine.stack import cast_spell
    c = state.cards[card]
    name = c.oracle.name
    turn = foretold_on(state, card) if state.zone_of(card) is state.exile else None
    if turn is None:
        raise IllegalChoice(f"cast {name} for its foretell cost", f"{name} isn't a foretold card in exile",
                            Citation(KEYWORD, "702.143a"))
    if c.owner != player:
        raise IllegalChoice(f"cast {name} for its foretell cost", f"{player} didn't foretell {name}",
                            Citation(KEYWORD, "702.143a"))
    if turn >= state.turn:
        raise IllegalChoice(f"cast {name} for its foretell cost", f"it was foretold this turn (turn {turn}): it may "
                            "be cast only after that turn has ended", Citation(KEYWORD, "702.143a"))
    cost = foretell_cost(c.oracle)
    assert cost is not None
    return cast_spell(state, player, card, instead=cost, instead_name="foretell", choose=choose)


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "foretell", card = "Demon Bolt" }``; with ``cast = true`` (and ``targets``), cast the foretold card."""
    from ..scenarios import _Targets
    card = run.card(step["card"])
    if not step.get("cast"):
        foretell(run.state, player, card, choose=choose)
        return
    if "targets" in step:
        choose = _Targets(run, step["targets"], choose)
    cast_foretold(run.state, player, card, choose=choose)
