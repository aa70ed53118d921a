"""The docs are tested: the README's set-up, every command documented with a working example."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import cli
from kb.schema import CR_TABLES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_setup_commands():
    first_block = re.search(r"```console\n(.*?)```", README, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in first_block.splitlines() if line.strip()]
    assert commands == ["./run serve", "./run test"]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^exec \./run test$", ci, re.M)
    run = (ROOT / "run").read_text()
    assert "-m pytest" in run and "apt-get install" in run and "chromium" in run


COMMANDS = sorted(cli.commands)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_is_documented_with_an_example(name):
    assert f"`kb {name}" in README, f"kb {name} is not in the README's command table"
    help_text = cli.commands[name].help or ""
    assert "Example:" in help_text, f"kb {name} --help has no example"


EXAMPLE = re.compile(r"Example:\s*\n\s*\n\s*(kb .+)")
# build and add write (tests/test_build.py and tests/test_add.py run them); cache reads no database.
READ_ONLY = [n for n in COMMANDS if n not in ("build", "serve", "add", "cache")]


@pytest.mark.parametrize("name", READ_ONLY)
def test_every_help_example_runs_on_the_built_database(name, built_db):
    example = EXAMPLE.search(cli.commands[name].help).group(1)
    args = shlex.split(example)[1:]
    result = CliRunner().invoke(cli, [*args, "--db", str(built_db)])
    assert result.exit_code == 0, (example, result.output)
    assert result.output.strip()


def test_every_table_is_in_the_readme_schema():
    for table in CR_TABLES:
        assert f"| `{table}` |" in README, table
