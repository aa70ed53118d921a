"""Where the source corpus is, and which files in it are which.

The corpus is never copied into the project. Its location comes from, in
order: the ``--corpus`` option, the ``KB_CORPUS`` environment variable, then
``../shared/corpus`` beside the checkout (or beside the working directory)
when it exists.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class CorpusNotFound(Exception):
    """No corpus where we looked; the message says where to put one."""


def default_corpus_candidates() -> list[Path]:
    """The places looked at when neither ``--corpus`` nor ``KB_CORPUS`` is given."""
    return [
        PROJECT_ROOT.parent / "shared" / "corpus",
        Path.cwd().parent / "shared" / "corpus",
    ]


def find_corpus(option: str | os.PathLike[str] | None = None) -> Path:
    """Return the corpus directory, or raise :class:`CorpusNotFound` saying what is missing.

    >>> find_corpus("/nonexistent/corpus")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kb.corpus.CorpusNotFound: corpus directory /nonexistent/corpus (from --corpus) does not exist...
    """
    if option is not None:
        where, origin = Path(option), "from --corpus"
    elif os.environ.get("KB_CORPUS"):
        where, origin = Path(os.environ["KB_CORPUS"]), "from KB_CORPUS"
    else:
        for candidate in default_corpus_candidates():
            if candidate.is_dir():
                where, origin = candidate, "default"
                break
        else:
            looked = ", ".join(str(p) for p in default_corpus_candidates())
            raise CorpusNotFound(
                f"no corpus found (looked in {looked}). Put the corpus at ../shared/corpus "
                "beside the checkout, set KB_CORPUS=/path/to/corpus, or pass --corpus DIR. "
                "It must contain cr/en/ with the English Comprehensive Rules files."
            )
    if not where.is_dir():
        raise CorpusNotFound(
            f"corpus directory {where} ({origin}) does not exist. Pass --corpus DIR or set "
            "KB_CORPUS to a directory containing cr/en/."
        )
    if not (where / "cr" / "en").is_dir():
        raise CorpusNotFound(
            f"corpus directory {where} ({origin}) has no cr/en/ folder; the English "
            "Comprehensive Rules files (MagicCompRules_YYYYMMDD.txt, archive/*.txt.gz, raw/) go there."
        )
    return where.resolve()


@dataclass(frozen=True)
class CorpusFile:
    """A file of the corpus: its absolute path and its path relative to the corpus."""

    path: Path
    relative: str


def _files(corpus: Path, *patterns: str) -> list[CorpusFile]:
    found: dict[Path, CorpusFile] = {}
    for pattern in patterns:
        for p in sorted(corpus.glob(pattern)):
            if p.is_file():
                found[p] = CorpusFile(p, p.relative_to(corpus).as_posix())
    return sorted(found.values(), key=lambda f: f.relative)


def english_cr_files(corpus: Path) -> list[CorpusFile]:
    """Normalised English CR releases: ``cr/en/*.txt`` and ``cr/en/archive/*.txt.gz``."""
    return _files(corpus, "cr/en/*.txt", "cr/en/*.txt.gz", "cr/en/archive/*.txt", "cr/en/archive/*.txt.gz")


def english_cr_raw_files(corpus: Path) -> list[CorpusFile]:
    """Original-bytes English CR files in ``cr/en/raw/`` (same releases as above)."""
    return _files(corpus, "cr/en/raw/*")
