"""Face a Villainous Choice — CR 701.55 (701.55a–d)

"[A player] faces a villainous choice — [option A], or [option B]" means the
player chooses one option, then all its actions are performed (701.55a).
Unlike other choices of a resolving spell
(Resolving Spells and Abilities — CR 608.2d), the player may choose an option that is illegal or impossible, and
does as much of it as possible (701.55b). A replacement effect may have a
player face the choice additional times; each time is the whole process, one
at a time (701.55c). Several players facing it do so one at a time in APNAP
order (701.55d).

>>> from executable_rules.model import GameState
>>> from executable_rules.instructions import Instruction
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice", "Bob"])
>>> a = VillainousOption("lose 3 life", (Instruction("lose life", 3),))
>>> b = VillainousOption("discard two cards", (Instruction("discard", 2),))
>>> face_villainous_choice(state, "Bob", a, b, choose=Scripted(["discard two cards"]))   # Bob has no cards
[('Bob', 'discard two cards')]
>>> state.player("Bob").life
20
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..engine import static
from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..instructions import Instruction, is_possible, perform
from ..model import EventKind, GameState

KEYWORD = "Face a Villainous Choice"
KIND = "keyword action"
JAPANESE = ("最悪の二択", "最悪の二択を行う", "villainous choice")
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Choose one of two options, even an impossible one, and do all of it that can be done; APNAP, one at a time."
OUT_OF_REACH: dict[str, str] = {}
"""Every subrule of the rule is run by the model."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.55{letter}")


@dataclass(frozen=True)
class VillainousOption:
    """One option: its label and the instructions performed for the player who chose it."""

    label: str
    instructions: tuple[Instruction, ...]


def face_villainous_choice(state: GameState, players: str | Sequence[str], option_a: VillainousOption,
                           option_b: VillainousOption, *, choose: Chooser = first_legal) -> list[tuple[str, str]]:
    """Each of ``players`` faces the choice; return (player, chosen label) in the order they were made."""
    names = [players] if isinstance(players, str) else list(players)
    made: list[tuple[str, str]] = []
    with state.action("face a villainous choice"):
        for p in state.apnap():                                              # 701.55d
            if p.name not in names:
                continue
            extra = static.additional_villainous_choices(state, p.name)
            for time in range(1 + len(extra)):                              # 701.55c
                if time:
                    state.emit(EventKind.NOTHING, p.name, detail=f"faces the choice an additional time ({extra[time - 1]})",
                               citation=cite("c"))
                options = []
                for option in (option_a, option_b):
                    possible = all(is_possible(state, p.name, i) for i in option.instructions)
                    options.append(Option(option.label, option, True, "" if possible else "impossible"))
                answer = decide(state, Decision.of(p.name, f"villainous choice: {option_a.label!r} or {option_b.label!r}",
                                                   cite("a"), options), choose)
                chosen: VillainousOption = answer.value
                possible = all(is_possible(state, p.name, i) for i in chosen.instructions)
                state.emit(EventKind.VILLAINOUS_CHOICE, p.name, names=(chosen.label,),
                           detail="all its actions are performed" if possible else
                           "impossible in part: as much of it as possible is performed",
                           citation=cite("a") if possible else cite("b"))
                for instruction in chosen.instructions:
                    perform(state, p.name, instruction, choose, cite("b"))
                made.append((p.name, chosen.label))
    return made
