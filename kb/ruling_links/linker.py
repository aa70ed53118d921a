"""Decide which rules a ruling applies: :class:`Linker`.

Evidence, strongest first:

1. **cited** — the ruling names a rule number (``See rule 701.55c``,
   ``rule 608.2b 参照``): read in the release the ruling was written for, then
   followed through the lineage to the newest release. Score 1.
2. **template** — a card ruling in one of the recurring wordings that restate one rule
   (:data:`kb.ruling_links.topics.TEMPLATES`: "… is an illegal target …" is 608.2b).
   Score :data:`TEMPLATE_SCORE`.
3. **keyword+similarity** — the ruling's page is a keyword's page (every ruling on it), or its
   card has the keyword (``Dredge 3``, ``it explores``): the keyword's subrule most similar to
   the ruling, when it is similar enough and clearly ahead of the keyword's other subrules
   (the *best* subrule, not its neighbours); on a keyword's own page, a ruling no subrule stands
   out for applies the keyword's definition, and so does a card ruling naming the keyword
   when the definition is its most similar rule (:data:`DEFINITION_MUST_LEAD`). A page about
   no keyword (Treasure) is narrowed to the rules naming its subject. A rule outside the
   keyword that is far more similar wins instead (a card's ruling is often about its other text).
4. **topic+similarity** — a card ruling naming a general topic (targets, a trigger, tokens …:
   :data:`kb.ruling_links.topics.TOPICS`): the topic's rule most similar to the ruling, when
   similar enough (:data:`TOPIC_MIN`, less when the card's text has the topic too) and ahead of
   the next; it beats the keyword's definition when more similar than the keyword's best rule.
5. **similarity** — otherwise the rule most similar to the ruling over the whole newest
   release, when it is very similar (:data:`THRESHOLD`) and clearly ahead of the next.

At most one link by similarity: a second, even as similar, was more often wrong. A ruling
for which none of this holds gets no link (the build lists it in ``kb problems``); the
best candidate is kept to say how close it came. Precision comes first: no link rather
than a wrong one. The numbers were set on the "tune" half of ``data/ruling_labels.toml``
only (see bench/bench_ruling_links.py, which reports the frozen half apart).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from ingest.rule_refs import find_citations

from .functions import TextFunctions
from .index import Keyword, RuleIndex
from .similarity import LexicalSimilarity, Similarity

# Set on the "tune" half of the labels only (bench/bench_ruling_links.py prints both halves).
KEYWORD_MIN = 0.15  # a keyword's subrule: as similar as this to be chosen on its own
KEYWORD_MARGIN = 0.10  # ... and this far ahead of the keyword's next subrule
KEYWORD_MARGIN_NAMED = 0.05  # ... or this far, when the ruling names the keyword itself
DEFINITION_MIN = 0.05  # on a keyword's page, its definition when no subrule stands out
THRESHOLD = 0.40  # a rule found by similarity alone (outside any keyword of the ruling's)
SIMILARITY_MARGIN = 0.15  # ... this far ahead of the next
OUTSIDE_RATIO = 2.0  # a rule outside the keyword beats the keyword's when this many times as similar
CONTEXT_BONUS = 0.40  # a keyword link's score: its similarity plus this
TOP_K = 5  # the most similar rules looked at outside the keyword
TOPIC_MIN = 0.30  # a rule of a topic the ruling names (kb.ruling_links.topics): as similar as this
TOPIC_MIN_CONFIRMED = 0.30  # ... when the card's own text has the topic too
TOPIC_MARGIN = 0.03  # ... and this far ahead of the topics' next rule
TOPIC_BONUS = 0.25  # a topic link's score: its similarity plus this
DEFINITION_UNLESS_TOPIC_CHOSEN = True  # ... when a general topic's rule was not chosen (else: when none is named)
DEFINITION_MUST_LEAD = True  # a card ruling gets its keyword's definition only when that is its best subrule
# a keyword page's ruling gets the keyword's definition only when the definition is about as similar
# to it as the keyword's most similar subrule: a ruling far nearer another subrule (701.23b on 探す)
# is about that subrule, and the definition would be a wrong link (precision before coverage)
PAGE_DEFINITION_SHARE = 0.75
TEMPLATES_ON_WIKI = True  # wiki rulings (English, and Japanese by JA_TEMPLATES) are read for templates too
TEMPLATE_SCORE = 0.9  # a link by a ruling template (kb.ruling_links.topics.TEMPLATES)
TOPIC_OVER_KEYWORD = 1.5  # a topic's rule beats its keyword's clearly best subrule when this many times as similar
NAMED_AS_CONTEXT = True  # a card ruling of a card with no keyword: the keywords the ruling names narrow it
NAMED_NARROW = True  # ... and one of a card with several keywords that names some of them is narrowed to those
# a wiki ruling whose page gives no keyword (a diff view cut above the page's lead, a page whose name was not
# read): whether the keywords the ruling names narrow it, as a card's with none. Off: on round 8's unseen pages
# (諜報's diff view) it linked 7 more rulings, 2 right (the Japanese words put 701.25c first for 701.25d)
WIKI_NAMED_AS_CONTEXT = False
MAX_LINKS = 3  # kept for callers; one link each by similarity (a second was more often wrong)


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
    # whether a ruling no subrule of its keyword stands out for applies the keyword's definition: on
    # the keyword's own wiki page it does; a card's ruling is as often about the card's other text
    definition_fallback: bool = True
    # the general rules' topics its card can meet (kb.ruling_links.topics.card_topics); with
    # ``use_topics``, a ruling naming a topic has that topic's rules as candidates too
    card_topics: frozenset[str] = frozenset()
    use_topics: bool = False
    # what its page is about when that is no keyword (Treasure): the rules naming it narrow it instead
    subjects: tuple[str, ...] = ()
    # a ruling that names its card's keyword and no general rule's topic applies the keyword's
    # definition when no subrule stands out (kb.ruling_links.topics)
    definition_if_named: bool = False


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
                 threshold: float | None = None, context_bonus: float = CONTEXT_BONUS,
                 functions: TextFunctions | None = None):
        self.index = index
        self.functions = functions or index.functions  # the functions of a text it calls (kb.ruling_links.functions)
        self.similarity = similarity or LexicalSimilarity(index)
        self.threshold = THRESHOLD if threshold is None else threshold
        self.context_bonus = context_bonus
        self._recent: dict[tuple[str, str], dict[int, float]] = {}
        self._topic_cache: dict[tuple, dict[int, bool]] = {}

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

    def context_keywords(self, names: tuple[str, ...], subjects: tuple[str, ...] = ()) -> list[Keyword]:
        found = [k for k in (self.index.keyword(n) for n in names) if k is not None]
        if not found:  # a page about no keyword (宝物/Treasure): the few rules that name its subject
            found = [k for k in (self.index.subject(n) for n in subjects) if k is not None]
        return found

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

    def _view(self, similar, members: set[int], k: int) -> tuple[list[tuple[float, int]], dict[int, float]]:
        """The ``k`` most similar rules overall, (similarity, doc) best first, and the similarity of each of
        ``members`` (0 for a rule sharing no word), from either form of ``similar``."""
        if isinstance(similar, dict):
            top = heapq.nlargest(k, ((s, i) for i, s in similar.items()))
            return top, {i: similar.get(i, 0.0) for i in members}
        import numpy as np

        indexes, values = similar
        if len(values) > k:
            chosen = np.argpartition(values, -k)[-k:]
        else:
            chosen = np.arange(len(values))
        top = sorted(((float(values[j]), int(indexes[j])) for j in chosen), reverse=True)
        of_members = dict.fromkeys(members, 0.0)
        if members:
            wanted = np.fromiter(members, dtype=indexes.dtype if len(indexes) else np.int64)
            where = np.searchsorted(indexes, wanted)
            for doc, w in zip(wanted.tolist(), where.tolist()):
                if w < len(indexes) and indexes[w] == doc:
                    of_members[doc] = float(values[w])
        return top, of_members

    def _topic_docs(self, ruling: Ruling, members: set[int]) -> dict[int, float]:
        """The rules of the topics an English ruling names (outside its keywords' ``members``), each
        with the similarity it needs to be chosen: less when its card's text has the topic too, more
        for a CR section's topic (kb.ruling_links.topics)."""
        if not ruling.use_topics or ruling.lang == "ja":
            return {}
        topics = self.functions.ruling_topics(ruling.text)
        if not topics:
            return {}
        key = (topics, frozenset(t.name for t in topics) & ruling.card_topics, frozenset(members))
        found = self._topic_cache.get(key)
        if found is None:
            found = {}
            for topic in topics:
                need = topic.min_similarity if topic.min_similarity is not None else (
                    TOPIC_MIN_CONFIRMED if topic.name in ruling.card_topics else TOPIC_MIN)
                for i in self.index.topic_members(topic):
                    if i not in members:
                        found[i] = min(found.get(i, need), need)
            if len(self._topic_cache) > 4096:
                self._topic_cache.clear()
            self._topic_cache[key] = found
        return found

    def _topic_choice(self, of_topics: dict[int, float], need: dict[int, float]):
        """The topics' rule most similar to the ruling, when similar enough and ahead of the next: first
        among the general topics' rules, then (when none is) among the CR sections' (which ask more)."""
        general = {i: s for i, s in of_topics.items() if need[i] <= TOPIC_MIN}
        for group in (general, {i: s for i, s in of_topics.items() if i not in general}):
            if not group:
                continue
            ranked = sorted(((s, i) for i, s in group.items()), reverse=True)
            t1, ti = ranked[0]
            t2 = ranked[1][0] if len(ranked) > 1 else 0.0
            if t1 >= need[ti] and t1 - t2 >= TOPIC_MARGIN:
                return (ti, "topic+similarity", t1 + TOPIC_BONUS, t1)
        return None

    def link(self, ruling: Ruling, *, similar=None) -> Decision:
        """Decide one ruling; ``similar`` is its similarity if already computed (``{doc: score}``, or
        ``(doc indexes, scores)`` arrays sorted by doc index).

        The choice, once cited numbers are taken:

        - with a keyword in context (the page's keyword; the card's, when the ruling names it): the
          keyword's subrule most similar to the ruling, when it is similar enough
          (:data:`KEYWORD_MIN`) and clearly ahead of the keyword's next subrule
          (:data:`KEYWORD_MARGIN`); on a keyword's own page, a ruling no subrule stands out for
          applies the keyword's definition (its first subrule) when it is at least a little like it
          (:data:`DEFINITION_MIN`); a rule outside the keyword wins instead when it is far more
          similar (:data:`OUTSIDE_RATIO`, :data:`THRESHOLD`);
        - otherwise the most similar rule of the whole release, when it is very similar
          (:data:`THRESHOLD`) and clearly ahead of the next (:data:`SIMILARITY_MARGIN`).
        """
        decision = Decision()
        cited = self._cited(ruling, decision)
        context = [k for k in self.context_keywords(ruling.keywords, ruling.subjects) if not k.generic]
        if not context and ((NAMED_AS_CONTEXT and ruling.use_topics) or (
                WIKI_NAMED_AS_CONTEXT and not ruling.use_topics and not ruling.keywords_if_named)):
            context = [k for k in self.mentioned_keywords(ruling) if not k.generic]
        elif NAMED_NARROW and ruling.use_topics and len(context) > 1:
            # a card with several keywords (Search and Shuffle): a ruling naming some of them is about those
            named = [k for k in context if k in self.mentioned_keywords(ruling)]
            if named:
                context = named
        if ruling.keywords_if_named:
            mentioned = self.mentioned_keywords(ruling)
            context = [k for k in context if k in mentioned]
        members: list[int] = []
        first: set[int] = set()
        for kw in context:
            if kw.members:
                first.add(kw.members[0])
            members += [i for i in kw.members if i not in members]
        topic_docs = self._topic_docs(ruling, set(members))
        # a recurring wording of a general rule: a card ruling's (Gatherer's), or an English or a Japanese
        # wiki ruling's (a keyword page's ruling about targets is about 608.2b, not the keyword)
        template_doc = None
        if ruling.lang == "ja":
            if TEMPLATES_ON_WIKI:
                template_doc = self.index.by_number.get(self.functions.template_rule_ja(ruling.text) or "")
        elif ruling.use_topics or TEMPLATES_ON_WIKI:
            template_doc = self.index.by_number.get(self.functions.template_rule(ruling.text) or "")
        top, of_members = self._view(similar if similar is not None else self._similar(ruling),
                                     set(members) | set(topic_docs) | ({template_doc} - {None}), TOP_K)
        template_similarity = of_members.get(template_doc, 0.0) if template_doc is not None else 0.0
        if template_doc is not None and template_doc not in members and template_doc not in topic_docs:
            of_members.pop(template_doc, None)
        of_topics = {i: of_members.pop(i) for i in topic_docs if i in of_members}
        links = list(cited)
        chosen: tuple[int, str, float, float] | None = None  # doc, how, score, similarity
        by_subrule = False  # chosen as its keyword's clearly best subrule (not its definition)
        picked = self._topic_choice(of_topics, topic_docs) if of_topics else None
        # a CR section's rule (a section topic) still competes as a rule outside the keyword, as it did untopicked
        outside = [(s, i) for s, i in top if i not in of_members and (i not in of_topics or topic_docs[i] > TOPIC_MIN)]
        if members:
            ranked = sorted(((s, i) for i, s in of_members.items()), reverse=True)
            s1, m1 = ranked[0]
            s2 = ranked[1][0] if len(ranked) > 1 else 0.0
            margin = KEYWORD_MARGIN
            if ruling.use_topics and KEYWORD_MARGIN_NAMED < KEYWORD_MARGIN and any(k in self.mentioned_keywords(ruling) for k in context):
                margin = KEYWORD_MARGIN_NAMED
            if s1 >= KEYWORD_MIN and s1 - s2 >= margin:
                chosen = (m1, "keyword+similarity", s1 + self.context_bonus, s1)
                by_subrule = True
            elif (ruling.definition_fallback and not ruling.keywords_if_named) or (
                    ruling.definition_if_named and (picked is None if DEFINITION_UNLESS_TOPIC_CHOSEN else not topic_docs)
                    and any(k in self.mentioned_keywords(ruling) for k in context)):
                d = max(first, key=lambda i: of_members.get(i, 0.0))
                # a card's ruling: only when the definition is the keyword's most similar rule
                leads = (not DEFINITION_MUST_LEAD or d == m1
                         or ruling.definition_fallback and of_members.get(d, 0.0) >= PAGE_DEFINITION_SHARE * s1)
                if leads and of_members.get(d, 0.0) >= DEFINITION_MIN:
                    chosen = (d, "keyword+similarity", of_members[d] + self.context_bonus, of_members[d])
            if outside:
                g, gi = outside[0]
                best_in = chosen[3] if chosen else s1
                if g >= self.threshold and g >= OUTSIDE_RATIO * best_in:
                    chosen = (gi, "similarity", g, g)
                    by_subrule = True
            decision.best = (self.index.docs[m1].number, round(s1 + self.context_bonus, 3))
        if of_topics:
            # a topic's rule beats the keyword's definition when more similar than the keyword's best
            # subrule, and a clearly best subrule only when far more similar
            keyword_best = (TOPIC_OVER_KEYWORD * chosen[3]) if by_subrule else (s1 if members else 0.0)
            if picked is not None and picked[3] > keyword_best:
                chosen = picked
            elif picked is None and decision.best is None:
                t1, ti = max((s, i) for i, s in of_topics.items())
                decision.best = (self.index.docs[ti].number, round(t1 + TOPIC_BONUS, 3))
        if template_doc is not None:
            chosen = (template_doc, "template", TEMPLATE_SCORE, template_similarity)
        if chosen is None and not members and top:
            g, gi = top[0]
            g2 = top[1][0] if len(top) > 1 else 0.0
            if decision.best is None:
                decision.best = (self.index.docs[gi].number, round(g, 3))
            if g >= self.threshold and g - g2 >= SIMILARITY_MARGIN:
                chosen = (gi, "similarity", g, g)
        if chosen is not None:
            doc = self.index.docs[chosen[0]]
            if doc.lineage_id not in {link.lineage_id for link in links}:
                links.append(Link(doc.lineage_id, doc.number, chosen[1], round(min(chosen[2], 1.0), 3),
                                  round(chosen[3], 3)))
        decision.links = links
        return decision
