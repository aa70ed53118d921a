"""Decide which rules a ruling applies: :class:`Linker`.

Evidence, strongest first:

1. **cited** — the ruling names a rule number (``See rule 701.55c``,
   ``rule 608.2b 参照``): read in the release the ruling was written for, then
   followed through the lineage to the newest release. Score 1.
2. **keyword+similarity** — the ruling's page is a keyword's page, its card has
   the keyword (``Dredge 3``, ``it explores``), or the ruling itself names one:
   the rules under that keyword are the likeliest candidates, and the most
   similar of them wins when it is similar enough (a bonus on the similarity).
3. **similarity** — otherwise the rule most similar to the ruling over the
   whole newest release, when it is very similar.

The best candidate is linked when its score reaches :data:`THRESHOLD`; others
as similar in their own right (:data:`SECOND_RATIO` of its similarity, with
as much keyword evidence, and above the threshold) are linked too, up to :data:`MAX_LINKS`. Below the threshold nothing is linked and
the best candidate is kept to say how close it came. The numbers were set on
the "tune" half of ``data/ruling_labels.toml`` (see bench/bench_ruling_links.py).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from ingest.rule_refs import find_citations

from .index import Keyword, RuleIndex
from .similarity import LexicalSimilarity, Similarity

THRESHOLD = 0.35
# A candidate under a keyword of the ruling's page or card, and one the ruling itself names.
CONTEXT_BONUS = 0.40
MENTION_BONUS = 0.10
# Generic keyword actions (cast, exile, sacrifice) name a subject too weakly for a bonus of their own.
GENERIC_FACTOR = 0.3
SECOND_RATIO = 1.0  # one link each: a second, even as similar, was more often wrong (tune half)
# The first subrule of a keyword is its definition: a ruling about the keyword applies it unless
# another of its subrules says more precisely what the ruling is about.
DEFINITION_PRIOR = 0.2
MAX_LINKS = 3


@dataclass(frozen=True)
class Ruling:
    """A ruling to link: its text, language and what narrows it."""

    text: str
    lang: str  # "en" or "ja"
    search_ja: str | None = None  # the Japanese search form (kb.japanese.search_form)
    keywords: tuple[str, ...] = ()  # English keyword titles of its page or card
    cite_in: tuple[tuple[str, str], ...] = ()  # (lang, release) to read cited numbers in, in order
    # a card's keywords narrow only the rulings that name them (a card's other rulings are about
    # its other text); a keyword page's keyword narrows every ruling on the page
    keywords_if_named: bool = False


@dataclass(frozen=True)
class Link:
    lineage_id: int
    number: str  # in the newest release
    how: str  # cited, keyword+similarity, similarity
    score: float
    similarity: float | None
    cited: str | None = None  # the number as cited


@dataclass
class Decision:
    links: list[Link] = field(default_factory=list)
    best: tuple[str, float] | None = None  # the best candidate (number, score), linked or not
    unresolved: list[str] = field(default_factory=list)  # cited numbers no release has


class Linker:
    def __init__(self, index: RuleIndex, similarity: Similarity | None = None, *,
                 threshold: float = THRESHOLD, context_bonus: float = CONTEXT_BONUS,
                 mention_bonus: float = MENTION_BONUS, second_ratio: float = SECOND_RATIO, margin: float = 0.0):
        self.index = index
        self.similarity = similarity or LexicalSimilarity(index)
        self.threshold, self.context_bonus, self.mention_bonus = threshold, context_bonus, mention_bonus
        self.second_ratio = second_ratio
        self.margin = margin
        self._recent: dict[tuple[str, str], dict[int, float]] = {}

    def _similar(self, ruling: Ruling) -> dict[int, float]:
        """The similarity of a text, kept for the texts seen lately (one text, many cards)."""
        key = (ruling.text, ruling.lang)
        found = self._recent.get(key)
        if found is None:
            found = self.similarity.scores(ruling)
            if len(self._recent) > 4096:
                self._recent.clear()
            self._recent[key] = found
        return found

    @staticmethod
    def _best(similar, bonus: dict[int, float]) -> list[tuple[float, float, int]]:
        """The MAX_LINKS best (score, similarity, doc) by similarity plus bonus."""
        if isinstance(similar, dict):
            return heapq.nlargest(MAX_LINKS, ((s + bonus.get(i, 0.0), s, i) for i, s in similar.items()))
        import numpy as np

        indexes, values = similar
        if len(values) > MAX_LINKS:
            top = np.argpartition(values, -MAX_LINKS)[-MAX_LINKS:]
        else:
            top = np.arange(len(values))
        candidates = {int(indexes[k]): float(values[k]) for k in top}
        if bonus:
            wanted = np.fromiter(bonus, dtype=indexes.dtype if len(indexes) else np.int64)
            where = np.searchsorted(indexes, wanted)
            for doc, w in zip(wanted.tolist(), where.tolist()):
                if w < len(indexes) and indexes[w] == doc:  # a rule sharing no word gets no bonus
                    candidates.setdefault(doc, float(values[w]))
        return heapq.nlargest(MAX_LINKS, ((s + bonus.get(i, 0.0), s, i) for i, s in candidates.items()))

    def context_keywords(self, names: tuple[str, ...]) -> list[Keyword]:
        return [k for k in (self.index.keyword(n) for n in names) if k is not None]

    def mentioned_keywords(self, ruling: Ruling) -> list[Keyword]:
        if ruling.lang == "ja":
            return self.index.keywords_in_japanese(ruling.text)
        return self.index.keywords_in_english(ruling.text)

    def _cited(self, ruling: Ruling, decision: Decision) -> list[Link]:
        links: list[Link] = []
        for citation in find_citations(ruling.text):
            if citation.kind != "rule":
                continue
            lineage = None
            for lang, release in (*ruling.cite_in, ("en", self.index.release_en)):
                lineage = self.index.lineage_of(lang, release, citation.number)
                if lineage is not None:
                    break
            doc = self.index.by_lineage.get(lineage) if lineage is not None else None
            if doc is None:
                # a numbered rule without text (701.23) or a number no release has
                newest = self.index.numbers_in("en", self.index.release_en).get(lineage) if lineage else None
                if newest is None:
                    decision.unresolved.append(citation.number)
                    continue
                links.append(Link(lineage, newest, "cited", 1.0, None, citation.number))
                continue
            links.append(Link(lineage, self.index.docs[doc].number, "cited", 1.0, None, citation.number))
        return links

    def link_many(self, rulings: list[Ruling], batch: int = 2000) -> list[Decision]:
        """Decide many rulings, computing their similarities together where the similarity can."""
        many = getattr(self.similarity, "scores_many", None)
        out: list[Decision] = []
        for start in range(0, len(rulings), batch):
            part = rulings[start:start + batch]
            similarities = many(part) if many else [None] * len(part)
            out += [self.link(r, similar=s) for r, s in zip(part, similarities)]
        return out

    def link(self, ruling: Ruling, *, similar=None) -> Decision:
        """Decide one ruling; ``similar`` is its similarity if already computed (``{doc: score}``, or
        ``(doc indexes, scores)`` arrays sorted by doc index)."""
        decision = Decision()
        cited = self._cited(ruling, decision)
        context = self.context_keywords(ruling.keywords)
        mentioned = self.mentioned_keywords(ruling)
        if ruling.keywords_if_named:
            context = [k for k in context if k in mentioned]
        bonus: dict[int, float] = {}
        for kw in mentioned:
            factor = GENERIC_FACTOR if kw.generic else 1.0
            for i in kw.members:
                bonus[i] = max(bonus.get(i, 0.0), self.mention_bonus * factor)
        for kw in context:
            factor = GENERIC_FACTOR if kw.generic else 1.0
            for k, i in enumerate(kw.members):
                prior = DEFINITION_PRIOR if k == 0 else 0.0
                bonus[i] = max(bonus.get(i, 0.0), self.context_bonus * factor + prior)
        scored = self._best(similar if similar is not None else self._similar(ruling), bonus)
        links = list(cited)
        seen = {link.lineage_id for link in links}
        if scored:
            top, top_similarity = scored[0][0], scored[0][1]
            decision.best = (self.index.docs[scored[0][2]].number, round(top, 3))
            if len(scored) > 1 and top - scored[1][0] < self.margin:
                scored = []  # two rules almost as likely: better no link than a coin toss
            for rank, (score, s, i) in enumerate(scored):
                # the best, and others only when they are as similar in their own right
                if score < self.threshold or (rank and (s < top_similarity * self.second_ratio
                                                        or bonus.get(i, 0.0) < bonus.get(scored[0][2], 0.0))):
                    break
                doc = self.index.docs[i]
                if doc.lineage_id in seen:
                    continue
                seen.add(doc.lineage_id)
                how = "keyword+similarity" if bonus.get(i) else "similarity"
                links.append(Link(doc.lineage_id, doc.number, how, round(min(score, 1.0), 3), round(s, 3)))
        decision.links = links
        return decision
