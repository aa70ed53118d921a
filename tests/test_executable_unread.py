"""A run whose permanents have lines the grammar doesn't read says so (issue 11: "a scenario that needs
one says so instead of passing"): a failing run names the line first, a passing one carries it in
``unread`` and its trace, and ``kb check`` marks it."""

from __future__ import annotations

from executable_rules.scenarios import load_scenario_text, run_scenario

# Pithing Needle's second line ("activated abilities of sources with the chosen name can't be activated …")
# is one the grammar doesn't read (kb cards --unparsed); Golgari Grave-Troll's lines are read.
SCENARIO = """
[[scenario]]
id = "unread-needle"
rule = "702.52a"
title = "a draw with Pithing Needle on the battlefield"
source = {{ kind = "own" }}
decisions = ["dredge Golgari Grave-Troll"]

[scenario.setup]
opponent.battlefield = ["Pithing Needle"]
you.graveyard = ["Golgari Grave-Troll"]
you.library = ["Shock", "Forest", "Island", "Swamp", "Mountain", "Plains"]

[[scenario.action]]
do = "draw"

[scenario.expect]
you.hand = [{hand}]
"""


def _run(hand: str):
    (scenario,) = load_scenario_text(SCENARIO.format(hand=hand), "dredge.toml")
    return run_scenario(scenario)


def test_a_passing_run_lists_the_lines_it_did_not_read():
    result = _run('"Golgari Grave-Troll"')
    assert result.passed
    assert result.unread and all(line.startswith("Pithing Needle: line ") for line in result.unread)
    assert any(t.startswith("not read by the grammar") for t in result.trace)
    assert result.as_json()["unread"] == result.unread


def test_a_failing_run_names_the_unread_line_first():
    result = _run('"Shock"')
    assert not result.passed
    assert result.failures[0].startswith("needs what the engine can't do yet: a permanent's line isn't read")
    assert "Pithing Needle" in result.failures[0]


def test_a_run_whose_permanents_are_all_read_lists_nothing():
    text = SCENARIO.replace('opponent.battlefield = ["Pithing Needle"]\n', "")
    (scenario,) = load_scenario_text(text.format(hand='"Golgari Grave-Troll"'), "dredge.toml")
    result = run_scenario(scenario)
    assert result.passed and result.unread == []
