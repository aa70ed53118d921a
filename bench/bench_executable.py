"""How fast the executable rules explore and resolve, against baselines measured in the same run.

    python bench/bench_executable.py [--seconds S] [--seed N]

On a 60-card library (24 basic lands, 36 spells of the scenarios' cards, in a
seeded random order) it times:

- exploring every outcome of discover 3, of "search for a card" and of
  "search for up to two basic land cards", with :func:`executable_rules.choices.explore`
  (one state, rolled back after each outcome) against a baseline explorer that
  deep-copies the state for every outcome;
- random discover resolutions per second (random choices, rolled back after
  each), against the same with scripted first-legal choices and against a naive
  discover on plain lists (no model, no log, no undo) — what the model's
  bookkeeping costs;
- casting and resolving with the engine: Merfolk Branchwalker cast with mana from two Forests, resolved,
  exploring, Wildgrowth Walker's trigger resolved (per second, rolled back after each), against casting the same
  card without paying and not resolving it (round 1's only path);
- running every scenario of ``data/scenarios`` once (the tests' input).

As perft prints a count per move, each exploration prints its outcome count
under each first choice, so a wrong count can be traced.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from executable_rules.actions.discover import discover  # noqa: E402
from executable_rules.actions.search import CardQuery, Find, search  # noqa: E402
from executable_rules.card_pool import load_card_pool  # noqa: E402
from executable_rules.choices import RandomChooser, _Replay, explore, first_legal  # noqa: E402
from executable_rules.actions.cast import cast_without_paying  # noqa: E402
from executable_rules.engine.game import new_game  # noqa: E402
from executable_rules.engine.stack import cast_spell  # noqa: E402
from executable_rules.engine.turn import resolve_stack  # noqa: E402
from executable_rules.model import GameState, ZoneKind  # noqa: E402
from executable_rules.scenarios import load_scenarios, run_scenario  # noqa: E402
from kb.corpus import find_corpus  # noqa: E402

DECK = {
    "Forest": 12, "Island": 12, "Shock": 4, "Lightning Bolt": 4, "Grizzly Bears": 4, "Fire // Ice": 2,
    "Bramble Familiar": 4, "Darksteel Colossus": 2, "Murder": 2, "Blaze": 2, "Burst Lightning": 2,
    "Esika, God of the Tree // The Prismatic Bridge": 2, "Merfolk Branchwalker": 4, "Lobotomy": 2,
    "Ancestral Vision": 2,
}
BASIC_LAND = CardQuery("basic land card", types=frozenset({"Land"}), supertypes=frozenset({"Basic"}))


def library_state(seed: int) -> GameState:
    pool = load_card_pool(find_corpus())
    names = [name for name, n in DECK.items() for _ in range(n)]
    assert len(names) == 60
    random.Random(seed).shuffle(names)
    state = GameState.new(["you", "opponent"], seed=seed)
    for name in names:
        state.add_card(pool.find(name), "you", ZoneKind.LIBRARY)
    state.add_card(pool.find("Grizzly Bears"), "opponent", ZoneKind.BATTLEFIELD)
    state._undo.clear()
    return state


def explore_by_copying(run: Callable[[GameState, Any], Any], state: GameState) -> int:
    """The baseline explorer: the same walk, but every outcome starts from a deep copy of the state."""
    pending: list[list[int]] = [[]]
    outcomes = 0
    while pending:
        branch = copy.deepcopy(state)
        replay = _Replay(pending.pop(), pending, 100_000, {})
        run(branch, replay)
        outcomes += 1
    return outcomes


def naive_discover(library: list[tuple[str, int, bool]], n: int, rng: random.Random) -> tuple[str | None, list]:
    """Discover on plain (name, mana value, is land) tuples: exile until a hit, hand it, the rest to the bottom."""
    exiled = []
    hit = None
    while library:
        card = library.pop(0)
        if not card[2] and card[1] <= n:
            hit = card
            break
        exiled.append(card)
    rng.shuffle(exiled)
    library.extend(exiled)
    return (hit[0] if hit else None), library


def timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t0)
    return best, value


def rate(fn: Callable[[int], None], seconds: float) -> float:
    """Calls per second of ``fn(i)`` over about ``seconds``."""
    count, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(100):
            fn(count)
            count += 1
    return count / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per resolution-rate figure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    state = library_state(args.seed)
    print(f"60-card library (seed {args.seed}), top: {', '.join(state.names(state.player('you').library)[:6])}, …\n")

    runs: list[tuple[str, Callable[[GameState, Any], Any]]] = [
        ("discover 3", lambda s, c: discover(s, "you", 3, choose=c)),
        ("search for a card", lambda s, c: search(s, "you", [Find(CardQuery(), put=ZoneKind.HAND)], shuffle=True,
                                                  choose=c)),
        ("search for up to two basic lands", lambda s, c: search(
            s, "you", [Find(BASIC_LAND, count=2, up_to=True, put=ZoneKind.BATTLEFIELD)], shuffle=True, choose=c)),
    ]
    print(f"{'exploring every outcome':36} {'outcomes':>8} {'explore()':>11} {'deep-copy baseline':>19} {'speed-up':>9}")
    for label, run in runs:
        seconds, exploration = timed(lambda: explore(run, state, max_outcomes=100_000, max_seconds=120))
        base_seconds, base_count = timed(lambda: explore_by_copying(run, state), repeat=1)
        assert base_count == len(exploration.outcomes), (label, base_count, len(exploration.outcomes))
        print(f"{label:36} {len(exploration.outcomes):>8} {seconds * 1000:>9.1f}ms {base_seconds * 1000:>17.1f}ms "
              f"{base_seconds / seconds:>8.1f}x")
        firsts = sorted(exploration.by_first_choice.items(), key=lambda kv: (-kv[1], kv[0]))
        shown = ", ".join(f"{k}: {v}" for k, v in firsts[:6]) + (f", … ({len(firsts)} first choices)" if len(firsts) > 6 else "")
        print(f"    under each first choice: {shown}")

    print(f"\n{'random discover 3 resolutions':36} {'per second':>11}")
    mark = state.checkpoint()
    chooser = RandomChooser(args.seed)

    def random_discover(i: int) -> None:
        state.rng.seed(i)
        discover(state, "you", 3, choose=chooser)
        state.rollback(mark)

    def scripted_discover(i: int) -> None:
        state.rng.seed(i)
        discover(state, "you", 3, choose=first_legal)
        state.rollback(mark)

    plain = [(state.cards[c].oracle.name, state.cards[c].mana_value, state.cards[c].is_land)
             for c in state.player("you").library.cards]
    rng = random.Random(args.seed)

    def naive(i: int) -> None:
        naive_discover(list(plain), 3, rng)

    model_rate = rate(random_discover, args.seconds)
    scripted_rate = rate(scripted_discover, args.seconds)
    naive_rate = rate(naive, args.seconds)
    print(f"{'model, random choices':36} {model_rate:>11,.0f}")
    print(f"{'model, first legal choice':36} {scripted_rate:>11,.0f}")
    print(f"{'baseline: naive discover on lists':36} {naive_rate:>11,.0f}   "
          f"(the model costs {naive_rate / model_rate:.0f}x: log, undo, decisions, rule checks)")

    pool = load_card_pool(find_corpus())
    game = new_game(["you", "opponent"], seed=args.seed)
    for name in ("Forest", "Forest", "Wildgrowth Walker"):
        game.add_card(pool.find(name), "you", ZoneKind.BATTLEFIELD)
    branchwalker = game.add_card(pool.find("Merfolk Branchwalker"), "you", ZoneKind.HAND)
    for name in ("Giant Growth", "Forest", "Island"):
        game.add_card(pool.find(name), "you", ZoneKind.LIBRARY)
    game._undo.clear()
    start = game.checkpoint()

    def cast_and_resolve(i: int) -> None:
        cast_spell(game, "you", branchwalker, choose=first_legal)
        resolve_stack(game, first_legal)
        game.rollback(start)

    def cast_free(i: int) -> None:
        cast_without_paying(game, "you", branchwalker)
        game.rollback(start)

    cast_and_resolve(0)
    resolved_rate = rate(cast_and_resolve, args.seconds)
    free_rate = rate(cast_free, args.seconds)
    print(f"\n{'cast, pay from lands, resolve, explore, trigger':50} {resolved_rate:>9,.0f}/s")
    print(f"{'baseline: cast without paying, not resolved':50} {free_rate:>9,.0f}/s   "
          f"(resolving costs {free_rate / resolved_rate:.0f}x: payment, the stack, triggers, layers)")

    scenarios = load_scenarios()
    seconds, results = timed(lambda: [run_scenario(s) for s in scenarios], repeat=1)
    passed = sum(r.passed for r in results)
    print(f"\nevery scenario once: {len(scenarios)} in {seconds:.2f}s ({passed} passed), "
          f"{1000 * seconds / len(scenarios):.1f} ms each")


if __name__ == "__main__":
    main()
