"""Bad scenario files get one clear error naming the file and line, and what to do."""

from __future__ import annotations

import pytest

from executable_rules.scenarios import load_scenario_file, load_scenarios
from ingest.records import SourceError

GOOD = '''
[[scenario]]
id = "discover-701.57a-x"
rule = "701.57a"
title = "t"
source = { kind = "own" }

[scenario.setup]
you.library = ["Shock"]

[[scenario.action]]
do = "discover"
n = 3
'''


def write(tmp_path, text, name="discover.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path):
    with pytest.raises(SourceError) as e:
        load_scenario_file(path)
    return str(e.value).replace(str(path), path.name)


def test_a_good_file_loads(tmp_path):
    [s] = load_scenario_file(write(tmp_path, GOOD))
    assert (s.id, s.keyword, s.rules, s.line) == ("discover-701.57a-x", "Discover", ("701.57a",), 2)


def test_unknown_card_names_file_line_and_the_nearest_card(tmp_path):
    path = write(tmp_path, GOOD.replace('["Shock"]', '["Lightnig Bolt"]'))
    assert error_of(path) == ('discover.toml:9: scenario \'discover-701.57a-x\': unknown card "Lightnig Bolt"; '
                              'did you mean "Lightning Bolt"?')


def test_unknown_key(tmp_path):
    path = write(tmp_path, GOOD.replace('title = "t"', 'title = "t"\ndecisons = ["x"]'))
    assert error_of(path) == "discover.toml:6: scenario 'discover-701.57a-x': unknown key 'decisons'; did you mean 'decisions'?"


def test_missing_source_field(tmp_path):
    path = write(tmp_path, GOOD.replace('{ kind = "own" }', '{ kind = "card-ruling", card = "Shock" }'))
    assert error_of(path) == "discover.toml:6: scenario 'discover-701.57a-x': a card-ruling source needs 'date'"


def test_bad_rule_number(tmp_path):
    path = write(tmp_path, GOOD.replace('rule = "701.57a"', 'rule = "Discover"'))
    assert error_of(path) == "discover.toml:4: scenario 'discover-701.57a-x': rule 'Discover' is not a rule number such as 701.57a"


def test_keyword_must_match_the_file(tmp_path):
    path = write(tmp_path, 'keyword = "Explore"\n' + GOOD)
    assert error_of(path) == "discover.toml:1: keyword = 'Explore', but discover.toml holds the scenarios of 'Discover'"


def test_file_name_must_be_an_action(tmp_path):
    path = write(tmp_path, GOOD, name="disco.toml")
    assert error_of(path).startswith("disco.toml: the file name names no action: no action 'disco'")


def test_invalid_toml_has_a_line(tmp_path):
    path = write(tmp_path, GOOD + "\nthis is not toml\n")
    assert error_of(path).startswith("discover.toml:15: not valid TOML: Expected '=' after a key")


def test_duplicate_ids(tmp_path):
    write(tmp_path, GOOD)
    write(tmp_path, GOOD + GOOD.replace("[[scenario]]", "[[scenario]]", 1), name="discover.toml")
    with pytest.raises(SourceError) as e:
        load_scenarios(tmp_path)
    assert "scenario id 'discover-701.57a-x' is already used at" in str(e.value)
    assert str(e.value).split(":")[1] == "15"


def test_a_bad_step_is_reported_when_run(tmp_path):
    from executable_rules.scenarios import run_scenario
    [s] = load_scenario_file(write(tmp_path, GOOD.replace("n = 3", "n = 3\ncount = 2")))
    result = run_scenario(s)
    assert not result.passed
    assert result.failures == ["discover.toml:14: scenario 'discover-701.57a-x': unknown key 'count' for do = 'discover'"
                               .replace("discover.toml", str(tmp_path / "discover.toml"))]
