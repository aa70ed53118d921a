"""Scenario results by content: a scenario runs again only when it, the engine or the cards changed.

Running the 700 scenarios of ``data/scenarios/`` is most of a cold build
(each card's Oracle text is read by an Earley grammar, then the engine plays
the scenario out), yet what a run gives depends only on

- the engine: every file of ``executable_rules/`` (code, grammar, keyword
  lists) and the versions of the libraries it runs on (lark);
- the card pool: the corpus's ``cards/`` files and ``data/cards.toml``;
- the scenario itself: the text of its file, and its id.

So :class:`ScenarioResults` keys each scenario's result (passed, failures,
trace, outcomes, and the cards it looked up, which go to ``engine_cards``) by
those, in the build cache (namespace ``scenarios``; ``kb build --no-cache``
runs everything). A run stopped by the explorer's time limit depends on the
machine's load, not on the inputs: it is never cached.
"""

from __future__ import annotations

import functools
from typing import Any

from ..build import BuildContext
from ..cache import digest, file_digest

NAMESPACE = "scenarios"


@functools.lru_cache(maxsize=1)
def engine_version() -> str:
    """A digest of every file of ``executable_rules/`` and ``data/cards.toml``, and lark's version."""
    from importlib import metadata

    from ..cache import code_version
    from ..corpus import PROJECT_ROOT

    parts: list[str | bytes] = [code_version("kb.load.scenario_cache")]
    try:
        parts.append(f"lark {metadata.version('lark')}")
    except metadata.PackageNotFoundError:
        parts.append("lark -")
    root = PROJECT_ROOT / "executable_rules"
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            parts += [path.relative_to(PROJECT_ROOT).as_posix(), path.read_bytes()]
    cards_toml = PROJECT_ROOT / "data" / "cards.toml"
    parts += ["data/cards.toml", cards_toml.read_bytes() if cards_toml.exists() else b""]
    return digest(*parts)


def cards_version(ctx: BuildContext) -> str:
    """A digest of the corpus's card files (from the build's inputs when it has them)."""
    inputs = ctx.inputs or {}
    found = [(p, d) for p, (d, _size) in inputs.items() if p.startswith("cards/")]
    if not inputs:
        folder = ctx.corpus / "cards"
        found = [(p.relative_to(ctx.corpus).as_posix(), file_digest(p))
                 for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.startswith(".")] \
            if folder.is_dir() else []
    return digest(*[part for pair in sorted(found) for part in pair])


class ScenarioResults:
    """Run scenarios, or read their results from the cache; ``used`` gathers the cards they looked up.

    :meth:`prefetch` plays the scenarios the cache lacks before they are asked
    for, in worker processes when idle cores make that pay (a cold build
    spends most of this step reading cards' Oracle text); :meth:`run` then
    gives each result as it would have computed it.
    """

    def __init__(self, ctx: BuildContext, pool: Any, files: list[tuple[str, str]]):
        self.cache = ctx.cache
        self.pool = pool
        self.used: set[str] = set()
        self.base = digest(engine_version(), cards_version(ctx)) if self.cache.enabled else ""
        self.file_digests = {path: digest(text) for path, text in files} if self.cache.enabled else {}
        self.ready: dict[tuple[str, str], dict] = {}  # (path, id) -> a result, as the cache holds it
        self.missed: set[tuple[str, str]] = set()  # looked up by prefetch, not in the cache

    def _key(self, scenario: Any) -> str | None:
        if self.cache.enabled and scenario.path in self.file_digests:
            return self.cache.key(NAMESPACE, self.base, self.file_digests[scenario.path], scenario.id)
        return None

    def _cached(self, key: str | None) -> dict | None:
        found = self.cache.get(NAMESPACE, key) if key is not None else None
        return found if isinstance(found, dict) and set(found) == {"passed", "failures", "trace", "outcomes",
                                                                     "used"} else None

    def _play(self, scenario: Any) -> dict:
        """Play ``scenario`` out: its result as the cache holds it (``used``: the cards it looked up)."""
        from executable_rules.scenarios import run_scenario

        outer, self.pool.seen = self.pool.seen, set()
        try:
            result = run_scenario(scenario, self.pool)
            used = self.pool.seen
        finally:
            self.pool.seen = outer
        return {"passed": bool(result.passed), "failures": list(result.failures), "trace": list(result.trace),
                "outcomes": int(result.outcomes), "used": sorted(used)}

    def _keep(self, key: str | None, value: dict) -> None:
        # A run stopped by the explorer's time limit says more about the machine's load than the inputs.
        if key is not None and not any("ExplorationLimit" in f for f in value["failures"]):
            self.cache.put(NAMESPACE, key, value)

    def prefetch(self, ctx: BuildContext, scenarios: list[Any], advance=lambda n=1: None) -> None:
        """Play the scenarios the cache doesn't have: here for about a second, timed, then the rest in
        worker processes if idle cores make them pay (:func:`kb.build.useful_processes`,
        ``KB_SCENARIO_WORKERS``), else they are left to :meth:`run`."""
        import time

        from ..build import IdleCores

        missing = []
        for s in scenarios:
            found = self._cached(self._key(s))
            if found is not None:
                self.ready[(s.path, s.id)] = found
            else:
                missing.append(s)
                self.missed.add((s.path, s.id))
        advance(len(scenarios) - len(missing))
        if len(missing) < 20:
            return
        t0, idle = time.perf_counter(), IdleCores()
        done = 0
        while done < len(missing) and time.perf_counter() - t0 < 1.0:
            s = missing[done]
            key = self._key(s)
            self.ready[(s.path, s.id)] = value = self._play(s)
            self._keep(key, value)
            done += 1
            advance(1)
        rest = missing[done:]
        if not rest:
            return
        spare = idle()
        workers = ctx.processes_for((time.perf_counter() - t0) / done * len(rest), "KB_SCENARIO_WORKERS", spare)
        ctx.notes.append(f"played {len(missing)} scenarios in {workers} process{'es' if workers > 1 else ''}"
                         + (f" ({spare:.1f} idle cores)" if spare is not None else ""))
        if workers < 2:
            return
        from ..build import worker_pool

        # Runs of consecutive scenarios (one keyword's share cards and Oracle lines), several per worker.
        size = max(1, -(-len(rest) // (workers * 4)))
        chunks = [list(range(i, min(i + size, len(rest)))) for i in range(0, len(rest), size)]
        _FORKED[:] = [self, rest]
        try:
            with worker_pool(workers) as pool:
                for played in pool.map(_play_in_worker, chunks):
                    for i, value in played:
                        s = rest[i]
                        key = self._key(s)
                        self.ready[(s.path, s.id)] = value
                        self._keep(key, value)
                    advance(len(played))
        finally:
            _FORKED.clear()

    def run(self, scenario: Any) -> Any:
        """The :class:`~executable_rules.scenarios.ScenarioResult` of ``scenario``."""
        from executable_rules.scenarios import ScenarioResult

        found = self.ready.pop((scenario.path, scenario.id), None)
        if found is None:
            key = self._key(scenario)
            found = None if (scenario.path, scenario.id) in self.missed else self._cached(key)
            if found is None:
                found = self._play(scenario)
                self._keep(key, found)
        self.used.update(found["used"])
        if self.pool.seen is not None:
            self.pool.seen.update(found["used"])
        return ScenarioResult(scenario, found["passed"], list(found["failures"]), list(found["trace"]),
                              found["outcomes"])


# What forked workers play: (the ScenarioResults, the scenarios), set just before the pool starts.
_FORKED: list = []


def _play_in_worker(indexes: list[int]) -> list[tuple[int, dict]]:
    results, scenarios = _FORKED
    return [(i, results._play(scenarios[i])) for i in indexes]
