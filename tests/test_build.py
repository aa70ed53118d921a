"""kb build: atomic (temp file, then rename), idempotent, clear about what is missing."""

from __future__ import annotations

import gzip
import hashlib
import os

import pytest
from click.testing import CliRunner

from kb.build import BuildFailed, build_database
from kb.cli import cli

SLICE = ["MagicCompRules_20231117.txt", "MagicCompRules_20260116.txt"]


def make_slice(root, corpus):
    (root / "cr" / "en").mkdir(parents=True)
    for name in SLICE:
        os.symlink(corpus / "cr" / "en" / name, root / "cr" / "en" / name)
    for entry in corpus.iterdir():
        if entry.name != "cr":
            os.symlink(entry, root / entry.name)
    for entry in (corpus / "cr").iterdir():
        if entry.name != "en":
            os.symlink(entry, root / "cr" / entry.name)
    return root


@pytest.fixture
def slice_corpus(tmp_path, corpus):
    """A corpus with two English releases and everything else of the real one."""
    return make_slice(tmp_path / "corpus", corpus)


@pytest.fixture(scope="module")
def slice_db(tmp_path_factory, corpus):
    """The slice corpus built once for the module (a build takes a while): (corpus, database, summary)."""
    base = tmp_path_factory.mktemp("slice")
    root = make_slice(base / "corpus", corpus)
    db = base / "kb.db"
    return root, db, build_database(db, root, show_progress=False)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_build_is_idempotent(slice_db, tmp_path):
    root, built, first = slice_db
    db = tmp_path / "kb.db"
    db.write_bytes(built.read_bytes())
    second = build_database(db, root, show_progress=False)
    assert first.counts == second.counts
    assert first.counts["releases"] >= 2
    assert not list(tmp_path.glob("kb.db.tmp*"))


def test_failed_build_leaves_the_previous_database(slice_db, slice_corpus, tmp_path):
    db = tmp_path / "kb.db"
    db.write_bytes(slice_db[1].read_bytes())
    before = digest(db)
    bad = slice_corpus / "cr" / "en" / "archive"
    bad.mkdir()
    (bad / "MagicCompRules_20990101.txt.gz").write_bytes(gzip.compress(os.urandom(5000))[:2000])
    with pytest.raises(BuildFailed, match=r"cr/en/archive/MagicCompRules_20990101.txt.gz: corrupt gzip data"):
        build_database(db, slice_corpus, show_progress=False)
    assert digest(db) == before
    assert not list(tmp_path.glob("kb.db.tmp*"))


def test_cli_build_failure_exits_non_zero_with_file_and_line(slice_corpus, tmp_path):
    (slice_corpus / "cr" / "en" / "MagicCompRules_20990101.txt").write_bytes(
        b"These rules are effective as of January 1, 2099.\n\n100.1. ok \x81 bad\n")
    result = CliRunner().invoke(cli, ["build", "--corpus", str(slice_corpus), "--db", str(tmp_path / "x.db"), "-q"])
    assert result.exit_code == 1
    assert "cr/en/MagicCompRules_20990101.txt:3: cannot decode byte 0x81" in result.output
    assert not (tmp_path / "x.db").exists()


def test_keep_going_records_unreadable_files(slice_corpus, tmp_path):
    (slice_corpus / "cr" / "en" / "MagicCompRules_20990101.txt").write_bytes(b"\x81\x81")
    summary = build_database(tmp_path / "kb.db", slice_corpus, show_progress=False, keep_going=True)
    assert summary.errors >= 1
    from kb.database import open_db

    rows = list(open_db(tmp_path / "kb.db").query(
        "select source, code from ingest_problems where severity = 'error'"))
    assert {"source": "cr/en/MagicCompRules_20990101.txt", "code": "unreadable"} in rows


def test_no_corpus_says_what_is_missing_and_where(tmp_path, monkeypatch):
    monkeypatch.setenv("KB_CORPUS", str(tmp_path / "nowhere"))
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "kb.db")])
    assert result.exit_code == 1
    assert f"corpus directory {tmp_path / 'nowhere'} (from KB_CORPUS) does not exist" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(cli, ["build", "--corpus", str(empty), "--db", str(tmp_path / "kb.db")])
    assert result.exit_code == 1
    assert "has no cr/en/ folder" in result.output


def test_release_sources_compare_raw_copies(kb_db, corpus):
    rows = {r["source"]: r for r in kb_db.query("select * from release_sources")}
    raw = rows["cr/en/raw/MagicCompRules 20221118.txt.gz"]
    assert (raw["release"], raw["used"], raw["same_as_used"], raw["encoding"]) == ("20221118", 0, 1, "utf-16-be")
    assert rows["cr/en/archive/MagicCompRules_19990421.txt.gz"]["used"] == 0
    files = [p for p in (corpus / "cr" / "en").rglob("MagicCompRules*") if "raw" not in p.parts]
    assert kb_db.execute("select count(*) from releases where lang = 'en'").fetchone()[0] == len(files) - 1
