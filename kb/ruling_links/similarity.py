"""How alike a ruling and each rule are: the seam where dense retrieval can plug in.

A similarity is anything with ``name`` and ``scores(ruling) -> {doc index: score in [0, 1]}``
over the documents of a :class:`~kb.ruling_links.index.RuleIndex`. The linker
only ever calls that, so a dense multilingual model (the search issue's
``kb.search`` vectors) can replace or join :class:`LexicalSimilarity` by
passing another object to :class:`~kb.ruling_links.linker.Linker`, or be
mixed with it by :class:`Blend`.

:class:`LexicalSimilarity` compares words: an English ruling against the
English text of each rule; a Japanese ruling against the Japanese text (the
newest whole Japanese release, paired through the lineage) and, translated
word by word through the CR glossary's term pairs and the keyword titles
(``glossary_pairs``: 墓地 → graveyard), against the English text too, so a rule
the Japanese CR lacks (new since its release) can still be found.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Protocol

from .index import RuleIndex
from .text import japanese_terms, with_pairs


class RulingText(Protocol):
    text: str
    lang: str
    search_ja: str | None


class Similarity(Protocol):
    """``scores`` for one ruling; a similarity may also have ``scores_many(rulings)`` returning, per
    ruling, ``(doc indexes, scores)`` arrays (or a dict), which the linker uses for many at once."""

    name: str

    def scores(self, ruling: RulingText) -> dict[int, float]: ...


# A Japanese ruling's words translated to English find rules less surely than its own words.
TRANSLATED_WEIGHT = 0.8


class LexicalSimilarity:
    """TF-IDF cosine, within a language and across it through the glossary (see the module docstring)."""

    name = "lexical"

    def __init__(self, index: RuleIndex):
        self.index = index
        self.ja_to_en = self._dictionary()

    def _dictionary(self) -> dict[str, list[str]]:
        """Japanese key → English stems, from glossary term pairs and keyword titles of one key."""
        from kb.japanese import search_form

        conn, out = self.index.conn, defaultdict(list)
        pairs = []
        if self.index.release_ja and "glossary_pairs" in {r[0] for r in conn.execute(
                "select name from sqlite_master where type in ('table', 'view')")}:
            pairs = conn.execute("select term_ja, term_en from glossary_pairs where release = ?",
                                 [self.index.release_ja]).fetchall()
        pairs += [(k.name_ja, k.title) for k in self.index.keywords.values() if k.name_ja]
        for term_ja, term_en in pairs:
            if not term_ja or not term_en:
                continue
            keys = japanese_terms(search_form(term_ja))
            stems = self.index.functions.english_terms(term_en)
            if len(keys) == 1 and stems:
                for s in stems:
                    if s not in out[keys[0]]:
                        out[keys[0]].append(s)
        return dict(out)

    def translate(self, search_ja: str) -> list[str]:
        return [s for key in japanese_terms(search_ja) for s in self.ja_to_en.get(key, ())]

    def scores_many(self, rulings: list[RulingText]) -> list:
        """Per ruling, ``(doc indexes, scores)`` arrays for English rulings (one matrix product for
        all of them), a dict for Japanese ones."""
        english = [k for k, r in enumerate(rulings) if r.lang != "ja"]
        terms = self.index.functions.english_terms
        product = self.index.en.scores_many([with_pairs(terms(rulings[k].text)) for k in english])
        out: list = [None] * len(rulings)
        if product is None:
            return [self.scores(r) for r in rulings]
        for row, k in enumerate(english):
            start, end = product.indptr[row], product.indptr[row + 1]
            out[k] = (product.indices[start:end], product.data[start:end])
        for k, r in enumerate(rulings):
            if out[k] is None:
                out[k] = self.scores(r)
        return out

    def scores(self, ruling: RulingText) -> dict[int, float]:
        if ruling.lang != "ja":
            return self.index.en.scores(with_pairs(self.index.functions.english_terms(ruling.text)))
        form = ruling.search_ja or ""
        own = self.index.ja.scores(with_pairs(japanese_terms(form)))
        translated = self.index.en.scores(self.translate(form))
        out = dict(own)
        for i, s in translated.items():
            s *= TRANSLATED_WEIGHT
            if s > out.get(i, 0.0):
                out[i] = s
        return out


class Blend:
    """A weighted mix of similarities (lexical with dense, say): the weighted mean of their scores."""

    def __init__(self, parts: list[tuple[Similarity, float]]):
        self.parts = parts
        self.name = "+".join(p.name for p, _ in parts)

    def scores(self, ruling: RulingText) -> dict[int, float]:
        total = sum(w for _, w in self.parts) or 1.0
        out: dict[int, float] = defaultdict(float)
        for part, weight in self.parts:
            for i, s in part.scores(ruling).items():
                out[i] += s * weight / total
        return dict(out)
