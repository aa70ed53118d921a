"""One test per scenario of ``data/scenarios/``, named by its id (action, rule, case).

The same scenarios ``kb check`` runs; a failure shows what went wrong and the trace.
"""

from __future__ import annotations

import dataclasses

import pytest

from executable_rules.scenarios import load_scenarios, run_scenario

SCENARIOS = load_scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario):
    result = run_scenario(scenario)
    assert result.passed, (
        f"{scenario.path}:{scenario.line}: {scenario.title}\n"
        + "\n".join(f"  FAIL: {f}" for f in result.failures)
        + "\n  trace:\n" + "\n".join(f"    {line}" for line in result.trace)
    )
    # A pass with a permanent's line the grammar doesn't read proves less than it says (issue 11): the line is read,
    # or the scenario declares it (unread_ok) with why what it checks doesn't depend on it.
    assert not result.unread, (f"{scenario.path}:{scenario.line}: passes with lines the grammar doesn't read; read "
                               "them, or declare each in unread_ok with why the scenario doesn't depend on it: "
                               + "; ".join(result.unread))


def test_ids_name_the_action_and_a_rule():
    for s in SCENARIOS:
        action = s.path.rsplit("/", 1)[-1].removesuffix(".toml")
        assert s.id.startswith(f"{action}-"), s.id
        assert any(f"-{rule}-" in s.id for rule in s.rules), f"{s.id} should name one of its rules {s.rules}"


def test_a_wrong_expectation_fails_with_the_reason():
    """The runner can fail: change one expected card and the scenario says what it got instead."""
    original = next(s for s in SCENARIOS if s.id == "discover-701.57a-put-into-hand")
    scenario = dataclasses.replace(
        original, expect={**original.expect, "you": {**original.expect["you"], "hand": ["Lightning Bolt"]}})
    result = run_scenario(scenario)
    assert not result.passed
    assert result.failures == ["you.hand: expected ['Lightning Bolt'], got ['Shock']"]
