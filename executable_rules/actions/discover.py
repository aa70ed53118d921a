"""Discover — CR 701.57 (701.57a–c)

"Discover N" means "Exile cards from the top of your library until you exile
a nonland card with mana value N or less. You may cast that card without
paying its mana cost if the resulting spell's mana value is less than or equal
to N. If you don't cast it, put that card into your hand. Put the remaining
exiled cards on the bottom of your library in a random order." (701.57a)

- The card's mana value in exile is the card's: a split card's halves add up
  (Split Cards — CR 709.4b), a modal double-faced or adventurer card counts
  its front or normal face, X counts 0 (Mana Cost and Color — CR 202.3e).
- Casting, only a face whose spell would have mana value N or less can be
  cast: Bramble Familiar (2) found by discover 3 can be cast as itself, not as
  its Adventure Fetch Quest (7). X is 0 (Numbers and Symbols — CR 107.3b).
- A card that isn't cast, by choice or because it can't be (no legal target),
  goes to its owner's hand: never neither.
- The rest go to the bottom in a random order from the game's generator. That
  is not a shuffle: no ``shuffle`` event, so Psychogenic Probe doesn't trigger.
- The player has discovered once the process is complete, even if nothing was
  found (701.57b); the final card exiled is "the discovered card" if its mana
  value is N or less, cast or not (701.57c).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice", "Bob"], seed=4)
>>> for o in (OracleCard.simple("Forest", None, "Land"), OracleCard.simple("Colossus", "{7}", "Artifact"),
...           OracleCard.simple("Shock", "{R}", "Instant", text="Shock deals 2 damage to any target."),
...           OracleCard.simple("Island", None, "Land")):
...     _ = state.add_card(o, "Alice", ZoneKind.LIBRARY)
>>> result = discover(state, "Alice", 3)
>>> state.cards[result.discovered].name, result.cast, state.names(state.stack)
('Shock', True, ['Shock'])
>>> state.names(state.player("Alice").library)[0], sorted(state.names(state.player("Alice").library)[1:])
('Island', ['Colossus', 'Forest'])
>>> [e.kind.value for e in state.events if e.kind.value in ("shuffle", "random order")]
['random order']
"""

from __future__ import annotations

from dataclasses import dataclass

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState
from .cast import cast_options, cast_without_paying
from .exile import exile

KEYWORD = "Discover"
KIND = "keyword action"
JAPANESE = ("発見", "発見を行う")
SUBRULES = ("a", "b", "c")
SUMMARY = ("Exile from the top until a nonland card with mana value N or less; cast it free if the spell's "
           "mana value is N or less, else put it into your hand; the rest go to the bottom in a random order.")
OUT_OF_REACH: dict[str, str] = {}
"""Every subrule of the rule is run by the model."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.57{letter}")


@dataclass(frozen=True)
class DiscoverResult:
    """The discovered card (701.57c) if any, whether it was cast, and the other cards exiled."""

    n: int
    discovered: int | None
    cast: bool
    bottom: tuple[int, ...]


def discover(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> DiscoverResult:
    """``player`` discovers ``n``."""
    if n < 0:
        raise ValueError(f"discover {n}: N is a number of at least 0")
    p = state.player(player)
    exiled: list[int] = []
    discovered: int | None = None
    cast = False
    with state.action(f"discover {n}"):
        while p.library.cards:                                          # 701.57a: exile until …
            card = p.library.cards[0]
            c = state.cards[card]
            if c.is_land:
                why = "a land: keep exiling"
            elif c.mana_value > n:
                why = f"mana value {c.mana_value} is greater than {n}: keep exiling"
            else:
                why = f"a nonland card with mana value {c.mana_value}, {n} or less: the discovered card (701.57c)"
            exile(state, player, card, detail=why)
            exiled.append(card)
            if not c.is_land and c.mana_value <= n:
                discovered = card
                break
        if discovered is None:
            state.emit(EventKind.NOTHING, player, source=p.library.label,
                       detail="no nonland card with mana value {n} or less: there is no discovered card".format(n=n),
                       citation=cite("c"))
        else:
            name = state.cards[discovered].oracle.name
            options = cast_options(state, player, discovered, max_mana_value=n, limit=cite("a"))
            options.append(Option(f"put {name} into hand", None))
            answer = decide(state, Decision.of(player, f"discover {n}: cast {name} without paying its mana cost, "
                                               "or put it into your hand", cite("a"), options), choose)
            if answer.value is not None:
                cast_without_paying(state, player, discovered, face=answer.value.name, max_mana_value=n,
                                    limit=cite("a"), choose=choose)
                cast = True
            else:
                state.move(discovered, p.hand)
                state.emit(EventKind.MOVE, player, (discovered,), source="exile", destination=p.hand.label,
                           detail="not cast, so it goes to the hand", citation=cite("a"))
        rest = [c for c in exiled if c != discovered]
        if rest:
            order = state.random_order(rest)                             # 701.57a: a random order, not a shuffle
            for card in order:
                state.move(card, p.library, position="bottom")
            state.emit(EventKind.RANDOM_ORDER, player, order, source="exile", destination=f"the bottom of {p.library.label}",
                       detail="a random order, which is not a shuffle", citation=cite("a"))
        state.emit(EventKind.DISCOVER, player, (discovered,) if discovered else (), amount=n,
                   detail=f"has discovered {n}" + ("" if discovered else ", though nothing was found"),
                   citation=cite("b"))
    return DiscoverResult(n, discovered, cast, tuple(c for c in p.library.cards if c in rest))
