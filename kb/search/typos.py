"""Typos: an unknown word corrected against the index's own vocabulary.

The build indexes the words of the default search, unstemmed, in a
contentless FTS5 table ``search_words`` and exposes its vocabulary with
``fts5vocab`` (``search_words_vocab``: term, doc). A query word is *known*
when the vocabulary has it or the stemmed index matches it ("stopping" is
found as "stop"); an unknown word is corrected to the most common word of the
vocabulary within one edit (two for words of eight letters or more;
Damerau-Levenshtein, so a swap of two letters is one edit) with rapidfuzz.
Queries are NFKC-normalised before (:func:`kb.search.numbers.normalize_query`),
so half-width katakana (ﾄﾗﾝﾌﾟﾙ) are already the full-width words of the index.
"""

from __future__ import annotations

import os
import re
import threading

_LATIN = re.compile(r"^[a-z][a-z'’-]*$")
_KATAKANA = re.compile(r"^[\u30a0-\u30ff]+$")

_CACHE: dict[str, tuple[int | None, "Vocabulary"]] = {}
_CACHE_LOCK = threading.Lock()


class Vocabulary:
    """The words of the index by language (``en`` for Latin words, ``ja`` for the rest)."""

    def __init__(self, terms: list[tuple[str, int]]):
        self.docs: dict[str, int] = {}
        self.by_lang: dict[str, list[str]] = {"en": [], "ja": []}
        for term, doc in terms:
            self.docs[term] = doc
            self.by_lang["en" if _LATIN.match(term) else "ja"].append(term)

    @classmethod
    def from_db(cls, conn) -> "Vocabulary | None":
        """The vocabulary of the database ``conn`` is open on (None when it has none), cached per file."""
        row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
        path = row[2] if row else ""
        stamp = os.stat(path).st_mtime_ns if path and os.path.exists(path) else None
        with _CACHE_LOCK:
            cached = _CACHE.get(path) if path else None
            if cached and cached[0] == stamp:
                return cached[1]
        if not conn.execute("select 1 from sqlite_master where name = 'search_words_vocab'").fetchone():
            return None
        vocabulary = cls(conn.execute("select term, doc from search_words_vocab").fetchall())
        if path:
            with _CACHE_LOCK:
                _CACHE[path] = (stamp, vocabulary)
        return vocabulary

    def knows(self, word: str, lang: str, conn=None) -> bool:
        if word in self.docs or not (_LATIN.match(word) or _KATAKANA.match(word)):
            return True  # numbers, kanji and mixed words are never "corrected"
        if conn is not None and lang == "en":
            # The stemmed index knows inflections the unstemmed vocabulary lacks.
            try:
                return conn.execute("select 1 from search_current_fts where search_current_fts match ? limit 1",
                                    ['"' + word.replace('"', "") + '"']).fetchone() is not None
            except Exception:  # noqa: BLE001 - a database without the index: unknown
                return False
        return False

    def nearest_name(self, word: str, names) -> str | None:
        """The keyword name ``word`` misspells when the stemmer hides it: "indestructable" stems
        as "indestructible" does, so the index knows it, but a name is matched as typed; None
        when no one-word name is within the edit limit of :meth:`correct`, or ``word`` is a
        word of the rules as typed.

        >>> Vocabulary([("indestructible", 9)]).nearest_name("indestructable", ["indestructible", "flash"])
        'indestructible'
        >>> Vocabulary([("flashed", 2)]).nearest_name("flashed", ["flash"]) is None
        True
        """
        from rapidfuzz import process
        from rapidfuzz.distance import DamerauLevenshtein

        if len(word) < 6 or word in self.docs or not _LATIN.match(word):
            return None
        limit = 1 if len(word) < 8 else 2
        found = process.extract(word, list(names), scorer=DamerauLevenshtein.distance, score_cutoff=limit, limit=5)
        best = min((d for _, d, _ in found), default=None)
        nearest = sorted(c for c, d, _ in found if d == best)
        return nearest[0] if len(nearest) == 1 and nearest[0] != word else None

    def correct(self, word: str, lang: str) -> str | None:
        """The word of the vocabulary ``word`` most likely stands for, or None."""
        from rapidfuzz import process
        from rapidfuzz.distance import DamerauLevenshtein

        if len(word) < 4 or (not _LATIN.match(word) and len(word) < 5):
            return None
        limit = 1 if len(word) < 8 else 2
        choices = self.by_lang.get("en" if _LATIN.match(word) else "ja", [])
        found = process.extract(word, choices, scorer=DamerauLevenshtein.distance, score_cutoff=limit,
                                limit=20)
        if not found:
            return None
        best = min(d for _, d, _ in found)
        # Of the nearest, the commonest word of the rules.
        return max((c for c, d, _ in found if d == best), key=lambda c: self.docs.get(c, 0))
