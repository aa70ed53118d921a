"""Vote — CR 701.38 (701.38a–b, d)

To vote, each player, starting with a specified player and going on in turn
order, chooses one of the listed choices (Vote — CR 701.38a). The choices may be
objects, words with no rules meaning each tied to an effect, or other values
(701.38b). A player with several votes casts them all at the moment they would
otherwise vote (701.38d). :func:`vote` returns the tally; what the card does
with it ("each … with the most votes or tied") is the card's.

>>> from executable_rules.model import GameState
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice", "Bob", "Carol"])
>>> vote(state, ["grace", "condemnation"], "Alice", choose=Scripted(["vote grace", "vote condemnation", "vote grace"]))
{'grace': 2, 'condemnation': 1}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Vote"
KIND = "keyword action"
JAPANESE = ("投票する", "投票")
SUBRULES = ("a", "b", "d")
SUMMARY = "Starting with a given player and in turn order, each player chooses one of the listed choices."
OUT_OF_REACH = {
    "c": "the model has no abilities that refer to voting (\"whenever players finish voting\", extra votes for "
         "voting), so none could tell a vote from another choice",
}

STEP_KEYS = {"player", "choices", "starting", "votes"}


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.38{letter}")


def vote(state: GameState, choices: Sequence[str], starting: str, *, votes: Mapping[str, int] | None = None,
         choose: Chooser = first_legal) -> dict[str, int]:
    """Every player votes for one of ``choices``, from ``starting`` in turn order; ``votes`` gives a player more
    than one vote (701.38d). Return the votes each choice got."""
    names = [p.name for p in state.players if not p.lost]
    order = names[names.index(starting):] + names[:names.index(starting)]           # 701.38a
    tally = {choice: 0 for choice in choices}
    with state.action("vote"):
        for player in order:
            n = (votes or {}).get(player, 1)
            for i in range(n):                                                       # 701.38d: all at once
                answer = decide(state, Decision.of(player, f"vote ({i + 1} of {n})" if n > 1 else "vote",
                                                   cite("d" if n > 1 else "a"),
                                                   [Option(f"vote {c}", c) for c in choices]), choose)
                tally[answer.value] += 1
                state.emit(EventKind.VOTE, player, names=(str(answer.value),), detail=f"votes for {answer.value}",
                           citation=cite("d" if n > 1 else "a"))
        state.emit(EventKind.VOTE, starting, detail="the vote: " + ", ".join(f"{c} {v}" for c, v in tally.items()),
                   citation=cite("b"))
    return tally


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "vote", choices = ["grace", "condemnation"], starting = "you", votes = { you = 2 } }``."""
    starting = run.player(step, "starting") if "starting" in step else player
    vote(run.state, [str(c) for c in step["choices"]], starting, votes=step.get("votes"), choose=choose)
