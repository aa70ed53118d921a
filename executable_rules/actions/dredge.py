"""Dredge — CR 702.52 (702.52a–b)

Dredge N is a static ability that works while its card is in a graveyard:
"As long as you have at least N cards in your library, if you would draw a
card, you may instead mill N cards and return this card from your graveyard
to your hand" (702.52a). It replaces one draw: a multi-card draw is a series
of single draws (Drawing a Card — CR 121.2), each offered separately, so a
card milled by one dredge can dredge the next draw (121.6b). A player with
fewer than N cards in their library can't dredge (702.52b), so dredge can't
save a player from drawing from an empty library. Being a static ability, it
uses no stack: nothing can respond to it, Stifle can't counter it, and Pithing
Needle (which stops activated abilities) doesn't stop it.

The choice is between the whole replacement and the draw: milling N without
returning the card isn't an option (702.52a).

:func:`dredge_options` is what :func:`~executable_rules.actions.draw.draw`
offers before each draw; :func:`dredge` performs one.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> troll = state.add_card(OracleCard.simple("Golgari Thug", "{1}{B}", "Creature", text="Dredge 4"), "Alice", ZoneKind.GRAVEYARD)
>>> for n in "ABCDE":
...     _ = state.add_card(OracleCard.simple(n, "{1}", "Artifact"), "Alice", ZoneKind.LIBRARY)
>>> [o.label for o in dredge_options(state, "Alice") if o.legal]
['draw a card', 'dredge Golgari Thug']
>>> dredge(state, "Alice", troll)
>>> state.names(state.player("Alice").hand), state.names(state.player("Alice").library)
(['Golgari Thug'], ['E'])
>>> dredge(state, "Alice", troll)
Traceback (most recent call last):
...
executable_rules.errors.IllegalChoice: illegal choice 'dredge Golgari Thug': Golgari Thug is in Alice's hand, not Alice's graveyard (Dredge — CR 702.52a)
"""

from __future__ import annotations

from ..choices import Option
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState, OracleCard
from .mill import mill

KEYWORD = "Dredge"
KIND = "keyword ability"
JAPANESE = ("発掘",)
SUBRULES = ("a", "b")
SUMMARY = "Replace a draw: mill N and return the card with dredge from graveyard to hand, with at least N cards in library."
OUT_OF_REACH: dict[str, str] = {}
"""Both lettered subrules of dredge (702.52a, 702.52b) are implemented."""


def dredge_number(card: OracleCard) -> int | None:
    """N of the card's "Dredge N", read from its Oracle text by the grammar (None without dredge)."""
    argument = card.parsed.keyword_argument(KEYWORD)
    return int(argument) if argument and argument.isdigit() else None


def _why_not(state: GameState, player: str, card: int) -> tuple[str, str] | None:
    c = state.cards[card]
    p = state.player(player)
    n = dredge_number(c.oracle)
    if n is None:
        return f"{c.oracle.name} has no dredge", "702.52a"
    if state.zone_of(card) is not p.graveyard:
        return f"{c.oracle.name} is in {state.zone_of(card).label}, not {p.graveyard.label}", "702.52a"
    if len(p.library) < n:
        return f"{player}'s library has {len(p.library)} cards, fewer than {n}", "702.52b"
    return None


def dredge_options(state: GameState, player: str) -> list[Option]:
    """The answers to "would draw a card": draw, or dredge with each card in the graveyard that has dredge.

    An option for each dredge card that can't be used says why (702.52b), and
    "mill without returning" is listed as illegal (702.52a). With no dredge
    card in the graveyard there is nothing to offer: the list is empty.
    """
    p = state.player(player)
    cards = [c for c in p.graveyard.cards if dredge_number(state.cards[c].oracle) is not None]
    if not cards:
        return []
    options = [Option("draw a card", None)]
    for card in cards:
        name = state.cards[card].oracle.name
        why = _why_not(state, player, card)
        options.append(Option(f"dredge {name}", card, why is None, why[0] if why else "",
                              Citation(KEYWORD, why[1]) if why else None))
    for card in cards:
        c = state.cards[card]
        options.append(Option(f"mill {dredge_number(c.oracle)} without returning {c.oracle.name}", None, False,
                              "dredge mills N and returns the card as one replacement; the choice is that or the draw",
                              Citation(KEYWORD, "702.52a")))
    return options


def dredge(state: GameState, player: str, card: int) -> None:
    """Instead of drawing a card, ``player`` mills N and returns ``card`` (dredge N) to their hand."""
    why = _why_not(state, player, card)
    name = state.cards[card].oracle.name
    if why:
        raise IllegalChoice(f"dredge {name}", why[0], Citation(KEYWORD, why[1]))
    n = dredge_number(state.cards[card].oracle)
    assert n is not None
    with state.action(f"dredge {name}"):
        p = state.player(player)
        mill(state, player, n, detail=f"dredge {n}")
        state.move(card, p.hand)
        state.emit(EventKind.DREDGE, player, (card,), source=p.graveyard.label, destination=p.hand.label,
                   detail="instead of drawing a card; a static ability: nothing uses the stack", amount=n,
                   citation=Citation(KEYWORD, "702.52a"))
