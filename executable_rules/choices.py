"""Decision points, the choosers that answer them, and ``explore()``, which walks every answer.

Every choice a player makes during an action (cast the discovered card or
not, which card to find, which option of a villainous choice) is a
:class:`Decision`: who decides, what, under which rule, and the options, each
legal or illegal with the reason. ``legal_choices()`` generates the legal
ones. A *chooser* answers a decision with one option:

- :func:`first_legal` takes the first legal option;
- :class:`Scripted` follows a list of option labels, as a scenario does, and
  raises :class:`~executable_rules.errors.IllegalChoice` for a label the
  rules forbid;
- :class:`RandomChooser` picks uniformly with its own seeded generator;
- :func:`explore` walks every legal option of every decision, as perft walks
  every legal move, and returns each reachable :class:`Outcome`.

A decision with a single legal option is taken without asking the chooser.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> def pick_a_number(state, choose):
...     d = Decision.of("Alice", "pick", None, [Option("one", 1), Option("two", 2),
...                     Option("three", 3, legal=False, reason="too big")])
...     return decide(state, d, choose).value
>>> pick_a_number(state, Scripted(["two"]))
2
>>> pick_a_number(state, Scripted(["three"]))
Traceback (most recent call last):
...
executable_rules.errors.IllegalChoice: illegal choice 'three': too big
>>> exploration = explore(pick_a_number, state)
>>> [o.result for o in exploration.outcomes], exploration.by_first_choice
([1, 2], {'one': 1, 'two': 1})
"""

from __future__ import annotations

import difflib
import enum
import itertools
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from .citation import Citation
from .errors import ExplorationLimit, IllegalChoice, ImpossibleState, UnknownOption
from .model import EventKind, GameState


@dataclass(frozen=True)
class Option:
    """One answer to a decision: a label for people and scripts, the value for the action.

    An illegal option keeps the ``reason`` it is illegal, naming the rule.
    """

    label: str
    value: Any = None
    legal: bool = True
    reason: str = ""
    citation: Citation | None = None


@dataclass(frozen=True)
class Decision:
    """A decision point: ``player`` decides ``prompt`` under ``citation``.

    ``generate`` yields the legal options (lazily: a search may have many);
    ``illegal`` lists options the player might think of that the rules forbid,
    each with its reason, for the trace and for scripts that try them.
    """

    player: str
    prompt: str
    citation: Citation | None
    generate: Callable[[], Iterable[Option]]
    illegal: tuple[Option, ...] = ()

    @classmethod
    def of(cls, player: str, prompt: str, citation: Citation | None, options: Sequence[Option]) -> Decision:
        """A decision from a list of options, legal and illegal mixed."""
        legal = tuple(o for o in options if o.legal)
        return cls(player, prompt, citation, lambda: legal, tuple(o for o in options if not o.legal))

    def legal_choices(self) -> Iterator[Option]:
        """The legal options, in a fixed order."""
        return iter(self.generate())

    def find(self, label: str) -> Option | None:
        """The option with this label (legal first, then illegal), ignoring case; ``None`` if none."""
        wanted = label.casefold()
        for pool in (self.legal_choices(), iter(self.illegal)):
            for option in pool:
                if option.label.casefold() == wanted:
                    return option
        return None

    def describe(self, limit: int = 8) -> str:
        """The options for a message: the first ``limit`` legal ones, then the illegal ones."""
        legal: list[str] = []
        for option in self.legal_choices():
            if len(legal) == limit:
                legal.append("…")
                break
            legal.append(repr(option.label))
        text = f"legal: {', '.join(legal) or 'none'}"
        if self.illegal:
            text += "; illegal: " + "; ".join(f"{o.label!r} ({o.reason})" for o in self.illegal[:limit])
        return text


Chooser = Callable[[Decision], Option]


def decide(state: GameState, decision: Decision, choose: Chooser) -> Option:
    """Ask ``choose`` unless only one option is legal; refuse an illegal answer; log the choice.

    Raises :class:`IllegalChoice` naming the rule when the chosen option is illegal.
    """
    options = decision.legal_choices()
    first = next(options, None)
    if first is None:
        raise ImpossibleState(f"decision {decision.prompt!r} has no legal option")
    only = next(options, None) is None
    observe = getattr(choose, "observe", None)
    if observe is not None:
        observe(decision)
    if only:
        forced = getattr(choose, "forced", None)
        chosen = forced(decision, first) if forced is not None else first
    else:
        chosen = choose(decision)
    if not chosen.legal:
        raise IllegalChoice(chosen.label, chosen.reason, chosen.citation or decision.citation)
    detail = decision.prompt + ("; the only legal choice" if only else "")
    if decision.illegal:
        shown = "; ".join(f"{o.label!r}: {o.reason}" for o in decision.illegal[:4])
        more = f"; and {len(decision.illegal) - 4} more" if len(decision.illegal) > 4 else ""
        detail += f" [illegal: {shown}{more}]"
    state.emit(EventKind.CHOICE, decision.player, names=(chosen.label,), detail=detail, citation=decision.citation)
    return chosen


def first_legal(decision: Decision) -> Option:
    """The first legal option."""
    return next(decision.legal_choices())


class Scripted:
    """Answer decisions from a list of labels, in order.

    >>> from executable_rules.citation import Citation
    >>> d = Decision.of("Alice", "find", None, [Option("Forest"), Option("nothing")])
    >>> Scripted(["Forrest"])(d)
    Traceback (most recent call last):
    ...
    executable_rules.errors.UnknownOption: no option 'Forrest' for Alice's decision 'find'; did you mean 'Forest'? (legal: 'Forest', 'nothing')
    """

    def __init__(self, labels: Sequence[str]):
        self.labels = list(labels)
        self.used = 0

    def __call__(self, decision: Decision) -> Option:
        if self.used >= len(self.labels):
            raise UnknownOption(
                f"no scripted choice left for {decision.player}'s decision {decision.prompt!r} "
                f"({decision.describe()}); add one to the scenario's decisions"
            )
        label = self.labels[self.used]
        self.used += 1
        option = decision.find(label)
        if option is None:
            labels = [o.label for o in decision.legal_choices()] + [o.label for o in decision.illegal]
            near = difflib.get_close_matches(label, labels, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise UnknownOption(
                f"no option {label!r} for {decision.player}'s decision {decision.prompt!r}{hint} ({decision.describe()})"
            )
        return option

    def forced(self, decision: Decision, only: Option) -> Option:
        """A decision with one legal option isn't asked. A script may still name that option (the label
        is used up) or an illegal one (which is then refused, as if it had been asked)."""
        if self.used < len(self.labels):
            option = decision.find(self.labels[self.used])
            if option is not None and (option.label == only.label or not option.legal):
                self.used += 1
                return option
        return only

    @property
    def unused(self) -> list[str]:
        return self.labels[self.used:]


class RandomChooser:
    """Pick a legal option uniformly at random, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, decision: Decision) -> Option:
        return self.rng.choice(list(decision.legal_choices()))


class Termination(enum.Enum):
    """Why a run ended."""

    COMPLETED = "completed"
    NOT_RESOLVED = "not resolved"   # every target illegal (Resolving Spells and Abilities — CR 608.2b)


@dataclass(frozen=True)
class Outcome:
    """Where one run ended: the final state (a copy), the options chosen, and what the action returned."""

    state: GameState
    choices: tuple[str, ...]
    result: Any = None
    termination: Termination = Termination.COMPLETED


@dataclass
class Exploration:
    """Every outcome :func:`explore` reached, with leaf counts under each first choice (as perft prints them)."""

    outcomes: list[Outcome]
    by_first_choice: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


class _Replay:
    """Follow a path of option indexes, then take the first option and queue the others."""

    def __init__(self, path: list[int], pending: list[list[int]], max_options: int,
                 seen: dict[tuple[int, ...], list[Option]]):
        self.path = path
        self.depth = 0
        self.pending = pending
        self.max_options = max_options
        self.seen = seen
        self.labels: list[str] = []

    def __call__(self, decision: Decision) -> Option:
        # Runs are replayed from the start, so the decision at a path is always the same one:
        # its options are listed once, not once per outcome below it.
        key = tuple(self.path[: self.depth])
        legal: list[Option] | None = self.seen.get(key)
        if legal is None:
            legal = list(itertools.islice(decision.legal_choices(), self.max_options + 1))
            if len(legal) > self.max_options:
                raise ExplorationLimit(
                    f"{decision.player}'s decision {decision.prompt!r} has more than {self.max_options} options; "
                    "narrow the action or raise max_outcomes"
                )
            self.seen[key] = legal
        if self.depth < len(self.path):
            index = self.path[self.depth]
        else:
            index = 0
            for other in range(len(legal) - 1, 0, -1):
                self.pending.append(self.path + [other])
            self.path = self.path + [0]
        self.depth += 1
        self.labels.append(legal[index].label)
        return legal[index]


def explore(run: Callable[[GameState, Chooser], Any], state: GameState, *, max_outcomes: int = 10_000,
            max_seconds: float = 10.0) -> Exploration:
    """Run ``run(state, choose)`` once for every combination of legal choices.

    Each run starts from ``state`` as it is now (the state is rolled back
    after each, so it is unchanged when this returns; randomness is the same
    in every run, because the generator is rolled back too). Raises
    :class:`ExplorationLimit` when there are more than ``max_outcomes``
    outcomes or the walk takes more than ``max_seconds`` of this thread's CPU time (a busy machine
    makes a walk slower, not a different answer).
    """
    start = time.perf_counter()
    cpu_start = time.thread_time()
    mark = state.checkpoint()
    events_before = len(state.events)
    pending: list[list[int]] = [[]]
    seen: dict[tuple[int, ...], list[Option]] = {}
    outcomes: list[Outcome] = []
    by_first: dict[str, int] = {}
    while pending:
        replay = _Replay(pending.pop(), pending, max_outcomes, seen)
        try:
            result = run(state, replay)
            ended = (Termination.NOT_RESOLVED
                     if any(e.kind is EventKind.NOT_RESOLVED for e in state.events[events_before:])
                     else Termination.COMPLETED)
            outcomes.append(Outcome(state.copy(), tuple(replay.labels), result, ended))
        finally:
            state.rollback(mark)
        first = replay.labels[0] if replay.labels else "(no choice)"
        by_first[first] = by_first.get(first, 0) + 1
        if len(outcomes) > max_outcomes:
            raise ExplorationLimit(
                f"more than {max_outcomes} outcomes; narrow the action (a smaller library, fewer "
                "cards to find) or raise max_outcomes"
            )
        if time.thread_time() - cpu_start > max_seconds:
            raise ExplorationLimit(
                f"exploring took longer than {max_seconds:g} s after {len(outcomes)} outcomes; "
                "narrow the action or raise max_seconds"
            )
    return Exploration(outcomes, by_first, time.perf_counter() - start)
