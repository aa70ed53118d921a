"""Transform — CR 701.27 (701.27c)

To transform a permanent is to turn it over so its other face is up; only
permanents represented by double-faced cards and tokens can (701.27a). The
corpus's card records have no back faces for transforming double-faced cards
(and the modal ones lack theirs), so the model has no permanent that can
transform: told to transform any permanent, nothing happens, as the rules say
for one that isn't double-faced (701.27c).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> transform(state, "Alice", bears)
False
>>> state.events[-1].describe()
"Alice: note Grizzly Bears — it isn't a double-faced card or token: nothing happens (Transform — CR 701.27c)"
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..errors import Unimplemented
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Transform"
KIND = "keyword action"
JAPANESE = ("変身する", "変身")
SUBRULES = ("c",)
SUMMARY = "Turn a double-faced permanent over; a permanent that isn't double-faced doesn't transform."
_NO_DFC = "the corpus's card records have no back faces for transforming double-faced cards, so the model has none"
OUT_OF_REACH = {
    "a": _NO_DFC,
    "b": _NO_DFC + ", and nothing to tell transforming from turning face up",
    "d": _NO_DFC + " (nor one with an instant or sorcery back face)",
    "e": _NO_DFC + ", and no \"transforms into\" triggers",
    "f": _NO_DFC + ", so no ability can find its permanent already transformed",
    "g": _NO_DFC + ", so no permanent is ever back face up",
}

STEP_KEYS = {"player", "card"}
"""``do = "transform"``: ``player``'s effect transforms ``card``."""


def transform(state: GameState, player: str, card: int) -> bool:
    """``player``'s effect transforms the permanent ``card``; return whether it transformed."""
    c = state.cards[card]
    if state.zone_of(card) is not state.battlefield:
        return False
    if len(c.oracle.faces) < 2 or c.oracle.layout.value != "transform":
        state.emit(EventKind.NOTHING, player, (card,), detail="it isn't a double-faced card or token: nothing happens",
                   citation=Citation(KEYWORD, "701.27c"))
        return False
    raise Unimplemented(f"transforming {c.oracle.name}: the model has no transforming double-faced cards")


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "transform", card = "Grizzly Bears" }``."""
    transform(run.state, player, run.card(step["card"]))
