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

With ``--coverage`` it measures instead how much of the corpus's Oracle text the grammar reads (every card
face, or ``--sample N`` of them drawn with ``--seed``), against two baselines in the same run: a reader of
keyword lines only ("Flying, vigilance", "Dredge 5": what a keyword table gives), and, with
``--against DIR``, the same cards read by another checkout's grammar (``git archive main executable_rules
ingest kb | tar -x -C DIR``: the grammar this branch started from). Parsed lines are cached under
``~/.cache/mtg-rules-kb/oracle-lines`` by grammar hash, so a second run of the same grammar takes seconds.

    python bench/bench_executable.py --coverage --sample 1500 --against /tmp/base

As perft prints a count per move, each exploration prints its outcome count
under each first choice, so a wrong count can be traced.
"""

from __future__ import annotations

import argparse
import copy
import inspect
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

# BENCH_CODE_ROOT: the checkout whose code is measured (--against runs this file again on another one).
sys.path.insert(0, os.environ.get("BENCH_CODE_ROOT") or str(Path(__file__).resolve().parent.parent))

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


def rate(fn: Callable[[int], None], seconds: float) -> tuple[float, float]:
    """Calls of ``fn(i)`` per wall-clock second and per CPU second of this process, over about ``seconds``.
    The machine is shared: the CPU figure is the one that doesn't depend on what else runs."""
    count, t0, c0 = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        for _ in range(100):
            fn(count)
            count += 1
    return count / (time.perf_counter() - t0), count / max(time.process_time() - c0, 1e-9)


TARGET_RESOLUTIONS = 5_000
"""Random discover resolutions per second (issue 11), per CPU second."""
EXPLORE_BOUND = (100_000, 120.0)
"""Explore-every-choice is bounded: at most this many outcomes and seconds (``explore(max_outcomes, max_seconds)``)."""


def verdict(value: float, target: float) -> str:
    return f"target ≥ {target:,.0f}: {'met' if value >= target else 'NOT MET'}"


def keyword_only(text: str, name: str) -> bool:
    """The naive reader: every line of the card is a list of keyword abilities (with their arguments)."""
    from executable_rules.oracle.keywords import canonical_keyword
    from executable_rules.oracle.parser import normalise
    for line in (text or "").split("\n"):
        line = normalise(line, name).strip(" .")
        if not line:
            continue
        for part in re.split(r"[,;] ", line):
            words = part.split()
            if not any(canonical_keyword(" ".join(words[:n])) for n in (3, 2, 1) if len(words) >= n):
                return False
    return True


def coverage_figures(sample: int | None, seed: int, workers: int) -> dict[str, Any]:
    """The grammar's coverage of the corpus (``sample`` card faces drawn with ``seed``, or all)."""
    from executable_rules.oracle.coverage import measure
    pool = load_card_pool(find_corpus())
    # The corpus's cards only (not data/cards.toml's), so another checkout's run draws the very same sample.
    texts = sorted((face.name, face.text) for card in pool.cards.values() for face in card.faces
                   if "cards.toml" not in (card.source or ""))
    total = len(texts)
    if sample and sample < total:
        texts = sorted(random.Random(seed).sample(texts, sample))
    options: dict[str, Any] = {"workers": workers}
    if "progress" in inspect.signature(measure).parameters:
        options["progress"] = lambda done, todo: print(f"  parsed {done:,} of {todo:,} new lines", file=sys.stderr,
                                                       flush=True)
    t0 = time.process_time()
    report = measure(texts, **options)
    figures = report.as_json(limit=25)
    figures.update(corpus_faces=total, cpu_seconds=round(time.process_time() - t0, 1),
                   keyword_only=sum(keyword_only(t, n) for n, t in texts))
    return figures


def print_coverage(args: argparse.Namespace) -> None:
    figures = coverage_figures(args.sample, args.seed, args.workers)
    if args.coverage_json:
        print(json.dumps(figures))
        return
    what = (f"{figures['cards']:,} card faces drawn at random (seed {args.seed}) of the corpus's "
            f"{figures['corpus_faces']:,}" if figures["cards"] < figures["corpus_faces"]
            else f"every card face of the corpus ({figures['cards']:,})")
    print(f"Oracle-text coverage over {what}\n")
    rows = [("this grammar", figures)]
    if args.against:
        env = dict(os.environ, BENCH_CODE_ROOT=str(Path(args.against).resolve()))
        command = [sys.executable, __file__, "--coverage", "--coverage-json", "--seed", str(args.seed),
                   "--workers", str(args.workers)] + (["--sample", str(args.sample)] if args.sample else [])
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        rows.append((f"baseline: the grammar of {args.against}", json.loads(done.stdout.strip().splitlines()[-1])))
    print(f"{'':44} {'cards read completely':>22} {'lines read':>18} {'keyword lines':>16}")
    for label, f in rows:
        print(f"{label:44} {f['complete']:>8,} ({100 * f['complete'] / f['cards']:5.1f} %) "
              f"{f['read']:>8,} of {f['lines']:<7,} {f['keyword_lines_read']:>6,} of {f['keyword_lines']:<6,}")
    k = figures["keyword_only"]
    print(f"{'baseline: a reader of keyword lines only':44} {k:>8,} ({100 * k / figures['cards']:5.1f} %)")
    print(f"\ncrashed lines: {len(figures['crashed'])}; CPU {figures['cpu_seconds']} s (cached lines are free)")
    print("\nthe most frequent lines not read (numbers and costs generalised):")
    for row in figures["unread_templates"][:25]:
        print(f"  {row['lines']:>5}  {row['template'][:100]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per resolution-rate figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--coverage", action="store_true", help="measure the grammar's coverage of the corpus instead")
    parser.add_argument("--sample", type=int, default=None, help="with --coverage: this many card faces, at random")
    parser.add_argument("--against", default=None, help="with --coverage: another checkout's grammar, as a baseline")
    parser.add_argument("--workers", type=int, default=1, help="with --coverage: parsing processes")
    parser.add_argument("--coverage-json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--skip-scenarios", action="store_true", help="leave out running every scenario once")
    args = parser.parse_args()
    if args.coverage:
        print_coverage(args)
        return
    state = library_state(args.seed)
    print(f"60-card library (seed {args.seed}), top: {', '.join(state.names(state.player('you').library)[:6])}, …\n")

    runs: list[tuple[str, Callable[[GameState, Any], Any]]] = [
        ("discover 3", lambda s, c: discover(s, "you", 3, choose=c)),
        ("search for a card", lambda s, c: search(s, "you", [Find(CardQuery(), put=ZoneKind.HAND)], shuffle=True,
                                                  choose=c)),
        ("search for up to two basic lands", lambda s, c: search(
            s, "you", [Find(BASIC_LAND, count=2, up_to=True, put=ZoneKind.BATTLEFIELD)], shuffle=True, choose=c)),
    ]
    print(f"{'exploring every outcome':36} {'outcomes':>8} {'explore()':>11} {'deep-copy baseline':>19} {'speed-up':>9}"
          f"   (bounded: ≤ {EXPLORE_BOUND[0]:,} outcomes, ≤ {EXPLORE_BOUND[1]:.0f} s)")
    for label, run in runs:
        seconds, exploration = timed(lambda: explore(run, state, max_outcomes=EXPLORE_BOUND[0],
                                                     max_seconds=EXPLORE_BOUND[1]))
        base_seconds, base_count = timed(lambda: explore_by_copying(run, state), repeat=1)
        assert base_count == len(exploration.outcomes), (label, base_count, len(exploration.outcomes))
        print(f"{label:36} {len(exploration.outcomes):>8} {seconds * 1000:>9.1f}ms {base_seconds * 1000:>17.1f}ms "
              f"{base_seconds / seconds:>8.1f}x")
        firsts = sorted(exploration.by_first_choice.items(), key=lambda kv: (-kv[1], kv[0]))
        shown = ", ".join(f"{k}: {v}" for k, v in firsts[:6]) + (f", … ({len(firsts)} first choices)" if len(firsts) > 6 else "")
        print(f"    under each first choice: {shown}")

    print(f"\n{'random discover 3 resolutions':44} {'per s (wall)':>12} {'per CPU s':>10}")
    mark = state.checkpoint()
    chooser = RandomChooser(args.seed)

    def random_discover(i: int) -> None:
        state.rng.seed(i)
        discover(state, "you", 3, choose=chooser)
        state.rollback(mark)

    def random_discover_resolved(i: int) -> None:
        # Issue 11's figure "with casting and resolving included": the discovered card, if cast, is a spell on
        # the stack; every player passes until it has resolved (state-based actions, triggers, targets re-checked).
        state.rng.seed(i)
        discover(state, "you", 3, choose=chooser)
        resolve_stack(state, chooser)
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

    # Warm up: the first resolutions parse the deck's Oracle text (tens of ms a line, cached after), which is the
    # grammar's cost (measured by --coverage), not the game's.
    for i in range(300):
        random_discover_resolved(i)
    resolved_wall, resolved_cpu = rate(random_discover_resolved, args.seconds)
    model_wall, model_cpu = rate(random_discover, args.seconds)
    scripted_wall, scripted_cpu = rate(scripted_discover, args.seconds)
    naive_wall, naive_cpu = rate(naive, args.seconds)
    print(f"{'model, random, the cast spell resolved':44} {resolved_wall:>12,.0f} {resolved_cpu:>10,.0f}   "
          f"{verdict(resolved_cpu, TARGET_RESOLUTIONS)}")
    print(f"{'model, random, discover only (round 1)':44} {model_wall:>12,.0f} {model_cpu:>10,.0f}   "
          f"{verdict(model_cpu, TARGET_RESOLUTIONS)}")
    print(f"{'model, first legal choice, discover only':44} {scripted_wall:>12,.0f} {scripted_cpu:>10,.0f}")
    print(f"{'baseline: naive discover on lists':44} {naive_wall:>12,.0f} {naive_cpu:>10,.0f}   "
          f"(the model costs {naive_cpu / model_cpu:.0f}x: log, undo, decisions, rule checks)")

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
    cast_wall, cast_cpu = rate(cast_and_resolve, args.seconds)
    free_wall, free_cpu = rate(cast_free, args.seconds)
    print(f"\n{'casting with the engine':50} {'per s (wall)':>12} {'per CPU s':>10}")
    print(f"{'cast, pay from lands, resolve, explore, trigger':50} {cast_wall:>12,.0f} {cast_cpu:>10,.0f}")
    print(f"{'baseline: cast without paying, not resolved':50} {free_wall:>12,.0f} {free_cpu:>10,.0f}   "
          f"(resolving costs {free_cpu / cast_cpu:.0f}x: payment, the stack, triggers, layers)")

    if args.skip_scenarios:
        return
    scenarios = load_scenarios()
    seconds, results = timed(lambda: [run_scenario(s) for s in scenarios], repeat=1)
    passed = sum(r.passed for r in results)
    print(f"\nevery scenario once: {len(scenarios)} in {seconds:.2f}s ({passed} passed), "
          f"{1000 * seconds / len(scenarios):.1f} ms each")


if __name__ == "__main__":
    main()
