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

from .choices import Chooser, Decision, Option, decide
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
        for _ in range(amount):
            pool = [c for c in state.permanents(who) if not instruction.type or instruction.type in c.types]
            if not pool:
                state.emit(EventKind.NOTHING, who, detail=f"no {(instruction.type or 'permanent').lower()} to sacrifice",
                           citation=citation)
                break
            answer = decide(state, Decision.of(who, instruction.describe(), citation,
                                               [Option(f"sacrifice {c.display_name}", c.id) for c in pool]), choose)
            name = state.cards[answer.value].display_name
            state.move(answer.value, state.player(state.cards[answer.value].owner).graveyard)
            state.emit(EventKind.MOVE, who, (answer.value,), names=(name,), source="battlefield",
                       destination=state.zone_of(answer.value).label, detail="sacrificed")
    elif verb == "discard":
        hand = state.player(who).hand
        for _ in range(amount):
            if not hand.cards:
                state.emit(EventKind.NOTHING, who, detail="no card left to discard", citation=citation)
                break
            answer = decide(state, Decision.of(who, instruction.describe(), citation,
                                               [Option(f"discard {state.cards[c].display_name}", c) for c in hand.cards]),
                            choose)
            name = state.cards[answer.value].display_name
            state.move(answer.value, state.player(who).graveyard)
            state.emit(EventKind.MOVE, who, (answer.value,), names=(name,), source=hand.label,
                       destination=state.zone_of(answer.value).label, detail="discarded")
    else:
        raise ValueError(f"unknown instruction {verb!r}; use one of {', '.join(VERBS)}")
