"""Small instructions of card text: lose or gain life, sacrifice, discard.

The options of a villainous choice and the effects of the few triggered
abilities the model knows are made of these. Each does as much as it can (a
player told to discard two cards with one in hand discards one) and
:func:`is_possible` says whether it can be done in full, which decides
whether a player may choose it where impossible options are forbidden
(Resolving Spells and Abilities — CR 608.2d) — unlike a villainous choice,
where they may (Face a Villainous Choice — CR 701.55b).

>>> from executable_rules.model import GameState
>>> state = GameState.new(["Alice"])
>>> lose_life(state, "Alice", 3); state.player("Alice").life
17
>>> is_possible(state, "Alice", Instruction("sacrifice", 1, "Creature"))
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .choices import Chooser
from .citation import Citation
from .model import EventKind, GameState

Verb = Literal["lose life", "gain life", "sacrifice", "discard", "draw", "mill"]
VERBS: tuple[str, ...] = ("lose life", "gain life", "sacrifice", "discard", "draw", "mill")


@dataclass(frozen=True)
class Instruction:
    """One instruction: ``verb`` with an ``amount`` (and the type of permanent for ``sacrifice``)."""

    verb: str
    amount: int = 1
    type: str | None = None
    player: str | None = None   # who does it; None for the player facing the choice or resolving the ability

    def describe(self) -> str:
        who = f"{self.player} " if self.player else ""
        if self.verb in ("lose life", "gain life"):
            return f"{who}{self.verb.split()[0]} {self.amount} life"
        if self.verb == "sacrifice":
            return f"{who}sacrifice {self.amount} {(self.type or 'permanent').lower()}{'s' if self.amount > 1 else ''}"
        noun = "card" if self.amount == 1 else "cards"
        return f"{who}{self.verb} {self.amount} {noun}"


def lose_life(state: GameState, player: str, amount: int, *, detail: str = "") -> None:
    p = state.player(player)
    state.set(p, "life", p.life - amount)
    state.emit(EventKind.LIFE, player, detail=f"loses {amount} life ({p.life})" + (f"; {detail}" if detail else ""),
               amount=-amount)


def gain_life(state: GameState, player: str, amount: int, *, detail: str = "") -> None:
    p = state.player(player)
    state.set(p, "life", p.life + amount)
    state.emit(EventKind.LIFE, player, detail=f"gains {amount} life ({p.life})" + (f"; {detail}" if detail else ""),
               amount=amount)


def is_possible(state: GameState, player: str, instruction: Instruction) -> bool:
    """Whether ``instruction`` can be carried out in full (drawing from an empty library counts as possible,
    Resolving Spells and Abilities — CR 608.2d)."""
    who = instruction.player or player
    if instruction.verb == "sacrifice":
        return len([c for c in state.permanents(who) if (instruction.type or "") in c.types or not instruction.type]) >= instruction.amount
    if instruction.verb == "discard":
        return len(state.player(who).hand) >= instruction.amount
    return True


def perform(state: GameState, player: str, instruction: Instruction, choose: Chooser,
            citation: Citation | None = None) -> None:
    """Carry out ``instruction`` for ``player`` as far as possible."""
    who = instruction.player or player
    verb, amount = instruction.verb, instruction.amount
    if verb == "lose life":
        lose_life(state, who, amount)
    elif verb == "gain life":
        gain_life(state, who, amount)
    elif verb == "draw":
        from .actions.draw import draw
        draw(state, who, amount, choose=choose)
    elif verb == "mill":
        from .actions.mill import mill
        mill(state, who, amount)
    elif verb == "sacrifice":
        from .actions.sacrifice import sacrifice_one
        for _ in range(amount):
            kind = instruction.type
            if sacrifice_one(state, who, lambda c: not kind or kind in state.cards[c].types,
                             (kind or "permanent").lower(), choose=choose, citation=citation) is None:
                break
    elif verb == "discard":
        from .actions.discard import discard_cards
        discard_cards(state, who, amount, choose=choose)
    else:
        raise ValueError(f"unknown instruction {verb!r}; use one of {', '.join(VERBS)}")
