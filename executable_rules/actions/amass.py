"""Amass — CR 701.47 (701.47a–d)

To amass [subtype] N: if you don't control an Army creature, create a 0/0
black [subtype] Army creature token; choose an Army creature you control, put
N +1/+1 counters on it, and if it isn't a [subtype], it becomes one in addition
to its other types (Amass — CR 701.47a). The player has amassed once this is
done, even if some of it was impossible (701.47b). "The Army you amassed" is
the creature chosen, whether or not it got counters (701.47c): :func:`amass`
returns it. Older cards printed "amass N" read "amass Zombies N" (701.47d).

>>> from executable_rules.model import GameState
>>> state = GameState.new(["Alice"])
>>> army = amass(state, "Alice", "Zombies", 2)
>>> c = state.cards[army]
>>> c.name, c.oracle.subtypes, c.counters, c.is_token
('Zombie Army Token', ('Zombie', 'Army'), {'+1/+1': 2}, True)
>>> amass(state, "Alice", "Orcs", 1) == army      # the same Army, now an Orc too
True
>>> from executable_rules.engine.layers import characteristics
>>> characteristics(state, army).subtypes, characteristics(state, army).power
(('Zombie', 'Army', 'Orc'), 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import ContinuousEffect, EventKind, Face, FaceKind, GameState, Layout, OracleCard, ZoneKind

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Amass"
KIND = "keyword action"
JAPANESE = ("動員を行う", "動員")
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Create a 0/0 Army token if you have no Army; put N +1/+1 counters on an Army you control."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "subtype", "n"}


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.47{letter}")


def singular(subtype: str | None) -> str:
    """``Zombie`` for "Zombies" (how amass is printed); no subtype is Zombie (the errata of 701.47d)."""
    if not subtype:
        return "Zombie"
    word = subtype.strip().capitalize()
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def army_token(subtype: str) -> OracleCard:
    """A 0/0 black [subtype] Army creature token."""
    name = f"{subtype} Army Token"
    face = Face(name, None, frozenset({"Creature"}), (subtype, "Army"), frozenset(), "0", "0", "", FaceKind.NORMAL)
    return OracleCard(name, Layout.NORMAL, (face,), color_indicator=frozenset({"B"}), is_token=True)


def amass(state: GameState, player: str, subtype: str | None, n: int, *, choose: Chooser = first_legal) -> int | None:
    """``player`` amasses [subtype] ``n``; return the Army chosen (the amassed Army, 701.47c)."""
    from ..engine.layers import characteristics
    kind = singular(subtype)
    letter = "a" if subtype else "d"
    with state.action(f"amass {kind}s {n}"):
        armies = [c.id for c in state.permanents(player)
                  if {"Creature"} <= characteristics(state, c.id).types and "Army" in characteristics(state, c.id).subtypes]
        if not armies:
            token = state.add_card(army_token(kind), player, ZoneKind.BATTLEFIELD)
            state.emit(EventKind.CREATE, player, (token,), destination="battlefield",
                       detail=f"a 0/0 black {kind} Army creature token", citation=cite(letter))
            state.emit(EventKind.MOVE, player, (token,), destination="battlefield", detail="a token enters",
                       citation=Citation("Tokens", "111.1"))
            armies = [token]
        answer = decide(state, Decision.of(player, f"amass {kind}s {n}: which Army", cite("a"),
                                           [Option(f"amass onto {state.cards[a].display_name}", a) for a in armies]),
                        choose)
        army = int(answer.value)
        if n > 0:
            state.add_counters(army, "+1/+1", n)
            state.emit(EventKind.COUNTER, player, (army,), amount=n, detail=f"{n} +1/+1 counter(s)", citation=cite("a"))
        if kind not in characteristics(state, army).subtypes:
            state.append(state.continuous, ContinuousEffect(f"amass {kind}s", "4", (state.ref(army),), state.stamp(),
                                                            duration="indefinitely", subtypes=(kind,)))
            state.emit(EventKind.EFFECT, player, (army,), detail=f"becomes {'an' if kind[0] in 'AEIOU' else 'a'} {kind} in addition to its other types",
                       citation=cite("a"))
        state.emit(EventKind.AMASS, player, (army,), amount=n, detail=f"amassed {kind}s {n}", citation=cite("b"))
    return army


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "amass", subtype = "Zombies", n = 2 }``."""
    amass(run.state, player, step.get("subtype"), int(step.get("n", 1)), choose=choose)


def _subtypes(state: GameState, player: str | None, expected: Any) -> Any:
    """``subtypes = { "Name" = ["Zombie", "Army"] }``: the permanent's subtypes now (every effect applied)."""
    from ..engine.layers import characteristics
    found: dict[str, Any] = {}
    for name in expected:
        cards = [c for c in state.battlefield.cards if state.cards[c].oracle.name == name]
        got = list(characteristics(state, cards[0]).subtypes) if cards else None
        # In any order: written as the expected list when it holds the same subtypes.
        found[name] = expected[name] if got is not None and sorted(got) == sorted(expected[name]) else got
    return found


EXPECT = {"subtypes": _subtypes}
