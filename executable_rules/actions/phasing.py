"""Phasing — CR 702.26 (702.26a–e, g)

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
out doesn't include it (702.26e). Auras, Equipment and Fortifications attached
to a permanent that phases out phase out with it, "indirectly", and phase in
with it, not by themselves (702.26g); one that would phase out both directly and
indirectly phases out only indirectly (702.26h). One that phased out directly
phases in attached to what it was attached to if that is still there; if not,
it phases in unattached and the state-based actions apply (702.26i;
State-Based Actions — CR 704.5m, 704.5n).

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
SUBRULES = ("a", "b", "c", "d", "e", "g")
SUMMARY = "Before its controller untaps, a permanent with phasing phases out (treated as though it doesn't exist); the next time, it phases in."
OUT_OF_REACH = {
    "f": "the model's effects last until end of turn or until your next turn, and end before a phased-out "
         "permanent's untap step: none can expire while it is phased out, and \"for as long as\" isn't modelled",
    "h": "no Aura, Equipment or Fortification of the corpus has phasing (and the model grants none it), so none would "
         "phase out directly and indirectly at once (the engine phases such a one out only indirectly)",
    "i": "no Aura, Equipment or Fortification of the corpus phases out directly (none has phasing), so none phases "
         "in by itself to find what it was attached to",
    "j": "no ability of the model triggers when a permanent becomes attached or unattached, so there is nothing "
         "for phasing not to trigger",
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
    # Auras, Equipment and Fortifications attached to a permanent phasing out phase out with it, "indirectly"
    # (702.26g): one that would phase out both ways phases out only indirectly (702.26h).
    indirect = _attached_to_any(state, going_out)
    going_out = [c for c in going_out if c not in indirect]
    # One that phased out indirectly doesn't phase in by itself, but with the permanent it's attached to (702.26g).
    coming_in = [c for c in coming_in if not state.has_designation(c, INDIRECTLY)]
    coming_in += [c for c in _attached_to_any(state, coming_in) if state.has_designation(c, INDIRECTLY)]
    for card_id in going_out:
        phase_out(state, card_id)
    for card_id in indirect:
        phase_out(state, card_id, indirectly=True)
    for card_id in coming_in:
        phase_in(state, card_id)


INDIRECTLY = "phased out indirectly"


def _attached_to_any(state: GameState, cards: list[int]) -> list[int]:
    """The permanents attached to any of ``cards`` (phased in or out), and those attached to them, and so on."""
    from .attach import attached_object
    found: list[int] = []
    frontier = list(cards)
    while frontier:
        to = frontier.pop()
        for c in state.battlefield.cards:
            if c not in found and c not in cards and attached_object(state, c) == to:
                found.append(c)
                frontier.append(c)
    return found


def phase_out(state: GameState, card: int, *, indirectly: bool = False) -> None:
    """``card`` phases out: treated as though it doesn't exist (702.26b); it stays where it is (702.26d), still
    attached to what it was attached to; ``indirectly``: with the permanent it is attached to (702.26g)."""
    c = state.cards[card]
    state.set(c, "phased_out", True)
    if indirectly:
        state.designate(card, INDIRECTLY)
    state.emit(EventKind.EFFECT, c.controller, (card,), detail=("phases out indirectly, with the permanent it is "
               "attached to; " if indirectly else "phases out: ") + "treated as though it doesn't exist; "
               "it doesn't leave the battlefield (Phasing — CR 702.26d)",
               citation=Citation(KEYWORD, "702.26g" if indirectly else "702.26b"))


def phase_in(state: GameState, card: int) -> None:
    """``card`` phases in: the game treats it as existing again (702.26c); it didn't enter the battlefield (702.26d)."""
    c = state.cards[card]
    state.set(c, "phased_out", False)
    state.undesignate(card, INDIRECTLY)
    state.emit(EventKind.EFFECT, c.controller, (card,), detail="phases in: it exists again; it didn't enter the "
               "battlefield (Phasing — CR 702.26d)", citation=Citation(KEYWORD, "702.26c"))


def phased_out(state: GameState, player: str | None, expected: Any) -> Any:
    """``phased_out = ["Sandbar Crocodile"]``: the phased-out permanents, as a multiset."""
    got = sorted(state.cards[c].display_name for c in state.battlefield.cards if state.cards[c].phased_out)
    return expected if isinstance(expected, list) and sorted(expected) == got else got


EXPECT = {"phased_out": phased_out}
