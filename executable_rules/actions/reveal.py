"""Reveal — CR 701.20 (701.20a–c)

To reveal a card is to show it to all players for a brief time (701.20a);
revealing a card doesn't make it leave its zone (701.20b). Revealed cards in a
library or hand stay in a hidden zone (Zones — CR 400.2), which matters to a
search (Search — CR 701.23b). A card that is revealed may be revealed again
(701.20c): a card kept revealed in a hand by Telepathy ("Your opponents play
with their hands revealed.", :func:`revealed_by`) can still be revealed to pay
Silvergill Adept's "reveal a Merfolk card from your hand or pay {3}"
(:func:`reveal_or_pay`, an additional cost: Casting Spells — CR 601.2b, 601.2h).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> shock = state.add_card(OracleCard.simple("Shock", "{R}", "Instant"), "Alice", ZoneKind.LIBRARY)
>>> reveal(state, "Alice", [shock])
>>> state.events[-1].describe(), state.zone_of(shock).label
("Alice: reveal Shock from Alice's library (Reveal — CR 701.20a)", "Alice's library")
"""

from __future__ import annotations

import re
from typing import Sequence

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..model import EventKind, Face, GameState, ManaCost, ZoneKind

KEYWORD = "Reveal"
KIND = "keyword action"
JAPANESE = ("公開する",)
SUBRULES = ("a", "b", "c")
SUMMARY = "Show cards to all players; they stay where they are."
OUT_OF_REACH = {
    "d": "the model keeps no lasting revealed state, so there is nothing for a shuffle to end",
    "e": "looking at cards is logged (a look event) but the model doesn't track which player knows which card",
}


def reveal(state: GameState, player: str, cards: Sequence[int], *, detail: str = "") -> None:
    """``player`` reveals ``cards`` (which stay in their zone)."""
    if not cards:
        return
    with state.action("reveal"):
        state.emit(EventKind.REVEAL, player, cards, source=state.zone_of(cards[0]).label, detail=detail,
                   citation=Citation(KEYWORD, "701.20a"))


def revealed_by(state: GameState, card: int) -> str | None:
    """The permanent whose "Your opponents play with their hands revealed." keeps ``card``, in a hand, revealed now
    (a permanent controlled by an opponent of the hand's owner); None if nothing does."""
    zone = state.zone_of(card)
    if zone.kind is not ZoneKind.HAND:
        return None
    for permanent in state.permanents():
        if permanent.face_down or permanent.controller == zone.owner:
            continue
        if any(a.static == "hands_revealed" for a in permanent.oracle.parsed.abilities):
            return permanent.oracle.name
    return None


_REVEAL_OR_PAY = re.compile(r"^as an additional cost to cast (?:~|this spell), reveal an? (?P<quality>[A-Z][a-z]+) card "
                            r"from your hand or pay (?P<cost>(?:\{[^}]+\})+)\.$")


def reveal_or_pay(state: GameState, player: str, card: int, face: Face, choose: Chooser) -> ManaCost | None:
    """"As an additional cost to cast this spell, reveal a [subtype] card from your hand or pay {N}." as ``card`` is
    cast (Casting Spells — CR 601.2b; paid 601.2h): ``player`` reveals such a card — one already revealed may be
    revealed again (701.20c) — or pays {N} more. Return the mana to add to the total cost (None: a card was revealed,
    or the spell has no such cost)."""
    from ..oracle import parse_card
    for ability in parse_card(face.name, face.text).abilities:
        m = _REVEAL_OR_PAY.match(ability.text) if ability.static == "additional_cost" else None
        if m is None:
            continue
        quality, cost = m["quality"], ManaCost.parse(m["cost"])
        hand = state.player(player).hand
        fitting = [c for c in hand.cards if c != card and quality in state.cards[c].oracle.subtypes]
        options = [Option(f"reveal {state.cards[c].oracle.name}", c) for c in fitting] + [Option(f"pay {cost}", None)]
        answer = decide(state, Decision.of(player, f"{face.name}: reveal a {quality} card from your hand or pay {cost}",
                                           Citation("Casting Spells", "601.2b"), options), choose)
        if answer.value is None:
            return cost
        shown = int(answer.value)
        already = revealed_by(state, shown)
        state.emit(EventKind.REVEAL, player, (shown,), source=hand.label,
                   detail=f"an additional cost of {face.name}" + (
                       f"; it is already revealed ({already}): a revealed card may be revealed again" if already else ""),
                   citation=Citation(KEYWORD, "701.20c" if already else "701.20a"))
        return None
    return None
