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
    """Run scenarios, or read their results from the cache; ``used`` gathers the cards they looked up."""

    def __init__(self, ctx: BuildContext, pool: Any, files: list[tuple[str, str]]):
        self.cache = ctx.cache
        self.pool = pool
        self.used: set[str] = set()
        self.base = digest(engine_version(), cards_version(ctx)) if self.cache.enabled else ""
        self.file_digests = {path: digest(text) for path, text in files} if self.cache.enabled else {}

    def run(self, scenario: Any) -> Any:
        """The :class:`~executable_rules.scenarios.ScenarioResult` of ``scenario``."""
        from executable_rules.scenarios import ScenarioResult, run_scenario

        key = None
        if self.cache.enabled and scenario.path in self.file_digests:
            key = self.cache.key(NAMESPACE, self.base, self.file_digests[scenario.path], scenario.id)
            found = self.cache.get(NAMESPACE, key)
            if isinstance(found, dict) and set(found) == {"passed", "failures", "trace", "outcomes", "used"}:
                self.used.update(found["used"])
                if self.pool.seen is not None:
                    self.pool.seen.update(found["used"])
                return ScenarioResult(scenario, found["passed"], list(found["failures"]), list(found["trace"]),
                                      found["outcomes"])
        outer, self.pool.seen = self.pool.seen, set()
        try:
            result = run_scenario(scenario, self.pool)
            used = self.pool.seen
        finally:
            self.pool.seen = outer
        if outer is not None:
            outer.update(used)
        self.used.update(used)
        if key is not None and not any("ExplorationLimit" in f for f in result.failures):
            self.cache.put(NAMESPACE, key, {"passed": bool(result.passed), "failures": list(result.failures),
                                            "trace": list(result.trace), "outcomes": int(result.outcomes),
                                            "used": sorted(used)})
        return result
