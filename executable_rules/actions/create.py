"""Create — CR 701.7 (701.7a)

To create tokens is to put the specified number of tokens with the specified
characteristics onto the battlefield (701.7a). A token's name is its
subtypes plus "Token" unless the effect names it (Tokens — CR 111.4); the
predefined tokens (Clue, Treasure, Food, …) have their own abilities
(Tokens — CR 111.10). A replacement effect may change how many are created:
"If an effect would create one or more tokens under your control, it creates
twice that many of those tokens instead" (Parallel Lives, Doubling Season);
each such effect doubles again.

>>> from executable_rules.model import GameState
>>> state = GameState.new(["Alice"])
>>> clues = create_tokens(state, "Alice", predefined_token("Clue"), 2)
>>> state.names(state.battlefield), state.cards[clues[0]].oracle.main.text
(['Clue Token', 'Clue Token'], '{2}, Sacrifice this artifact: Draw a card.')
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, Face, FaceKind, GameState, Layout, OracleCard, ZoneKind

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Create"
KIND = "keyword action"
JAPANESE = ("生成する", "生成")
SUBRULES = ("a",)
SUMMARY = "Put the specified number of tokens with the specified characteristics onto the battlefield."
OUT_OF_REACH = {
    "b": "no continuous effect of the model changes a token's characteristics as it is created and no replacement "
         "effect depends on them, so the order of 701.7b can't be observed (token doublers are run, under 701.7a)",
    "c": "a note on Oracle errata (\"put … onto the battlefield\" became \"create\"): the corpus's Oracle text already "
         "says \"create\", so there is nothing to run",
}

PREDEFINED = {
    "Treasure": "{T}, Sacrifice this artifact: Add one mana of any color.",
    "Food": "{2}, {T}, Sacrifice this artifact: You gain 3 life.",
    "Clue": "{2}, Sacrifice this artifact: Draw a card.",
}
"""The abilities of the predefined artifact tokens (Tokens — CR 111.10)."""

DOUBLER = "if an effect would create one or more tokens under your control, it creates twice that many of those tokens instead"
READS_LINES = (re.compile(re.escape(DOUBLER) + r"\.?$", re.IGNORECASE),)
"""Lines this module applies by reading their text (the grammar has no template): a run doesn't report them unread."""

STEP_KEYS = {"player", "token", "count"}
"""``do = "create"``: ``player`` creates ``count`` ``token`` tokens (a predefined one: ``Clue``, ``Treasure``,
``Food``)."""


def predefined_token(name: str) -> OracleCard:
    """The Oracle card of a predefined artifact token: ``Clue`` is a Clue Token (Tokens — CR 111.10)."""
    name = name.capitalize()
    face = Face(f"{name} Token", None, frozenset({"Artifact"}), (name,), frozenset(), None, None,
                PREDEFINED.get(name, ""), FaceKind.NORMAL)
    return OracleCard(face.name, Layout.NORMAL, (face,), is_token=True)


def doublers(state: GameState, player: str) -> list[str]:
    """The permanents ``player`` controls that double the tokens created under their control."""
    return [c.oracle.name for c in state.permanents(player) if not c.face_down
            and any(line.strip().lower().replace(c.oracle.name.lower(), "~").rstrip(".") == DOUBLER
                    for line in c.oracle.main.text.split("\n"))]


def create(state: GameState, player: str, oracle: OracleCard, count: int = 1) -> list[int]:
    """``player`` creates ``count`` tokens that are ``oracle`` (the action by its name: :func:`create_tokens`)."""
    return create_tokens(state, player, oracle, count)


def create_tokens(state: GameState, player: str, oracle: OracleCard, count: int = 1, *, detail: str = "") -> list[int]:
    """``player`` creates ``count`` tokens that are ``oracle`` (701.7a); return them. Replacement effects that
    double the number apply first, each doubling again."""
    doubled = doublers(state, player)
    for name in doubled:
        state.emit(EventKind.NOTHING, player, names=(name,),
                   detail=f"it creates twice that many tokens instead: {count} → {count * 2}",
                   citation=Citation("Replacement Effects", "614.1a"))
        count *= 2
    face = oracle.main
    what = detail or (f"a {face.power}/{face.toughness} {' '.join(sorted(oracle.colors)) or 'colorless'} "
                      f"{face.type_line} token" if face.power else f"a {face.type_line} token")
    created = []
    for _ in range(count):
        card = state.add_card(oracle, player, ZoneKind.BATTLEFIELD)
        state.emit(EventKind.CREATE, player, (card,), destination="battlefield", detail=what,
                   citation=Citation(KEYWORD, "701.7a"))
        state.emit(EventKind.MOVE, player, (card,), destination="battlefield", detail="a token enters",
                   citation=Citation("Tokens", "111.1"))
        created.append(card)
    return created


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "create", token = "Treasure", count = 2 }``."""
    create_tokens(run.state, player, predefined_token(str(step.get("token", "Clue"))), int(step.get("count", 1)))
