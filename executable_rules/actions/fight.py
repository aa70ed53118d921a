"""Fight — CR 701.14 (701.14a–d)

When two creatures fight, each deals damage equal to its power to the other
(701.14a). If either is no longer on the battlefield or no longer a creature,
or is an illegal target of the resolving spell or ability, neither fights or
deals damage (701.14b). A creature that fights itself deals itself damage
equal to twice its power (701.14c). Fight damage isn't combat damage
(701.14d): the events say "fight damage", never "combat damage". Both
creatures deal their damage at once, with their powers as the fight begins;
lethal damage is then destroyed by state-based actions (704.5g).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice", "Bob"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> giant = state.add_card(OracleCard.simple("Hill Giant", "{3}{R}", "Creature", power="3", toughness="3"),
...                        "Bob", ZoneKind.BATTLEFIELD)
>>> fight(state, "Alice", bears, giant)
True
>>> state.cards[bears].damage, state.cards[giant].damage
(3, 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState, ObjectRef

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Fight"
KIND = "keyword action"
JAPANESE = ("格闘を行う", "格闘")
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Two creatures fight: each deals damage equal to its power to the other (not combat damage)."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "creature", "other"}
"""``do = "fight"``: ``creature`` fights ``other`` (the same name twice: it fights itself)."""


def fight(state: GameState, controller: str, first: int | None, second: int | None) -> bool:
    """``first`` and ``second`` fight (``controller`` controls the effect); ``None`` is a creature that isn't
    there any more (an illegal target). Return whether they fought."""
    from ..engine.effects import damage
    from ..engine.layers import characteristics
    fighters = [first, second]
    gone = [c for c in fighters if c is None or state.zone_of(c) is not state.battlefield
            or "Creature" not in characteristics(state, c).types]
    if gone:
        state.emit(EventKind.NOTHING, controller, tuple(c for c in fighters if c is not None),
                   detail="one of them is gone, no longer a creature or an illegal target: neither fights or deals damage",
                   citation=Citation(KEYWORD, "701.14b"))
        return False
    assert first is not None and second is not None
    powers = {c: max(characteristics(state, c).power or 0, 0) for c in (first, second)}
    letter = "c" if first == second else "a"
    with state.action("fight"):
        state.emit(EventKind.FIGHT, controller, (first, second),
                   detail="it fights itself: twice its power" if first == second else "each deals damage equal to its power",
                   citation=Citation(KEYWORD, f"701.14{letter}"))
        for source, target in ((first, second), (second, first)):
            damage(state, controller, state.cards[source].display_name, ObjectRef(target, state.ref(target).incarnation),
                   powers[source])
            state.emit(EventKind.NOTHING, controller, (target,), detail=f"fight damage from {state.cards[source].display_name}: "
                       "not combat damage", citation=Citation(KEYWORD, "701.14d"))
    return True


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "fight", creature = "Grizzly Bears", other = "Hill Giant" }``."""
    fight(run.state, player, run.card(step["creature"], "creature"), run.card(step["other"], "other"))
