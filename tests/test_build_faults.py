"""The build refuses broken sources and survives being killed, each on a small temporary corpus.

A release cut short is an error naming its file, and the previous database
stays; an invalid byte is reported at its real line and byte; a build killed
with SIGKILL or SIGTERM leaves no worker behind, and the next build removes
the temporary file a SIGKILL left.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kb.build import BuildFailed, BuildInterrupted, build_database, remove_stale_temp_files

ROOT = Path(__file__).resolve().parent.parent
NEWEST = ["MagicCompRules_20260227.txt", "MagicCompRules_20260417.txt"]


def make_corpus(root: Path, corpus: Path, english: list[str]) -> Path:
    """A corpus of the ``english`` releases and everything else of the real one, by symbolic links."""
    (root / "cr" / "en").mkdir(parents=True)
    for name in english:
        os.symlink(corpus / "cr" / "en" / name, root / "cr" / "en" / name)
    for entry in corpus.iterdir():
        if entry.name != "cr":
            os.symlink(entry, root / entry.name)
    for entry in (corpus / "cr").iterdir():
        if entry.name != "en":
            os.symlink(entry, root / "cr" / entry.name)
    return root


@pytest.fixture(scope="module")
def cache() -> Path:
    """The shared build cache (``KB_CACHE_DIR`` or ``~/.cache/mtg-rules-kb``): a cut or bad file has a
    digest of its own, so it is parsed whatever the cache holds, and the rest (cards, scenarios,
    the other releases) need not be made again for each small corpus."""
    from kb.cache import default_cache_dir

    return default_cache_dir()


@pytest.fixture(scope="module")
def good(tmp_path_factory, corpus, cache) -> tuple[Path, Path]:
    """A small corpus and the database built from it."""
    root = make_corpus(tmp_path_factory.mktemp("good") / "corpus", corpus, NEWEST)
    db = root.parent / "kb.db"
    build_database(db, root, show_progress=False, cache_dir=cache)
    return root, db


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_newest_english_release_cut_in_half_fails_and_the_database_stays(good, corpus, cache):
    root, db = good
    before = digest(db)
    text = (corpus / "cr" / "en" / "MagicCompRules_20260925.txt").read_text(encoding="utf-8")
    cut = root / "cr" / "en" / "MagicCompRules_20260925.txt"
    cut.write_text(text[: len(text) // 2], encoding="utf-8")
    try:
        with pytest.raises(BuildFailed) as failed:
            build_database(db, root, show_progress=False, cache_dir=cache)
    finally:
        cut.unlink()
    message = str(failed.value)
    assert message.startswith("cr/en/MagicCompRules_20260925.txt:")
    assert "stops before its end" in message and "no Glossary and no Credits" in message
    assert digest(db) == before
    assert not list(db.parent.glob("kb.db.tmp-*"))


def test_release_with_far_fewer_rules_than_its_neighbours_fails(good, corpus, cache):
    root, db = good
    before = digest(db)
    # Cut in the middle but keep the end: the glossary and credits are there, half the rules are not.
    lines = (corpus / "cr" / "en" / "MagicCompRules_20260925.txt").read_text(encoding="utf-8").split("\n")
    body = next(i for i, line in enumerate(lines) if line.startswith("100.1. "))
    start = next(i for i in range(body, len(lines)) if lines[i].startswith("5. "))
    end = next(i for i in range(len(lines) - 1, 0, -1) if lines[i].strip() == "Glossary")
    cut = root / "cr" / "en" / "MagicCompRules_20260925.txt"
    cut.write_text("\n".join(lines[:start] + lines[end:]), encoding="utf-8")
    try:
        with pytest.raises(BuildFailed, match=r"cr/en/MagicCompRules_20260925.txt: release 20260925 \(en\) looks "
                                              r"cut short: it has \d+ numbered rules and subrules, far fewer than"):
            build_database(db, root, show_progress=False, cache_dir=cache)
    finally:
        cut.unlink()
    assert digest(db) == before


def test_japanese_release_cut_at_a_line_fails_and_the_database_stays(good, corpus, cache, tmp_path):
    root, db = good
    before = digest(db)
    japanese = corpus / "cr" / "ja" / "JPN_CR_20260116.txt"
    lines = japanese.read_text(encoding="utf-8").split("\n")
    ja = root / "cr" / "ja"
    ja.unlink()
    ja.mkdir()
    try:
        for entry in (corpus / "cr" / "ja").iterdir():
            if entry.name != japanese.name:
                os.symlink(entry, ja / entry.name)
        (ja / japanese.name).write_text("\n".join(lines[: int(len(lines) * 0.6)]), encoding="utf-8")
        with pytest.raises(BuildFailed) as failed:
            build_database(db, root, show_progress=False, cache_dir=cache)
    finally:
        for entry in ja.iterdir():
            entry.unlink()
        ja.rmdir()
        os.symlink(corpus / "cr" / "ja", ja)
    assert str(failed.value).startswith("cr/ja/JPN_CR_20260116.txt:")
    assert "stops before its end" in str(failed.value)
    assert digest(db) == before


@pytest.mark.parametrize("folder,name", [("zh", "MagicCompRules_zh-Hans_20260417.txt"),
                                         ("ko", "MagicCompRules_KR_20211119.txt")])
def test_translated_release_cut_at_a_line_fails_and_the_database_stays(good, corpus, cache, folder, name):
    # Cut at 90 %: the rules are nearly all there (the count check would pass it), the glossary is not.
    root, db = good
    before = digest(db)
    lines = (corpus / "cr" / folder / name).read_text(encoding="utf-8").split("\n")
    where = root / "cr" / folder
    where.unlink()
    where.mkdir()
    try:
        for entry in (corpus / "cr" / folder).iterdir():
            if entry.name != name:
                os.symlink(entry, where / entry.name)
        (where / name).write_text("\n".join(lines[: int(len(lines) * 0.9)]), encoding="utf-8")
        with pytest.raises(BuildFailed) as failed:
            build_database(db, root, show_progress=False, cache_dir=cache)
    finally:
        for entry in where.iterdir():
            entry.unlink()
        where.rmdir()
        os.symlink(corpus / "cr" / folder, where)
    assert str(failed.value).startswith(f"cr/{folder}/{name}:")
    assert "stops before its end" in str(failed.value)
    assert digest(db) == before


def test_invalid_utf8_byte_is_reported_at_its_real_line_and_byte(good, corpus, cache):
    root, db = good
    before = digest(db)
    data = (corpus / "cr" / "en" / "MagicCompRules_20260925.txt").read_bytes().split(b"\n")
    line = next(i for i in range(3809, len(data)) if len(data[i]) > 20) + 1  # around line 3,810, with text
    data[line - 1] = data[line - 1][:11] + b"\x9d" + data[line - 1][11:]
    bad = root / "cr" / "en" / "MagicCompRules_20260925.txt"
    bad.write_bytes(b"\n".join(data))
    try:
        with pytest.raises(BuildFailed) as failed:
            build_database(db, root, show_progress=False, cache_dir=cache)
    finally:
        bad.unlink()
    assert str(failed.value).startswith(
        f"cr/en/MagicCompRules_20260925.txt:{line}: cannot decode byte 0x9d as UTF-8 (byte 12 of line {line}")
    assert digest(db) == before


def test_nothing_changed_means_nothing_to_do(good, cache):
    root, db = good
    before = digest(db), db.stat().st_mtime_ns
    summary = build_database(db, root, show_progress=False, cache_dir=cache)
    assert summary.mode == "unchanged" and summary.counts["releases"] >= 3
    assert (digest(db), db.stat().st_mtime_ns) == before


# --- killed builds ------------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _build_with_workers(corpus_root: Path, db: Path, cache: Path) -> tuple[subprocess.Popen, set[int]]:
    """Start ``kb build`` parsing in two worker processes; return it once its workers are running."""
    env = {**os.environ, "KB_BUILD_WORKERS": "2", "KB_MATCH_WORKERS": "2"}
    process = subprocess.Popen(
        [sys.executable, "-m", "kb.cli", "build", "-q", "--corpus", str(corpus_root), "--db", str(db),
         "--cache-dir", str(cache)], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        workers = {c for c in _children(process.pid) if _alive(c)}
        if len(workers) >= 2:
            return process, workers
        if process.poll() is not None:
            pytest.fail(f"the build ended before its workers were seen: {process.stderr.read().decode()[-500:]}")
        time.sleep(0.005)
    process.kill()
    pytest.fail("no worker processes seen")


@pytest.fixture
def many(tmp_path, corpus) -> Path:
    """A corpus with enough English releases that parsing them takes a while."""
    names = sorted(p.name for p in (corpus / "cr" / "en").glob("MagicCompRules_*.txt"))[-12:]
    return make_corpus(tmp_path / "corpus", corpus, names)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_die_with_a_killed_build_and_the_next_build_cleans_up(many, tmp_path, sig):
    db = tmp_path / "kb.db"
    cache = tmp_path / "cache"  # empty: the build must parse, in its workers
    process, workers = _build_with_workers(many, db, cache)
    process.send_signal(sig)
    process.wait(timeout=60)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.05)
    assert not [w for w in workers if _alive(w)], "workers outlived their build"
    left = list(tmp_path.glob("kb.db.tmp-*"))
    if sig == signal.SIGTERM:
        assert process.returncode != 0
        assert "interrupted by SIGTERM" in process.stderr.read().decode()
        assert not left  # it cleaned up after itself
    else:
        assert [p.name for p in left] == [f"kb.db.tmp-{process.pid}"]  # nothing could clean up after SIGKILL
        empty = tmp_path / "empty"
        (empty / "cr" / "en").mkdir(parents=True)
        with pytest.raises(BuildFailed, match="no English CR files"):
            build_database(db, empty, show_progress=False, cache_dir=False)  # the next build, however it ends
        assert not list(tmp_path.glob("kb.db.tmp-*"))
    assert not db.exists()


def test_a_running_builds_temporary_file_is_not_removed(tmp_path):
    import fcntl

    held = tmp_path / "kb.db.tmp-999999"
    held.write_bytes(b"x")
    fd = os.open(held, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert remove_stale_temp_files(tmp_path / "kb.db") == []
        assert held.exists()
    finally:
        os.close(fd)
    assert remove_stale_temp_files(tmp_path / "kb.db") == [held] and not held.exists()


@pytest.mark.parametrize("forgotten", [False, True])
def test_a_failed_pool_stops_every_worker_and_keeps_the_error(forgotten):
    """A signal landing inside ``submit()`` can leave a started worker out of the pool's own record;
    it must still be stopped (else it is joined at exit and the build never ends), and the
    interruption, not a cleanup error, is what propagates."""
    import multiprocessing

    from kb.build import worker_pool

    with pytest.raises(BuildInterrupted, match="by test"):
        with worker_pool(2) as pool:
            pool.submit(time.sleep, 30)
            workers = list(pool._processes.values())
            assert len(workers) == 2
            if forgotten:
                pool._processes.pop(workers[-1].pid)
            raise BuildInterrupted("interrupted by test")
    assert not [w for w in workers if w.is_alive()]
    assert not multiprocessing.active_children()
