"""``kb add``: a real release added to a database built without it gives the database a full build gives.

Tables are compared row for row, as multisets: surrogate ``id`` columns aside
(an added release's rows are numbered after everything else) and ids that
point into other tables replaced by the row they point at.
"""

from __future__ import annotations

import collections
import hashlib
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.build import build_database
from kb.cli import cli
from kb.search.dense import load_sqlite_vec
from kb.sqlite import sqlite3

from test_build_faults import make_corpus

# Columns holding another table's surrogate id: compared by the row they point at. (A table
# that points at glossary, examples or rule_references rows by id belongs here: those ids
# differ once a release is added after the others.)
ID_REFERENCES = {
    "glossary_pairs": {"en_id": "glossary", "ja_id": "glossary"},
    "glossary_translations": {"en_id": "glossary", "translated_id": "glossary"},
    "scenario_examples": {"example_id": "examples"},
    "scenario_rulings": {"ruling_id": "rulings"},
    "scenario_card_rulings": {"card_ruling_id": "card_rulings"},
    "ruling_rules": {"ruling_id": "rulings"},
    "card_faces": {"card_id": "cards"},
    "card_keywords": {"card_id": "cards"},
    "search_vectors": {"rowid": "search_current"},
    "card_rulings": {"card_id": "cards"},
    "scenario_cards": {"card_id": "cards"},
}
# How the database was built (when, which mode, cache hits) is not its content.
NOT_CONTENT = {"build_info"}


def table_rows(conn: sqlite3.Connection, table: str) -> collections.Counter:
    columns = [r[1] for r in conn.execute(f"pragma table_info([{table}])")]
    surrogate = "id" in columns and conn.execute(
        "select type from pragma_table_info(?) where name = 'id' and pk = 1", [table]).fetchone() == ("INTEGER",)
    targets = {}
    for column, target in ID_REFERENCES.get(table, {}).items():
        if column in columns:
            rest = [c for c in (r[1] for r in conn.execute(f"pragma table_info([{target}])")) if c != "id"]
            targets[column] = {r[0]: r[1:] for r in conn.execute(
                f"select id, {', '.join(f'[{c}]' for c in rest)} from [{target}]")}
    rows: collections.Counter = collections.Counter()
    for row in conn.execute(f"select {', '.join(f'[{c}]' for c in columns)} from [{table}]"):
        values = dict(zip(columns, row))
        if surrogate:
            del values["id"]
        for column, target in targets.items():
            values[column] = target.get(values[column])
        rows[tuple(sorted(values.items()))] += 1
    return rows


def content_tables(conn: sqlite3.Connection) -> list[str]:
    """Every table but SQLite's own, the full-text indexes and the shadow tables of virtual tables
    (FTS5 and sqlite-vec keep their index pages there, laid out by the order rows were inserted);
    the virtual tables themselves are compared by what they answer."""
    virtual = [r[0] for r in conn.execute("select name from sqlite_master where type = 'table'"
                                          " and sql like 'create virtual table%'")]
    def shadow(name: str) -> bool:
        return any(name.startswith(v + "_") for v in virtual)
    return sorted(r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")
                  if not r[0].startswith("sqlite_") and "_fts" not in r[0] and r[0] not in NOT_CONTENT
                  and not shadow(r[0]))


def assert_same_database(a: Path, b: Path) -> None:
    left, right = sqlite3.connect(a), sqlite3.connect(b)
    for conn in (left, right):   # the vectors are a sqlite-vec table
        load_sqlite_vec(conn)
    assert content_tables(left) == content_tables(right)
    differing = []
    for table in content_tables(left):
        x, y = table_rows(left, table), table_rows(right, table)
        if x != y:
            differing.append(f"{table}: {sum((x - y).values())} rows only in {a.name}, "
                             f"{sum((y - x).values())} only in {b.name}, e.g. {list(x - y)[:1]} / {list(y - x)[:1]}")
    assert not differing, "\n".join(differing)
    # The full-text indexes find the same rows.
    for table, word in (("rules", "discover"), ("examples", "library"), ("glossary", "ability"),
                        ("search_current", "counter")):
        query = (f"select count(*), total(length(t.search_text)) from [{table}_fts] f join [{table}] t "
                 f"on t.rowid = f.rowid where [{table}_fts] match ?")
        assert left.execute(query, [word]).fetchone() == right.execute(query, [word]).fetchone(), table


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def newest_english(corpus: Path) -> str:
    return max(p.name for p in (corpus / "cr" / "en").glob("MagicCompRules_*.txt"))


@pytest.fixture(scope="module")
def full_db(built_db, tmp_path_factory, corpus) -> Path:
    """The whole corpus built in full: the session's database, unless KB_TEST_DB points at another."""
    if not os.environ.get("KB_TEST_DB"):
        return built_db
    path = tmp_path_factory.mktemp("full") / "kb.db"
    build_database(path, corpus, show_progress=False)
    return path


def test_adding_the_newest_release_gives_the_database_a_full_build_gives(full_db, corpus, tmp_path):
    newest = newest_english(corpus)
    others = [p.name for p in (corpus / "cr" / "en").iterdir() if p.name != newest]
    root = make_corpus(tmp_path / "corpus", corpus, others)
    db = tmp_path / "kb.db"
    first = build_database(db, root, show_progress=False)
    assert first.mode == "full" and first.counts["releases"] == sqlite3.connect(full_db).execute(
        "select count(*) from releases").fetchone()[0] - 1
    result = CliRunner().invoke(cli, ["add", str(corpus / "cr" / "en" / newest), "--corpus", str(root),
                                      "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    release = newest.removeprefix("MagicCompRules_").removesuffix(".txt")
    assert f"Added cr/en/{newest}, release {release} (en)" in result.output
    assert "added to in" in result.output  # the incremental path, not a full rebuild
    assert "Against 20" in result.output and "moved" in result.output
    assert (root / "cr" / "en" / newest).read_bytes() == (corpus / "cr" / "en" / newest).read_bytes()
    assert_same_database(full_db, db)


def test_a_truncated_file_is_refused_and_nothing_changes(full_db, corpus, tmp_path):
    db = tmp_path / "kb.db"
    db.write_bytes(full_db.read_bytes())
    before = digest(db)
    root = make_corpus(tmp_path / "corpus", corpus, [p.name for p in (corpus / "cr" / "en").iterdir()])
    listing = sorted(p.name for p in (root / "cr" / "en").iterdir())
    text = (corpus / "cr" / "en" / newest_english(corpus)).read_text(encoding="utf-8")
    cut = tmp_path / "MagicCompRules_20991231.txt"
    cut.write_text(text.replace("These rules are effective as of", "These rules are effective as of December 31, "
                                "2099. Formerly")[: len(text) // 2], encoding="utf-8")
    result = CliRunner().invoke(cli, ["add", str(cut), "--corpus", str(root), "--db", str(db), "-q"])
    assert result.exit_code == 1
    assert f"not added: {cut}:" in result.output and "stops before its end" in result.output
    assert digest(db) == before
    assert sorted(p.name for p in (root / "cr" / "en").iterdir()) == listing


def test_a_file_that_is_not_a_cr_is_refused(full_db, tmp_path, corpus):
    other = tmp_path / "notes.txt"
    other.write_text("Rulings are collected from many sources.\nNothing else.\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["add", str(other), "--corpus", str(corpus), "--db", str(full_db)])
    assert result.exit_code == 1 and f"not added: {other}:1: not parsed as a Comprehensive Rules release" in result.output


def test_check_only_and_a_file_already_in_the_database(full_db, corpus):
    newest = corpus / "cr" / "en" / newest_english(corpus)
    result = CliRunner().invoke(cli, ["add", "--check", str(newest), "--corpus", str(corpus), "--db", str(full_db)])
    assert result.exit_code == 0, result.output
    assert "is already in the database as cr/en/" in result.output and "nothing to do" in result.output
    japanese = corpus / "cr" / "ja" / "JPN_CR_20260116.txt"
    result = CliRunner().invoke(cli, ["add", "--check", "--lang", "ja", str(japanese), "--corpus", str(corpus),
                                      "--db", str(full_db), "--json"])
    assert result.exit_code == 0, result.output
    assert '"release": "20260116"' in result.output and '"lang": "ja"' in result.output
    result = CliRunner().invoke(cli, ["add", "--lang", "xx", str(japanese), "--db", str(full_db)])
    assert result.exit_code == 2 and "is not a CR language" in result.output
