"""One segmenter per language: how a query in that language becomes words to search for.

SQLite's tokenizers split English on spaces and punctuation; Japanese (and
Chinese, Korean) need a segmenter of their own, on both sides: the build stores
each text's *search form* and the query is read the same way. A segmenter is a
module (or any object) with:

- ``search_form(text) -> str``: the words of a text, space-separated, as the
  index stores them (the build calls it);
- ``segment_query(query) -> list[str]``: the phrases of a query, each a run of
  words that must be adjacent (what the strict table search box requires);
- ``content_words(query) -> list[str]``: the words worth looking for, by part
  of speech (no particles, auxiliaries, pronouns or question forms): what the
  relaxed search ORs together.

:data:`SEGMENTERS` maps a language to the module that holds its segmenter, and
:func:`detect` says which segmenter a chunk of a query belongs to, by script.
Another language slots in with :func:`register` (the order of registration
decides between scripts two languages share: kana make a chunk Japanese, Han
characters alone go to the first language registered for them).

>>> detect("発見"), detect("discover"), detect("呪禁は")
('ja', None, 'ja')
>>> segmenter("ja").content_words("呪禁は何を防ぐ？")
['呪禁', '防ぐ']
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Callable, Protocol


class Segmenter(Protocol):
    def search_form(self, text: str) -> str: ...

    def segment_query(self, query: str) -> list[str]: ...

    def content_words(self, query: str) -> list[str]: ...


@dataclass(frozen=True)
class _Entry:
    module: str
    detects: Callable[[str], bool]


_KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]")

SEGMENTERS: dict[str, _Entry] = {}


def register(lang: str, module: str, detects: Callable[[str], bool]) -> None:
    """Use ``module`` (imported when first needed) for text that ``detects`` accepts."""
    SEGMENTERS[lang] = _Entry(module, detects)


register("ja", "kb.japanese", lambda text: bool(_JAPANESE.search(text)))


def detect(chunk: str) -> str | None:
    """The language whose segmenter reads ``chunk``, or None for English (split on spaces)."""
    if _KANA.search(chunk) and "ja" in SEGMENTERS:
        return "ja"
    return next((lang for lang, entry in SEGMENTERS.items() if entry.detects(chunk)), None)


def segmenter(lang: str) -> Segmenter:
    """The segmenter module of ``lang``."""
    return importlib.import_module(SEGMENTERS[lang].module)  # type: ignore[return-value]
