"""``kb add`` of a release between two others: their pair gives way to two, and the database is the
one a full build of the three gives.

A file of its own (not in :mod:`tests.test_add`) because it costs two builds and an add, about two
minutes: with ``--dist loadfile`` it then runs on another worker than test_add's full-corpus add.
"""

from __future__ import annotations

from click.testing import CliRunner
from test_add import assert_same_database
from test_build_faults import make_corpus

from kb.build import build_database
from kb.cli import cli
from kb.sqlite import sqlite3


def test_adding_a_release_between_two_others_splits_their_pair(corpus, tmp_path):
    """Added without the cache: the pair 20260116 → 20260417 gives way to two pairs. (The two full
    builds use the shared cache: what they give does not depend on it, tests/test_build_cache.py.)"""
    names = ["MagicCompRules_20260116.txt", "MagicCompRules_20260227.txt", "MagicCompRules_20260417.txt"]
    whole = make_corpus(tmp_path / "whole", corpus, names)
    build_database(tmp_path / "whole.db", whole, show_progress=False)
    part = make_corpus(tmp_path / "part", corpus, [names[0], names[2]])
    db = tmp_path / "part.db"
    build_database(db, part, show_progress=False)
    pairs = [tuple(r) for r in sqlite3.connect(db).execute(
        "select old_release, new_release from release_pairs where lang = 'en'"
        " and old_completeness = 'whole' and new_completeness = 'whole'")]
    assert pairs == [("20260116", "20260417")]
    result = CliRunner().invoke(cli, ["add", str(corpus / "cr" / "en" / names[1]), "--corpus", str(part),
                                      "--db", str(db), "--no-cache", "-q"])
    assert result.exit_code == 0, result.output
    assert_same_database(tmp_path / "whole.db", db)
