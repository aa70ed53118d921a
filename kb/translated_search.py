"""Search in Chinese and Korean, and across languages through keyword names.

:mod:`kb.search` searches English and Japanese; this module gives it what the
Chinese and Korean rows need: the FTS5 expression of a query for the text of
one of those languages (:meth:`TranslatedQuery.expression_for`), and, for a
Chinese or Korean query, the English keyword names it contains
(:attr:`TranslatedQuery.english`), which the English and Japanese search then
use (``倾探`` finds Discover and 発見, ``찾기`` finds Search).

Which language a query chunk is in: Hangul is Korean; kana is Japanese; Han
characters alone may be Chinese or Japanese, so they are read both ways.
Each language's words come from its own segmenter (:mod:`kb.chinese`,
:mod:`kb.korean`), as the build segmented the text.

Names come from ``keyword_translations`` (the 701/702 headings and glossary
terms, paired with English within a release).

>>> names = TranslatedNames([("zh", "discover", "倾 探", "倾 探"), ("ko", "search", "찾기", "찾다")])
>>> q = TranslatedQuery("倾探", names)
>>> q.english, q.expression_for("zh")
('discover', '("倾 探")')
>>> TranslatedQuery("search", names).expression_for("ko")
'("찾다")'
"""

from __future__ import annotations

import os
import re
from importlib import import_module
from typing import Iterable

import sqlite_utils

LANGUAGES = ("zh", "ko")
_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
_KANA = re.compile("[\u3040-\u30ff\uff66-\uff9f]")
_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff]")
_EN_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")


def segmenter(lang: str):
    """The segmenter module of ``lang``: :mod:`kb.chinese`, :mod:`kb.korean`."""
    return import_module({"zh": "kb.chinese", "ko": "kb.korean"}[lang])


def chunk_languages(chunk: str) -> set[str]:
    """The languages a query chunk may be in.

    >>> sorted(chunk_languages("倾探")), sorted(chunk_languages("発見する")), chunk_languages("찾기")
    (['ja', 'zh'], ['ja'], {'ko'})
    """
    if _HANGUL.search(chunk):
        return {"ko"}
    if _KANA.search(chunk):
        return {"ja"}
    if _HAN.search(chunk):
        return {"zh", "ja"}
    return {"en"}


def _stems(words: Iterable[str]) -> tuple[str, ...]:
    return tuple(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


class TranslatedNames:
    """Chinese and Korean ↔ English names, each ``(lang, key_en, key, match)`` as in ``keyword_translations``."""

    def __init__(self, rows: Iterable[tuple[str, str, str, str]]):
        self.by_name: dict[tuple[str, tuple[str, ...]], set[str]] = {}
        self.by_english: dict[tuple[str, tuple[str, ...]], set[str]] = {}
        for lang, key_en, key, match in rows:
            if not key_en or not key or not match:
                continue
            runs = tuple(match.split("|"))
            self.by_name.setdefault((lang, runs), set()).add(key_en)
            phrase = runs[0] if len(runs) == 1 else key
            self.by_english.setdefault((lang, _stems(key_en.split())), set()).add(phrase)

    @classmethod
    def from_db(cls, db: sqlite_utils.Database) -> "TranslatedNames":
        """The names in ``db`` (none without a ``keyword_translations`` table), cached per file."""
        path = next((row[2] for row in db.execute("pragma database_list") if row[1] == "main"), "")
        stamp = os.stat(path).st_mtime_ns if path and os.path.exists(path) else None
        cached = _CACHE.get(path)
        if cached and cached[0] == stamp:
            return cached[1]
        if db.execute("select 1 from sqlite_master where name = 'keyword_translations'").fetchone():
            names = cls(db.execute("select lang, key_en, key, match from keyword_translations").fetchall())
        else:
            names = cls([])
        if path:
            _CACHE[path] = (stamp, names)
        return names


_CACHE: dict[str, tuple[int | None, TranslatedNames]] = {}


def _quoted(phrase: str) -> str:
    return '"' + phrase.replace('"', "").strip() + '"'


class TranslatedQuery:
    """A query read for the Chinese and Korean text (see the module docstring)."""

    def __init__(self, query: str, names: TranslatedNames):
        self.query = query
        self.names = names
        self.chunks = [(chunk, chunk_languages(chunk)) for chunk in query.split()]
        self.english = self._english()

    def runs(self, chunk: str, lang: str) -> list[str]:
        return segmenter(lang).segment_query(chunk)

    def _english(self) -> str | None:
        """The query in English keyword names, when it is Chinese or Korean and every part is a name."""
        out = []
        for chunk, langs in self.chunks:
            if "en" in langs:
                out.append(chunk)
                continue
            found = None
            for lang in ("ko", "zh"):
                if lang in langs:
                    key = tuple(self.runs(chunk, lang))
                    found = found or sorted(self.names.by_name.get((lang, key), ()))[:1]
            if not found:
                return None
            out.append(found[0])
        return " ".join(out) if any("en" not in langs for _, langs in self.chunks) else None

    def groups_for(self, lang: str) -> list[list[str]] | None:
        """Alternatives (each an FTS5 phrase) that must all match text in ``lang``; None: cannot match."""
        module = segmenter(lang)
        groups: list[list[str]] = []
        for chunk, langs in self.chunks:
            if lang in langs:
                for run in module.segment_query(chunk):
                    alternatives = getattr(module, "phrase_alternatives", lambda p: [p])(run)
                    groups.append(alternatives)
                continue
            words = _EN_WORD.findall(chunk.lower()) if "en" in langs else []
            if words:
                phrases = self.names.by_english.get((lang, _stems(words)))
                if phrases:
                    groups.append(sorted(phrases))
                else:
                    groups.extend([w] for w in words)
                continue
            return None  # another language's words: not searchable in this one
        return groups

    def expression_for(self, lang: str) -> str:
        """The FTS5 MATCH expression for text in ``lang`` (empty: nothing to search)."""
        groups = self.groups_for(lang)
        if not groups:
            return ""
        parts = ["(" + " OR ".join(_quoted(p) for p in dict.fromkeys(g) if p.strip()) + ")" for g in groups]
        return " AND ".join(parts)

    def content_keys(self, lang: str) -> set[str]:
        """The words a snippet of a ``lang`` hit marks."""
        module = segmenter(lang)
        keys: set[str] = set()
        for group in self.groups_for(lang) or []:
            for phrase in group:
                keys.update(module.content_keys(phrase.replace(" ", "") if lang == "zh" else phrase))
        return keys
