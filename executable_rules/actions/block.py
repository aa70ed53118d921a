"""Declare Blockers Step — CR 509 (509.1a–509.2): the scenario step ``block``

The defending player declares which of their untapped creatures block, each blocking one creature attacking
that player or a planeswalker they control (509.1a), obeying the restrictions of the attackers' evasion
abilities — flying, menace, intimidate, fear, shadow, landwalk — which add up (509.1b). Each chosen creature
becomes a blocking creature (509.1g); an attacker with a blocker declared for it becomes blocked, and stays
blocked even if its blockers leave combat; one without becomes unblocked (509.1h). Then the active player gets
priority (509.2). The rules themselves are :mod:`executable_rules.engine.combat`.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> from executable_rules.actions.attack import attack
>>> state = new_game(["you", "opponent"])
>>> drake = state.add_card(OracleCard.simple("Wind Drake", "{2}{U}", "Creature", power="2", toughness="2",
...                        text="Flying"), "you", ZoneKind.BATTLEFIELD)
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "opponent", ZoneKind.BATTLEFIELD)
>>> attack(state, "you", {drake: "opponent"})
>>> block(state, {bears: [drake]})
Traceback (most recent call last):
...
executable_rules.errors.IllegalChoice: illegal choice 'block Wind Drake with Grizzly Bears': Wind Drake has flying: only a creature with flying or reach can block it (Flying — CR 702.9b)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..choices import Chooser, first_legal
from ..engine import combat
from ..engine import turn as engine_turn
from ..model import GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Declare Blockers Step"
KIND = "rule"
JAPANESE = ("ブロック・クリーチャー指定ステップ", "ブロック")
SUBRULES = ("1", "1a", "1b", "1g", "1h", "2")
SUMMARY = "The defending player declares blockers, within the attackers' evasion abilities; blocked stays blocked."
OUT_OF_REACH = {
    "1c": "requirements to block (\"blocks each combat if able\", lure) aren't read from Oracle text yet",
    "1d": "costs to block aren't modelled", "1e": "costs to block aren't modelled",
    "1f": "costs to block aren't modelled",
    "1i": "\"whenever … blocks\" triggers aren't read yet", "2a": "\"whenever … blocks\" triggers aren't read yet",
    "3": "\"whenever … blocks\" triggers aren't read yet", "3a": "block triggers aren't read yet",
    "3b": "block triggers aren't read yet", "3c": "\"becomes blocked\" triggers aren't read yet",
    "3d": "\"becomes blocked by\" triggers aren't read yet", "3e": "block-count triggers aren't read yet",
    "3f": "block triggers aren't read yet", "3g": "\"attacks and isn't blocked\" triggers aren't read yet",
    "4": "putting a creature onto the battlefield blocking isn't modelled",
    "4a": "putting a creature onto the battlefield blocking isn't modelled",
    "4b": "putting a creature onto the battlefield blocking isn't modelled",
}
"""Subrules the model doesn't run, each with the reason."""

STEP_KEYS = {"player", "blocks"}
"""``do = "block"``: ``blocks = { "Blocker" = "Attacker" }`` (or a list of attackers, for a creature that can block
more than one); ``blocks = {}`` declares no blockers."""


def block(state: GameState, blocks: Mapping[int, Sequence[int]], choose: Chooser = first_legal) -> None:
    """Move on to the declare blockers step and declare ``blocks`` ({blocker: [attackers it blocks]})."""
    if state.step not in ("declare attackers",):
        engine_turn.resolve_stack(state, choose)
    combat.declare_blockers(state, [(b, a) for b, attacked in blocks.items() for a in attacked], choose)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    blocks: dict[int, list[int]] = {}
    for blocker, attacked in step.get("blocks", {}).items():
        names = attacked if isinstance(attacked, list) else [attacked]
        blocks[run.card(blocker, "blocks")] = [run.card(n, "blocks") for n in names]
    block(run.state, blocks, choose)


def _blocking(state: GameState, player: str | None, expected: Any) -> Any:
    found: dict[str, Any] = {}
    if state.combat is None:
        return found
    for b, a in state.combat.blocks:
        if combat.in_combat(state, b) and state.is_current(a):
            name = state.cards[b.card].display_name
            found.setdefault(name, []).append(state.cards[a.card].display_name)
    return {k: (v[0] if len(v) == 1 and not isinstance(expected.get(k), list) else v) for k, v in found.items()}


EXPECT = {"blocking": _blocking}
"""``blocking = { "Blocker" = "Attacker" }``: exactly the blocks now."""
