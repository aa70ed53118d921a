"""A run whose permanents have lines the grammar doesn't read says so (issue 11: "a scenario that needs
one says so instead of passing"): a failing run names the line first, a passing one carries it in
``unread`` and its trace, and ``kb check`` marks it."""

from __future__ import annotations

from executable_rules.scenarios import load_scenario_text, run_scenario

# Howling Mine's line ("at the beginning of each player's draw step, if ~ is untapped, that player draws an
# additional card") is one the grammar doesn't read (kb cards --unparsed); Golgari Grave-Troll's lines are read.
SCENARIO = """
[[scenario]]
id = "unread-howling-mine"
rule = "702.52a"
title = "a draw with Howling Mine on the battlefield"
source = {{ kind = "own" }}
decisions = ["dredge Golgari Grave-Troll"]

[scenario.setup]
opponent.battlefield = ["Howling Mine"]
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
    assert result.unread and all(line.startswith("Howling Mine: line ") for line in result.unread)
    assert any(t.startswith("not read by the grammar") for t in result.trace)
    assert result.as_json()["unread"] == result.unread


def test_a_failing_run_names_the_unread_line_first():
    result = _run('"Shock"')
    assert not result.passed
    assert result.failures[0].startswith("needs what the engine can't do yet: a permanent's line isn't read")
    assert "Howling Mine" in result.failures[0]


def test_a_run_whose_permanents_are_all_read_lists_nothing():
    text = SCENARIO.replace('opponent.battlefield = ["Howling Mine"]\n', "")
    (scenario,) = load_scenario_text(text.format(hand='"Golgari Grave-Troll"'), "dredge.toml")
    result = run_scenario(scenario)
    assert result.passed and result.unread == []


def test_a_declared_line_is_set_apart_and_must_still_be_unread():
    declared = SCENARIO.replace('decisions = ["dredge Golgari Grave-Troll"]\n', 'decisions = ["dredge Golgari Grave-Troll"]\n'
                                'unread_ok = [{{ card = "Howling Mine", line = 1, why = "no draw step is played" }}]\n')
    (scenario,) = load_scenario_text(declared.format(hand='"Golgari Grave-Troll"'), "dredge.toml")
    result = run_scenario(scenario)
    assert result.passed and result.unread == [] and result.unread_declared
    stale = declared.replace("line = 1", "line = 2")
    (scenario,) = load_scenario_text(stale.format(hand='"Golgari Grave-Troll"'), "dredge.toml")
    result = run_scenario(scenario)
    assert not result.passed and any("unread_ok declares Howling Mine: line 2" in f for f in result.failures)


def test_a_permanent_only_ever_face_down_has_no_unread_lines():
    text = SCENARIO.replace('opponent.battlefield = ["Howling Mine"]',
                            'opponent.battlefield = [{{ card = "Howling Mine", face_down = "manifested" }}]')
    (scenario,) = load_scenario_text(text.format(hand='"Golgari Grave-Troll"'), "dredge.toml")
    result = run_scenario(scenario)
    assert result.passed and result.unread == []
