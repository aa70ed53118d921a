"""Shared fixtures: the real corpus, a database built from it once per session, Datasette."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from kb.corpus import CorpusNotFound, find_corpus

FIXTURES = Path(__file__).parent / "fixtures"
# Every test searches afresh (spies on the engine must see it run); tests/test_answer_cache.py turns it on.
os.environ.setdefault("KB_ANSWER_CACHE", "0")


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The real corpus (``KB_CORPUS`` or ``../shared/corpus``); tests need it."""
    try:
        return find_corpus()
    except CorpusNotFound as e:  # pragma: no cover - a setup problem, said clearly
        pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="session")
def cr_2026(corpus) -> Path:
    """The English CR release 20260116 (normalised copy)."""
    return corpus / "cr" / "en" / "MagicCompRules_20260116.txt"


def built_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """``make(path)`` run once per test session, however many pytest-xdist workers ask.

    The workers share their base temporary directory's parent; the first to take the
    lock builds (into a partial file, renamed when complete), the others wait and read.
    """
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    path = base / name
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            partial = path.with_name(path.name + ".partial")
            if partial.is_dir():
                import shutil
                shutil.rmtree(partial)
            else:
                partial.unlink(missing_ok=True)
            make(partial)
            partial.rename(path)
    return path


@pytest.fixture(scope="session")
def built_db(tmp_path_factory, corpus) -> Path:
    """The whole database, built once per test session from the real corpus.

    Set ``KB_TEST_DB`` to an already built database to skip the build while
    iterating locally; CI always builds.
    """
    prebuilt = os.environ.get("KB_TEST_DB")
    if prebuilt:
        return Path(prebuilt)
    from kb.build import build_database

    def make(partial: Path) -> None:
        partial.mkdir()
        build_database(partial / "kb.db", corpus, show_progress=False)

    return built_once(tmp_path_factory, "built", make) / "kb.db"


@pytest.fixture(scope="session")
def bilingual_db(tmp_path_factory, corpus) -> Path:
    """Release 20260116 in English and Japanese, with the alignment tables and search indexes."""
    import sqlite_utils

    from kb import schema
    from kb.load import cr as load_cr, japanese as load_japanese
    from kb.build import BuildContext

    def make(root: Path) -> None:
        (root / "cr" / "en").mkdir(parents=True)
        os.symlink(corpus / "cr" / "en" / "MagicCompRules_20260116.txt", root / "cr" / "en" / "MagicCompRules_20260116.txt")
        os.symlink(corpus / "cr" / "ja", root / "cr" / "ja")
        db = sqlite_utils.Database(root / "bilingual.db")
        ctx = BuildContext(db=db, corpus=root)
        schema.create_cr_tables(db)
        load_cr.load_english_cr(ctx)
        load_japanese.load_japanese_cr(ctx)
        schema.finish_cr_tables(db)
        schema.finish_search_current(db)
        db.close()

    path = built_once(tmp_path_factory, "bilingual", make) / "bilingual.db"
    return path


@pytest.fixture(scope="session")
def kb_db(built_db):
    """The built database opened read-only with sqlite-utils."""
    from kb.database import open_db

    return open_db(built_db)


@pytest.fixture(scope="session")
def ds(built_db):
    """A Datasette instance over the built database, as ``kb serve`` configures it."""
    from datasette.app import Datasette

    from kb.metadata import metadata_for

    # A generous facet time limit: tests check facets, not speed (bench/ does), and the
    # machine may be busy.
    return Datasette(immutables=[str(built_db)], metadata=metadata_for(built_db.stem),
                     settings={"facet_time_limit_ms": 5000, "suggest_facets": False})


@pytest.fixture(scope="session")
def db_name(built_db) -> str:
    return built_db.stem


ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


@pytest.fixture(scope="session")
def live_server(built_db):
    """``datasette serve`` as ``kb serve`` runs it, on a free localhost port; yields its base URL.

    Without dense search (``KB_EMBEDDER=none``): ``kb serve`` would otherwise embed the rule texts its
    vector cache lacks in the background, minutes of a core beside every test that uses the server, and
    no test through it needs the vectors (tests/test_search_dense.py covers them).
    """
    from kb.serve import running_server

    try:
        with running_server(built_db, env={**os.environ, "KB_EMBEDDER": "none"}) as base:
            yield base
    except RuntimeError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, headless (no browser download).

    Module-scoped: Playwright's sync API keeps an event loop running in the main
    thread while it lives, and the async tests of other modules need it gone.
    """
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("KB_CHROMIUM", "/usr/bin/chromium")
    if not Path(executable).exists():
        pytest.fail(f"{executable} not found: install Debian's chromium (./run test does)", pytrace=False)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=executable, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where browser tests save screenshots for a reviewer (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
