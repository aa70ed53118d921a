"""Options shared by every ``kb`` command, defined once and stacked as decorators."""

from __future__ import annotations

import json
import re

import click

from .corpus import CorpusNotFound, find_corpus
from .database import DatabaseNotFound, open_db


def db_option(fn):
    """``--db PATH`` (or ``KB_DB``): the database to read or write."""
    return click.option(
        "--db", "db", type=click.Path(dir_okay=False), envvar="KB_DB", default=None,
        help="Database file [default: kb.db in the project; env KB_DB].",
    )(fn)


def json_option(fn):
    """``--json``: print machine-readable JSON instead of text."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(fn)


def _validate_release(ctx, param, value):
    if value is None:
        return None
    if not re.fullmatch(r"\d{8}", value):
        raise click.BadParameter(f"{value!r} is not a release id; use the effective date as YYYYMMDD, e.g. 20260116")
    return value


def release_option(fn):
    """``--release YYYYMMDD``: which CR release (default: the newest)."""
    return click.option(
        "--release", "release", default=None, callback=_validate_release, metavar="YYYYMMDD",
        help="CR release (effective date) [default: newest].",
    )(fn)


def corpus_option(fn):
    """``--corpus DIR`` (or ``KB_CORPUS``): the source corpus."""
    return click.option(
        "--corpus", "corpus", type=click.Path(file_okay=False), default=None,
        help="Corpus directory [default: $KB_CORPUS, else ../shared/corpus].",
    )(fn)


def resolve_corpus(corpus: str | None):
    """Find the corpus or raise a ClickException saying what is missing."""
    try:
        return find_corpus(corpus)
    except CorpusNotFound as e:
        raise click.ClickException(str(e)) from None


def open_database(db: str | None):
    """Open the database for a command, or raise a ClickException saying how to build it."""
    try:
        return open_db(db)
    except DatabaseNotFound as e:
        raise click.ClickException(str(e)) from None


def echo_json(data) -> None:
    """Print ``data`` as indented JSON, Japanese as it is."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))
