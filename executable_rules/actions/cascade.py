"""Cascade — CR 702.85 (702.85a, 702.85c)

Cascade is a triggered ability that works while its spell is on the stack:
"When you cast this spell, exile cards from the top of your library until you
exile a nonland card whose mana value is less than this spell's mana value. You
may cast that card without paying its mana cost if the resulting spell's mana
value is less than this spell's mana value. Then put all cards exiled this way
that weren't cast on the bottom of your library in a random order"
(Cascade — CR 702.85a). The trigger goes on the stack above the spell, so the
card cascaded into is cast, and resolves, first. With no such card, every card
exiled goes back to the bottom: a player doesn't lose for running through their
library. Each instance of cascade triggers separately (702.85c): Maelstrom
Wanderer cascades twice.

The engine writes cascade out as "When you cast this spell, cascade."
(:data:`MEANS`), a trigger the grammar reads, and :func:`cascade` carries it out.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["Alice", "Bob"])
>>> for name in ("Forest", "Forest"):
...     _ = state.add_card(OracleCard.simple(name, None, "Land"), "Alice", ZoneKind.LIBRARY)
>>> cascade(state, "Alice", 3)
>>> state.names(state.player("Alice").library), state.events[-1].detail
(['Forest', 'Forest'], 'no nonland card with mana value less than 3: the 2 exiled cards go to the bottom')
"""

from __future__ import annotations

from typing import Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

KEYWORD = "Cascade"
KIND = "keyword ability"
JAPANESE = ("続唱",)
SUBRULES = ("a", "c")
SUMMARY = "When you cast it, exile from the top until a nonland card that costs less; cast it free; the rest to the bottom."
OUT_OF_REACH = {
    "b": "no card the grammar reads lets a player act on the exiled cards \"as you cascade\" (Averna, the Chaos "
         "Bloom's kind of effect)",
}
MEANS = "When you cast this spell, cascade."
"""Cascade — CR 702.85a as a trigger the grammar reads; :func:`cascade` is the rest of its text."""


def cascade(state: GameState, player: str, mana_value: int, *, choose: Chooser = first_legal) -> None:
    """Cascade — CR 702.85a for a spell of ``mana_value`` (its value as it was cast)."""
    from ..actions.cast import spell_faces
    from ..engine.stack import cast_spell
    library = state.player(player).library
    exiled: list[int] = []
    hit = None
    with state.action("cascade"):
        while library.cards:
            card = library.cards[0]
            state.move(card, state.exile)
            exiled.append(card)
            c = state.cards[card]
            state.emit(EventKind.EXILE, player, (card,), source=library.label, destination="exile",
                       detail="cascade", citation=Citation(KEYWORD, "702.85a"))
            if not c.is_land and c.oracle.mana_value < mana_value:
                hit = card
                break
        cast = False
        if hit is not None:
            name = state.cards[hit].oracle.name
            faces = [f for f in spell_faces(state.cards[hit].oracle) if f.mana_value < mana_value and not f.is_land]
            options = [Option(f"cast {f.name} without paying its mana cost", f.name) for f in faces]
            options.append(Option(f"don't cast {name}", None))
            answer = decide(state, Decision.of(player, f"cascade: cast {name}?", Citation(KEYWORD, "702.85a"), options),
                            choose)
            if answer.value is not None:
                cast_spell(state, player, hit, face=answer.value, without_paying=True, cascade=True, choose=choose)
                cast = True
        rest = [c for c in exiled if not (cast and c == hit)]
        for card in state.random_order(rest):
            state.move(card, library, position="bottom")
        found = (f"{state.cards[hit].oracle.name} found" + (" and cast" if cast else ", not cast")) if hit is not None \
            else f"no nonland card with mana value less than {mana_value}"
        state.emit(EventKind.MOVE, player, tuple(rest), source="exile", destination=f"the bottom of {library.label}",
                   detail=f"{found}: the {len(rest)} exiled cards go to the bottom" if hit is None else
                   f"{found}; {len(rest)} exiled cards go to the bottom in a random order",
                   citation=Citation(KEYWORD, "702.85a"))


def resolve(state: GameState, ctx: Any, node: Any, choose: Chooser) -> None:
    """The effect ``cascade`` of the written-out trigger: the spell's mana value as it was cast."""
    source = ctx.source
    spell = state.spells.get(source)
    value = spell.mana_value if spell is not None else state.cards[source].oracle.mana_value
    cascade(state, ctx.controller, value, choose=choose)
