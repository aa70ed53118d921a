"""Collect Evidence — CR 701.59 (701.59a–c)

To collect evidence N is to exile any number of cards from your graveyard with
total mana value N or greater (Collect Evidence — CR 701.59a). The player picks
the cards one at a time and may stop once the total is N or more. A player who
can't reach N with their whole graveyard can't choose to collect evidence
(Collect Evidence — CR 701.59b): the option is illegal. A spell that lets its
caster collect evidence as an additional cost and asks "if evidence was
collected" has linked abilities (Collect Evidence — CR 701.59c,
Linked Abilities — CR 607): the answer is whether that spell's cost was paid
(Analyze the Pollen).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["you"])
>>> for name, cost in (("Hill Giant", "{3}{R}"), ("Shock", "{R}")):
...     _ = state.add_card(OracleCard.simple(name, cost, "Creature"), "you", ZoneKind.GRAVEYARD)
>>> can_collect_evidence(state, "you", 5), can_collect_evidence(state, "you", 6)
(True, False)
>>> [state.cards[c].name for c in collect_evidence(state, "you", 5)]
['Hill Giant', 'Shock']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, Face, GameState
from .exile import exile

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Collect Evidence"
KIND = "keyword action"
JAPANESE = ("証拠収集を行う", "証拠収集")
SUBRULES = ("a", "b", "c")
SUMMARY = "Exile any number of cards from your graveyard with total mana value N or greater."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "n", "optional"}
"""``do = "collect_evidence"``, ``n`` = N; ``optional = true`` asks first (as "you may collect evidence N")."""

EVIDENCE = "collect evidence"
"""How a spell's paid costs name it (``Spell.paid``), for "if evidence was collected"."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.59{letter}")


def can_collect_evidence(state: GameState, player: str, n: int) -> bool:
    """Whether ``player``'s graveyard holds cards with total mana value ``n`` or more (701.59b)."""
    return sum(state.cards[c].mana_value for c in state.player(player).graveyard.cards) >= n


def collect_evidence(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> list[int]:
    """``player`` collects evidence ``n``; return the cards exiled. :class:`IllegalChoice` if they can't (701.59b)."""
    if not can_collect_evidence(state, player, n):
        raise IllegalChoice(f"collect evidence {n}", "the cards in the graveyard have total mana value less than "
                            f"{n}", cite("b"))
    graveyard = state.player(player).graveyard
    exiled: list[int] = []
    total = 0
    with state.action(f"collect evidence {n}"):
        while True:
            left = [c for c in graveyard.cards]
            rest = sum(state.cards[c].mana_value for c in left)
            options = [Option(f"exile {state.cards[c].display_name}", c,
                              total + rest >= n or total >= n,
                              "the rest couldn't reach the total", cite("a")) for c in left]
            if total >= n:
                options.append(Option("stop collecting", None))
            if not any(o.legal for o in options):
                break
            answer = decide(state, Decision.of(player, f"collect evidence {n}: exile a card from your graveyard "
                                               f"(total so far {total})", cite("a"), options), choose)
            if answer.value is None:
                break
            card = answer.value
            total += state.cards[card].mana_value
            exile(state, player, card, detail=f"collected as evidence (total mana value {total})")
            exiled.append(card)
        state.emit(EventKind.COLLECT_EVIDENCE, player, exiled, amount=n,
                   detail=f"collected evidence {n}: total mana value {total}", citation=cite("a"))
    return exiled


def may_collect_evidence(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> list[int] | None:
    """"You may collect evidence N": asks; the yes is illegal when they can't (701.59b). None if they don't."""
    able = can_collect_evidence(state, player, n)
    answer = decide(state, Decision.of(player, f"collect evidence {n}?", cite("b"), [
        Option(f"collect evidence {n}", True, able, "" if able else f"the graveyard's total mana value is less than {n}",
               cite("b")),
        Option(f"don't collect evidence {n}", False)]), choose)
    return collect_evidence(state, player, n, choose=choose) if answer.value else None


_OPTIONAL_COST = re.compile(r"As an additional cost to cast this spell, you may collect evidence (\d+)", re.IGNORECASE)


def evidence_cost(face: Face) -> int | None:
    """N of the face's "As an additional cost to cast this spell, you may collect evidence N", if it has one."""
    m = _OPTIONAL_COST.search(face.text)
    return int(m.group(1)) if m else None


def evidence_was_collected(state: GameState, card: int) -> bool:
    """"If evidence was collected", asked by the spell ``card`` of its own additional cost (701.59c)."""
    spell = state.spells.get(card)
    return spell is not None and any(p.startswith(EVIDENCE) for p in spell.paid)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "collect_evidence", n = 4 }``."""
    n = int(step.get("n", 1))
    if step.get("optional"):
        may_collect_evidence(run.state, player, n, choose=choose)
    else:
        collect_evidence(run.state, player, n, choose=choose)
