"""Clash — CR 701.30 (701.30a–d)

To clash, a player reveals the top card of their library and may then put it
on the bottom (Clash — CR 701.30a). "Clash with an opponent" is choosing an
opponent, and both of you clash (701.30b). The clashing players reveal at the
same time, then decide in APNAP order where their cards go, and the cards move
at the same time (701.30c). A player wins a clash if they revealed a card with a
higher mana value than every other card revealed (701.30d): a tie, or an empty
library, wins for no one who doesn't beat every card.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice", "Bob"])
>>> _ = state.add_card(OracleCard.simple("Ogre", "{2}{R}", "Creature", power="3", toughness="3"), "Alice", ZoneKind.LIBRARY)
>>> _ = state.add_card(OracleCard.simple("Bolt", "{R}", "Instant"), "Bob", ZoneKind.LIBRARY)
>>> clash(state, "Alice", "Bob")
['Alice']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Clash"
KIND = "keyword action"
JAPANESE = ("激突を行う", "激突")
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Reveal the top card of your library (you may put it on the bottom); the higher mana value wins."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "opponent"}


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.30{letter}")


def clash(state: GameState, player: str, opponent: str | None = None, *, choose: Chooser = first_legal) -> list[str]:
    """``player`` clashes with ``opponent`` (one they choose if ``None``; 701.30b); return the winners: ``[player]``
    if they won, ``[opponent]`` if the opponent did, ``[]`` otherwise."""
    with state.action("clash"):
        if opponent is None:
            answer = decide(state, Decision.of(player, "clash with which opponent", cite("b"),
                                               [Option(f"clash with {p.name}", p.name) for p in state.opponents(player)
                                                if not p.lost]), choose)
            opponent = str(answer.value)
        clashing = [p.name for p in state.apnap() if p.name in (player, opponent)]
        revealed: dict[str, int | None] = {}
        for who in clashing:                                             # 701.30c: revealed at the same time
            library = state.player(who).library
            top = library.cards[0] if library.cards else None
            revealed[who] = top
            if top is None:
                state.emit(EventKind.REVEAL, who, source=library.label, detail="clash: an empty library reveals nothing",
                           citation=cite("a"))
            else:
                state.emit(EventKind.REVEAL, who, (top,), source=library.label,
                           detail=f"clash: mana value {state.cards[top].mana_value}", citation=cite("a"))
        bottom = []
        for who in clashing:                                             # 701.30c: decided in APNAP order
            top = revealed[who]
            if top is None:
                continue
            name = state.cards[top].display_name
            answer = decide(state, Decision.of(who, f"clash: {name} on top or on the bottom?", cite("c"),
                                               [Option(f"keep {name} on top", False),
                                                Option(f"put {name} on the bottom", True)]), choose)
            if answer.value:
                bottom.append((who, top))
        for who, top in bottom:                                          # … then move at the same time
            library = state.player(who).library
            state.move(top, library, position="bottom")
            state.emit(EventKind.MOVE, who, (top,), source=library.label, destination=f"the bottom of {library.label}",
                       citation=cite("a"))
        values = {who: state.cards[c].mana_value for who, c in revealed.items() if c is not None}
        winners = [who for who, v in values.items() if all(v > w for other, w in values.items() if other != who)]
        state.emit(EventKind.CLASH, player, names=tuple(winners),
                   detail=f"{player} clashed with {opponent}: " + (f"{winners[0]} won" if winners else "no one won"),
                   citation=cite("d"))
    return winners


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "clash", opponent = "opponent" }``."""
    opponent = run.player(step, "opponent") if "opponent" in step else None
    clash(run.state, player, opponent, choose=choose)
