"""A game the engine runs: a :class:`~executable_rules.model.GameState` whose events are watched for triggers.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.actions.shuffle import shuffle
>>> from executable_rules.engine.turn import resolve_stack
>>> state = new_game(["Alice", "Bob"])
>>> probe = OracleCard.simple("Psychogenic Probe", "{2}", "Artifact", text="Whenever a spell or ability causes a "
...                           "player to shuffle their library, Psychogenic Probe deals 2 damage to that player.")
>>> _ = state.add_card(probe, "Bob", ZoneKind.BATTLEFIELD)
>>> shuffle(state, "Alice")                    # an empty library: still a shuffle
>>> [t.label for t in state.pending_triggers]
["Psychogenic Probe's ability"]
>>> resolve_stack(state); state.player("Alice").life
18
"""

from __future__ import annotations

from typing import Sequence

from ..model import GameState
from .replacement import die_replacement, exile_replacement, graveyard_replacement
from .triggers import watch


def new_game(players: Sequence[str], *, seed: int = 0, active: str | None = None) -> GameState:
    """A game with these players (turn order), its triggered abilities watched; turn 1, precombat main."""
    state = GameState.new(players, seed=seed, active=active)
    state.watchers.append(watch)
    from ..actions.exile import return_when_source_leaves
    state.watchers.append(return_when_source_leaves)          # "exile … until ~ leaves the battlefield" (610.3)
    state.move_replacements.append(graveyard_replacement)
    state.move_replacements.append(die_replacement)           # "If ~ would die, put ~ on top of its owner's library"
    state.move_replacements.append(exile_replacement)         # "If a card … would be put into a graveyard, exile it instead"
    from ..actions.flashback import flashback_replacement
    state.move_replacements.append(flashback_replacement)     # Flashback — CR 702.34a: exiled as it leaves the stack
    from ..actions.buyback import buyback_replacement
    state.move_replacements.append(buyback_replacement)       # Buyback — CR 702.27a: to its owner's hand as it resolves
    from ..actions.aftermath import aftermath_replacement
    state.move_replacements.append(aftermath_replacement)     # Aftermath — CR 702.127a: likewise, cast from a graveyard
    from ..actions.madness import madness_replacement
    state.move_replacements.append(madness_replacement)       # Madness — CR 702.35a: discarded into exile
    from ..actions.suspend import watch_upkeep
    state.watchers.append(watch_upkeep)                       # Suspend — CR 702.62a: its triggers work in exile
    return state
