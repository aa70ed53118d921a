"""Shared fixtures: the real corpus, a database built from it once per session, Datasette."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kb.corpus import CorpusNotFound, find_corpus

FIXTURES = Path(__file__).parent / "fixtures"


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

    path = tmp_path_factory.mktemp("built") / "kb.db"
    build_database(path, corpus, show_progress=False)
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

    return Datasette(immutables=[str(built_db)], metadata=metadata_for(built_db.stem))


@pytest.fixture(scope="session")
def db_name(built_db) -> str:
    return built_db.stem
