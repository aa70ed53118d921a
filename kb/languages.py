"""The CR languages the build reads, each registered by the module that loads it.

``kb add FILE --lang ja`` and ``kb build`` (when a new file appears in the
corpus) need to know, for each language, which corpus files are its CR
releases, how to read one to check it, and where a new one goes. A load
module says so once, when it is imported::

    register_language(CRLanguage(
        lang="ja", name="Japanese", step="Japanese CR",
        files=japanese_cr_files,          # corpus -> [CorpusFile]
        read=read_japanese_release,       # (path, relative) -> records (Release, Rule, ..., IngestProblem)
        corpus_path=lambda release: f"cr/ja/JPN_CR_{release}.txt",
    ))

Every module of :mod:`kb.load` is imported on first use, so a new language's
module is found without touching this one. The build step that loads the
language (``step``) must then add a file it has not loaded yet when it runs
with ``ctx.mode == "add"`` (its ``on_add`` in :func:`kb.build.steps`).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .corpus import CorpusFile


@dataclass(frozen=True)
class CRLanguage:
    """How the build finds, reads and files the CR releases of one language."""

    lang: str
    name: str
    step: str
    files: Callable[[Path], list[CorpusFile]]
    read: Callable[[Path, str], Iterable[object]]
    corpus_path: Callable[[str], str]


_LANGUAGES: dict[str, CRLanguage] = {}
_LOADED = False


def register_language(language: CRLanguage) -> None:
    """Called by a load module when it is imported; registering a language twice replaces it."""
    _LANGUAGES[language.lang] = language


def languages() -> dict[str, CRLanguage]:
    """Every registered language by code (``en``, ``ja``, ...), after importing every load module."""
    global _LOADED
    if not _LOADED:
        from . import load

        for module in pkgutil.iter_modules(load.__path__):
            importlib.import_module(f"{load.__name__}.{module.name}")
        _LOADED = True
    return dict(sorted(_LANGUAGES.items()))


def language_of(corpus: Path, relative: str) -> str | None:
    """The language whose CR release the corpus file ``relative`` is, or None."""
    for lang, language in languages().items():
        if any(f.relative == relative for f in language.files(corpus)):
            return lang
    return None
