"""Declare Attackers Step — CR 508 (508.1a–508.8): the scenario step ``attack``

The active player declares which of their creatures attack, and what each attacks (508.1). A creature can
attack if it is untapped and has haste or has been under its controller's control continuously since the
turn began (508.1a; Creatures — CR 302.6); each attacks the defending player or a planeswalker that player
controls (508.1b). Attacking taps the creature — it isn't a cost (508.1f) — unless it has vigilance. The
chosen creatures become attacking creatures until they're removed from combat or combat ends (508.1k);
abilities that trigger on attacking trigger (508.1m), and the active player gets priority (508.2). With no
attackers the declare blockers and combat damage steps are skipped (508.8). The rules themselves are
:mod:`executable_rules.engine.combat`.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "you", ZoneKind.BATTLEFIELD)
>>> attack(state, "you", {bears: "opponent"})
>>> state.step, [state.cards[c].name for c, _ in attacking(state)], state.cards[bears].tapped
('declare attackers', ['Grizzly Bears'], True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ..choices import Chooser, first_legal
from ..engine import combat
from ..engine import turn as engine_turn
from ..engine.layers import characteristics
from ..errors import IllegalChoice
from ..citation import Citation
from ..model import GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Declare Attackers Step"
KIND = "rule"
JAPANESE = ("攻撃クリーチャー指定ステップ", "攻撃")
SUBRULES = ("1", "1a", "1b", "1f", "1k", "1m", "2", "8")
SUMMARY = "The active player declares attackers: untapped, not summoning sick (or haste), no defender; attacking taps."
_TBD = "requirements and restrictions other than defender and summoning sickness aren't read from Oracle text yet"
OUT_OF_REACH = {
    "1c": _TBD, "1d": "no card here says a creature attacks if able: " + _TBD,
    "1e": "banding isn't modelled (Banding — CR 702.22)",
    "1g": "costs to attack aren't modelled", "1h": "costs to attack aren't modelled",
    "1i": "costs to attack aren't modelled", "1j": "costs to attack aren't modelled",
    "2a": "the only attack triggers the model has are exalted's, which resolve as they trigger",
    "2b": "the only attack triggers the model has are exalted's, which resolve as they trigger",
    "3": "\"whenever … attacks\" triggers aren't read yet (exalted only)",
    "3a": "\"whenever … attacks\" triggers aren't read yet", "3b": "\"whenever … is attacked\" triggers aren't read",
    "3c": "\"attacks with\" triggers aren't read", "3d": "\"whenever a player attacks\" triggers aren't read",
    "3e": "\"attacks another player\" triggers aren't read",
    "3f": "\"attacks and isn't blocked\" triggers aren't read",
    "4": "putting creatures onto the battlefield attacking isn't modelled",
    "4a": "putting creatures onto the battlefield attacking isn't modelled",
    "4b": "effects that state a creature is attacking aren't modelled",
    "4c": "putting creatures onto the battlefield attacking isn't modelled",
    "4d": "putting creatures onto the battlefield attacking isn't modelled",
    "5": "\"defending player\" in a card's text isn't resolved by the effects yet",
    "5a": "multiplayer defending players aren't chosen (two players, or one opponent attacked)",
    "6": "\"attacking a player\" isn't asked by any effect the model reads",
    "7": "reselecting what a creature attacks isn't modelled", "7a": "reselecting isn't modelled",
    "7b": "reselecting isn't modelled", "7c": "reselecting isn't modelled", "7d": "reselecting isn't modelled",
    "7e": "the limited range of influence option isn't modelled",
}
"""Subrules the model doesn't run, each with the reason."""

STEP_KEYS = {"player", "attackers", "defender"}
"""``do = "attack"``: ``attackers`` (names, or a table name = what it attacks), ``defender`` (a player or a
planeswalker's name; the only opponent by default), ``player`` (the active player by default)."""


def attack(state: GameState, player: str, attacks: Mapping[int, combat.Attacked],
           choose: Chooser = first_legal) -> None:
    """Move on to the declare attackers step and have ``player`` declare ``attacks`` ({creature: what it attacks})."""
    order = engine_turn.STEPS
    if order.index(state.step) > order.index("beginning of combat"):
        raise IllegalChoice("declare attackers", f"it is the {state.step} step: attackers are declared once, in the "
                            "declare attackers step", Citation(KEYWORD, "508.1"))
    if state.step != "beginning of combat":
        engine_turn.pass_to(state, "beginning of combat", choose=choose)
    combat.declare_attackers(state, player, list(attacks.items()), choose)


def attacking(state: GameState) -> list[tuple[int, combat.Attacked]]:
    """The attacking creatures now (those removed from combat are not: Combat Phase — CR 506.4)."""
    return combat.attackers(state)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    state = run.state
    player = run.player(step) if "player" in step else state.active
    entries = step.get("attackers", [])
    if isinstance(entries, list):
        entries = {name: step.get("defender") for name in entries}
    attacks: dict[int, combat.Attacked] = {}
    for name, defender in entries.items():
        attacks[run.card(name, "attackers")] = _defender(run, player, defender)
    attack(state, player, attacks, choose)


def _defender(run: "ScenarioRun", player: str, name: str | None) -> combat.Attacked:
    state = run.state
    players = [p.name for p in state.players]
    if name is None:
        opponents = [p for p in players if p != player]
        if len(opponents) != 1:
            raise run.fail("defender", f"say which opponent is attacked (defender = one of {opponents})")
        return opponents[0]
    if name in players:
        return name
    return state.ref(run.card(name, "defender"))


def _attacking(state: GameState, player: str | None, expected: Any) -> Any:
    return sorted(state.cards[c].display_name for c, _ in combat.attackers(state))


def _keywords(state: GameState, player: str | None, expected: Any) -> Any:
    found: dict[str, Any] = {}
    for name in expected:
        cards = [c for c in state.battlefield.cards if state.cards[c].display_name == name]
        found[name] = sorted(characteristics(state, cards[0]).keywords) if cards else None
    return found


def _loyalty(state: GameState, player: str | None, expected: Any) -> Any:
    found: dict[str, Any] = {}
    for name in expected:
        cards = [c for c in state.battlefield.cards if state.cards[c].display_name == name]
        found[name] = state.cards[cards[0]].counters.get("loyalty", 0) if cards else None
    return found


EXPECT = {"attacking": _attacking, "keywords": _keywords, "loyalty": _loyalty}
"""``attacking = [names]`` (the attacking creatures now), ``keywords = { Name = ["Flying", …] }`` (exactly the keyword
abilities it has now, with every effect applied), ``loyalty = { Name = n }`` (loyalty counters)."""
