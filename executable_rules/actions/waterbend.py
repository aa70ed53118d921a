"""Waterbend — CR 701.67 (701.67a–c)

"Waterbend [cost]" means "Pay [cost]. For each generic mana in that cost, you may
tap an untapped artifact or creature you control rather than pay that mana."
(Waterbend — CR 701.67a) Tapping one this way isn't activating a mana ability:
a creature that came under its controller's control this turn may be tapped.
When the waterbend cost is part of a larger total cost (an additional cost of a
spell), only its own generic mana may be paid this way, not the generic mana of
the rest (Waterbend — CR 701.67b). "Whenever you waterbend" triggers whenever
the player pays a waterbend cost, however they paid it (Waterbend — CR 701.67c):
the ``waterbend`` event is emitted once per cost paid.

>>> from executable_rules.model import GameState, ManaCost, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["you"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "you",
...                        ZoneKind.BATTLEFIELD)
>>> waterbend(state, "you", ManaCost.parse("{1}"), choose=Scripted(["tap Grizzly Bears for {1}"]))
['Grizzly Bears']
>>> state.cards[bears].tapped
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..engine.mana import pay_mana
from ..errors import IllegalChoice
from .tap_and_untap import tap_as_cost
from ..model import EventKind, GameState, ManaCost

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Waterbend"
KIND = "keyword action"
JAPANESE = ("水の技",)
SUBRULES = ("a", "b", "c")
SUMMARY = "Pay a cost; for each generic mana in it you may tap an untapped artifact or creature you control instead."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "cost", "with_cost"}
"""``do = "waterbend"``: ``cost`` = the waterbend cost ("{6}"); ``with_cost`` = the rest of a total cost it is part
of ("{1}{U}{U}", a spell's mana cost when waterbend is its additional cost)."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.67{letter}")


def _generic(cost: ManaCost) -> int:
    return sum(int(s) for s in cost.symbols if s.isdigit())


def _without_generic(cost: ManaCost, paid: int) -> ManaCost:
    left = _generic(cost) - paid
    coloured = tuple(s for s in cost.symbols if not s.isdigit())
    return ManaCost(((str(left),) if left else ()) + coloured)


def waterbend(state: GameState, player: str, cost: ManaCost, *, with_cost: ManaCost | None = None,
              choose: Chooser = first_legal) -> list[str]:
    """``player`` pays the waterbend ``cost`` (with the rest of the total cost ``with_cost``, paid only with mana:
    Waterbend — CR 701.67b); return the names of the artifacts and creatures tapped for it."""
    tapped: list[str] = []
    with state.action(f"waterbend {cost}"):
        for i in range(_generic(cost)):
            able = [c for c in state.permanents(player) if not c.tapped and c.types & {"Artifact", "Creature"}]
            if not able:
                break
            answer = decide(state, Decision.of(player, f"waterbend {cost}: generic mana {i + 1} of {_generic(cost)}",
                                               cite("a"), [Option(f"tap {c.display_name} for {{1}}", c.id) for c in able]
                                               + [Option("pay the rest with mana", None)]), choose)
            if answer.value is None:
                break
            c = state.cards[answer.value]
            tap_as_cost(state, player, c.id, f"waterbend {cost}", detail="tapped to pay {1} of a waterbend cost",
                        citation=cite("a"))
            tapped.append(c.display_name)
        rest = _without_generic(cost, len(tapped))
        if with_cost is not None:
            rest = rest + with_cost if rest.symbols else with_cost
        if rest.symbols:
            try:
                pay_mana(state, player, rest, choose, f"waterbend {cost}")
            except IllegalChoice as e:
                if with_cost is not None and _generic(with_cost):
                    raise IllegalChoice(e.label, e.reason + f"; artifacts and creatures pay only the waterbend cost's "
                                        f"generic mana, not the {with_cost}", cite("b")) from None
                raise
        state.emit(EventKind.PAY, player, names=(f"waterbend {cost}",), detail=f"{player} waterbends "
                   f"({len(tapped)} tapped for generic mana)", citation=cite("c"))
    return tapped


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "waterbend", cost = "{6}", with_cost = "{1}{U}{U}" }``."""
    with_cost = step.get("with_cost")
    waterbend(run.state, player, ManaCost.parse(str(step["cost"])),
              with_cost=ManaCost.parse(str(with_cost)) if with_cost else None, choose=choose)
