"""Combat Damage Step — CR 510 (510.1a–510.4): the scenario step ``combat_damage``

Each attacking and blocking creature assigns combat damage equal to its power; a creature with 0 or less
assigns none (510.1a). An unblocked creature assigns it to the player or planeswalker it attacks — none if that
planeswalker has left (510.1b). A blocked creature assigns it to its blockers, divided as its controller chooses
among two or more — none if no creature blocks it any longer (510.1c); a blocker likewise to the creatures it
blocks (510.1d); an assignment that breaks these rules is illegal (510.1e). All of it is dealt at once (510.2),
then the active player gets priority, after state-based actions and triggers (510.3). With first strike or
double strike in combat, there is a first combat damage step for those creatures only, then a second for the
others and those with double strike (510.4). The rules are :mod:`executable_rules.engine.combat`; trample,
deathtouch, lifelink and the rest are their keyword modules.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> from executable_rules.actions.attack import attack
>>> from executable_rules.actions.block import block
>>> state = new_game(["you", "opponent"])
>>> wurm = state.add_card(OracleCard.simple("Craw Wurm", "{4}{G}{G}", "Creature", power="6", toughness="4"),
...                       "you", ZoneKind.BATTLEFIELD)
>>> a, b = (state.add_card(OracleCard.simple(n, "{1}{G}", "Creature", power="2", toughness="2"), "opponent",
...                        ZoneKind.BATTLEFIELD) for n in ("Grizzly Bears", "Trained Armodon"))
>>> attack(state, "you", {wurm: "opponent"}); block(state, {a: [wurm], b: [wurm]})
>>> combat_damage(state, assign={wurm: {a: 1, b: 5}})
>>> state.names(state.player("opponent").graveyard), state.names(state.player("you").graveyard)
(['Trained Armodon'], ['Craw Wurm'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ..choices import Chooser, first_legal
from ..engine import combat
from ..model import GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Combat Damage Step"
KIND = "rule"
JAPANESE = ("戦闘ダメージ・ステップ", "戦闘ダメージ")
SUBRULES = ("1", "1a", "1b", "1c", "1d", "1e", "2", "3", "3a", "4")
SUMMARY = "Attackers and blockers deal damage equal to their power, divided as their controllers choose; first strike first."
OUT_OF_REACH: dict[str, str] = {}
"""Nothing: every subrule of the combat damage step runs."""

STEP_KEYS = {"player", "assign", "only"}
"""``do = "combat_damage"``: ``assign = { "Attacker" = { "Blocker" = 2, "opponent" = 3 } }`` divides a creature's
damage (the others assign lethal damage to each creature in the order blocks were declared, the rest to the last
one, or to the player with trample); ``only = "first strike"`` stops after the first-strike damage step."""


def combat_damage(state: GameState, choose: Chooser = first_legal,
                  assign: Mapping[int, combat.Assignment] | None = None, *, only_first_strike: bool = False) -> None:
    """Declare no blockers if none were, then deal combat damage (both steps unless ``only_first_strike``)."""
    if state.combat is not None and not state.combat.blockers_declared and combat.attackers(state):
        combat.declare_blockers(state, [], choose)
    combat.combat_damage(state, choose, assign, only_first_strike=only_first_strike)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    players = [p.name for p in run.state.players]
    assign: dict[int, dict[combat.DamageTarget, int]] = {}
    for source, split in step.get("assign", {}).items():
        targets: dict[combat.DamageTarget, int] = {}
        for name, amount in split.items():
            targets[name if name in players else run.card(name, "assign")] = int(amount)
        assign[run.card(source, "assign")] = targets
    only = step.get("only")
    if only not in (None, "first strike"):
        raise run.fail("only", f"only = {only!r}: the one step to stop after is \"first strike\"")
    combat_damage(run.state, choose, assign, only_first_strike=only == "first strike")
