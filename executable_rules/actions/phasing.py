"""Phasing — CR 702.26 (702.26a–e)

Phasing is a static ability that modifies the untap step: during each
player's untap step, before the active player untaps permanents, every
phased-in permanent with phasing that player controls phases out, and at the
same time every permanent that phased out under that player's control phases
in (Phasing — CR 702.26a).

A phased-out permanent is treated as though it doesn't exist, except by rules
that mention phased-out permanents: it can't affect or be affected by anything
(702.26b) — it isn't counted, destroyed, targeted, tapped for mana, and its
abilities don't trigger. A permanent that phases in exists again (702.26c).
Phasing moves nothing: no zone changes, so no "enters" or "leaves" abilities
trigger, counters stay on it and a token goes on existing (702.26d). A
continuous effect from a spell or ability that resolved while it was phased
out doesn't include it (702.26e).

In the model a phased-out permanent stays on the battlefield with
``phased_out`` set, and :meth:`~executable_rules.model.GameState.permanents`
(what every rule asks for "permanents") leaves it out.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> croc = state.add_card(OracleCard.simple("Sandbar Crocodile", "{4}{U}", "Creature", power="6", toughness="5",
...                       text="Phasing"), "you", ZoneKind.BATTLEFIELD)
>>> phasing(state, "you")
>>> state.cards[croc].phased_out, state.permanents()
(True, [])
>>> phasing(state, "you")
>>> state.cards[croc].phased_out
False
"""

from __future__ import annotations

from typing import Any

from ..citation import Citation
from ..model import EventKind, GameState

KEYWORD = "Phasing"
KIND = "keyword ability"
JAPANESE = ("フェイジング",)
SUBRULES = ("a", "b", "c", "d", "e")
SUMMARY = "Before its controller untaps, a permanent with phasing phases out (treated as though it doesn't exist); the next time, it phases in."
OUT_OF_REACH = {
    "f": "the model's effects last until end of turn or until your next turn, and end before a phased-out "
         "permanent's untap step: none can expire while it is phased out, and \"for as long as\" isn't modelled",
    "g": "the model has no Auras, Equipment or Fortifications attached to permanents, so nothing phases out indirectly",
    "h": "nothing phases out indirectly in the model (no attachments), so nothing phases out both ways at once",
    "i": "no attachments: an Aura, Equipment or Fortification can't phase in attached",
    "j": "no attachments, so no \"becomes attached\" triggers",
    "k": "players don't leave the game in the model (a player who loses stays, and nothing leaves with them)",
    "m": "no effect in the model makes a player skip their untap step",
    "n": "multiplayer leaving the game (800.4) isn't modelled",
    "p": "no card in the corpus has phasing twice and the model grants no phasing, so redundant instances never meet",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def phasing(state: GameState, player: str) -> None:
    """The phasing event of ``player``'s untap step (702.26a): their phased-in permanents with phasing phase out
    and those that phased out under their control phase in, simultaneously."""
    from ..engine.layers import characteristics
    going_out, coming_in = [], []
    for card_id in state.battlefield.cards:
        card = state.cards[card_id]
        if card.controller != player:
            continue
        if card.phased_out:
            coming_in.append(card_id)
        elif KEYWORD in characteristics(state, card_id).keywords:
            going_out.append(card_id)
    for card_id in going_out:
        phase_out(state, card_id)
    for card_id in coming_in:
        phase_in(state, card_id)


def phase_out(state: GameState, card: int) -> None:
    """``card`` phases out: treated as though it doesn't exist (702.26b); it stays where it is (702.26d)."""
    c = state.cards[card]
    state.set(c, "phased_out", True)
    state.emit(EventKind.EFFECT, c.controller, (card,), detail="phases out: treated as though it doesn't exist; "
               "it doesn't leave the battlefield (Phasing — CR 702.26d)", citation=Citation(KEYWORD, "702.26b"))


def phase_in(state: GameState, card: int) -> None:
    """``card`` phases in: the game treats it as existing again (702.26c); it didn't enter the battlefield (702.26d)."""
    c = state.cards[card]
    state.set(c, "phased_out", False)
    state.emit(EventKind.EFFECT, c.controller, (card,), detail="phases in: it exists again; it didn't enter the "
               "battlefield (Phasing — CR 702.26d)", citation=Citation(KEYWORD, "702.26c"))


def phased_out(state: GameState, player: str | None, expected: Any) -> Any:
    """``phased_out = ["Sandbar Crocodile"]``: the phased-out permanents, as a multiset."""
    got = sorted(state.cards[c].display_name for c in state.battlefield.cards if state.cards[c].phased_out)
    return expected if isinstance(expected, list) and sorted(expected) == got else got


EXPECT = {"phased_out": phased_out}
