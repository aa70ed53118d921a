"""Scenarios played in worker processes (:meth:`kb.load.scenario_cache.ScenarioResults.prefetch`) give
the results and the looked-up cards that playing them one by one in the build's process gives."""

from __future__ import annotations

import sqlite_utils

from executable_rules.card_pool import load_card_pool
from executable_rules.scenarios import SCENARIO_DIR, load_scenarios, scenario_files
from kb.build import BuildContext
from kb.load.scenario_cache import ScenarioResults


def _played(corpus, workers: str | None, monkeypatch):
    if workers is None:
        monkeypatch.delenv("KB_SCENARIO_WORKERS", raising=False)
    else:
        monkeypatch.setenv("KB_SCENARIO_WORKERS", workers)
    pool = load_card_pool(corpus)
    files = scenario_files(SCENARIO_DIR)
    pool.seen = set()
    scenarios = load_scenarios(SCENARIO_DIR, pool, files=files)
    ctx = BuildContext(db=sqlite_utils.Database(memory=True), corpus=corpus)   # no cache: every one is played
    results = ScenarioResults(ctx, pool, files)
    if workers is not None:
        results.prefetch(ctx, scenarios)
    out = {(s.path, s.id): (r.passed, r.failures, r.trace, r.outcomes)
           for s in scenarios for r in [results.run(s)]}
    return out, sorted(pool.seen), ctx.notes, len(results.ready)


def test_scenarios_played_in_two_workers_give_what_one_process_gives(corpus, monkeypatch):
    alone, used_alone, _, _ = _played(corpus, None, monkeypatch)
    forked, used_forked, notes, left = _played(corpus, "2", monkeypatch)
    assert any("in 2 processes" in n for n in notes), notes   # the workers did play some
    assert left == 0   # every prefetched result was asked for
    assert len(alone) > 500
    # "Ran out of time" depends on the load, not on where the scenario ran.
    differing = [k for k in alone if alone[k] != forked[k]
                 and not any("ExplorationLimit" in f for f in alone[k][1] + forked[k][1])]
    assert not differing, differing[:3]
    assert used_alone == used_forked
