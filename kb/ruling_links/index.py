"""What rulings are linked against: every rule with text of the newest release, in both languages.

A :class:`RuleIndex` holds one :class:`RuleDoc` per rule of the newest whole
English release that has text (subrules, and numbered rules such as 121.1
that are text themselves), keyed by its lineage (``rule_lineage``), with the
English text and, where the lineage reaches the newest whole Japanese
release, the Japanese text. Both are turned into weighted term vectors (TF-IDF:
``1 + log tf`` times ``log(N / df)``, unit length) with an inverted index each,
so a ruling is scored against every rule by touching only the rules that share
a word with it.

It also knows the keywords: every numbered rule of 701 (keyword actions) and
702 (keyword abilities) with its title in both languages, and the rules under
it, so a ruling's page or card can narrow the candidates to its keyword.

:meth:`RuleIndex.numbers_in` maps lineages to their numbers in any release (the
release a ruling was written for), read from ``rule_lineage`` once per release.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field

from .functions import TextFunctions
from .text import japanese_terms, with_pairs

try:  # matrices make linking a hundred thousand rulings a few seconds; without them, dicts do it slower
    import numpy as np
    from scipy import sparse
except ImportError:  # pragma: no cover
    np = sparse = None

# Keyword actions so common in card text that finding one says nothing about a ruling's subject.
GENERIC_KEYWORDS = frozenset({
    "Activate", "Attach", "Cast", "Counter", "Create", "Destroy", "Discard", "Double", "Triple", "Exchange",
    "Exile", "Play", "Reveal", "Sacrifice", "Tap and Untap", "Enchant", "Equip",
})
# Title words too short or too common to find a keyword by in free text.
_UNFINDABLE = frozenset({"Double", "Triple", "Play", "Counter", "Vote", "Partner"})


@dataclass
class RuleDoc:
    lineage_id: int
    number: str  # in the newest release
    parent: str | None
    text_en: str
    text_ja: str | None
    number_ja: str | None


@dataclass
class Keyword:
    """A keyword action (701.x) or ability (702.x) of the newest release."""

    title: str
    number: str
    lineage_id: int | None
    name_ja: str | None
    members: list[int] = field(default_factory=list)  # doc indexes of the rules under it
    generic: bool = False
    pattern: re.Pattern | None = None  # finds the keyword in English text


# How many times an example's words count (0: examples are left out).
EXAMPLE_WEIGHT = 1
# A word in more than this share of the rules tells little and costs much: a query skips its postings
# (its weight still counts in the query's length).
COMMON_SHARE = 0.03
# Pivoted length normalisation of the rules' vectors (1: plain cosine; less: a long rule such as
# 608.2b is not drowned by its own length). 0.5 put the labelled rule first more often (tune half).
PIVOT = 0.5


class VectorIndex:
    """TF-IDF vectors of some documents and their inverted index."""

    def __init__(self, documents: list[list[str] | None], pivot: float | None = None):
        self.n = sum(1 for d in documents if d)
        self.pivot = PIVOT if pivot is None else pivot
        df: dict[str, int] = defaultdict(int)
        for terms in documents:
            if terms:
                for t in set(terms):
                    df[t] += 1
        self.idf = {t: math.log((self.n + 1) / (c + 0.5)) for t, c in df.items()}
        self.common = {t for t, c in df.items() if c > COMMON_SHARE * self.n}
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        self.norms = [0.0] * len(documents)
        raw = [self._raw(terms) if terms else {} for terms in documents]
        lengths = [math.sqrt(sum(w * w for w in v.values())) for v in raw]
        mean = sum(lengths) / max(1, sum(1 for x in lengths if x)) if lengths else 1.0
        for i, vector in enumerate(raw):
            if not vector:
                continue
            # pivoted length normalisation: a long rule (608.2b) is not drowned by its own length
            norm = (1 - self.pivot) * mean + self.pivot * lengths[i]
            vector = {t: w / norm for t, w in vector.items()}
            for t, w in vector.items():
                self.postings[t].append((i, w))
        self.vocabulary = {t: k for k, t in enumerate(sorted(self.postings))}
        self.matrix = None  # terms × documents, for many queries at once (scores_many)
        if sparse is not None and self.postings:
            rows, cols, values = [], [], []
            for t, posting in self.postings.items():
                if t in self.common:
                    continue  # as in scores(): common words are not looked up
                k = self.vocabulary[t]
                for i, w in posting:
                    rows.append(k)
                    cols.append(i)
                    values.append(w)
            self.matrix = sparse.csr_matrix((values, (rows, cols)), shape=(len(self.vocabulary), len(documents)))

    def _raw(self, terms: list[str]) -> dict[str, float]:
        counts: dict[str, int] = defaultdict(int)
        for t in terms:
            if t in self.idf:
                counts[t] += 1
        return {t: (1 + math.log(c)) * self.idf[t] for t, c in counts.items()}

    def weigh(self, terms: list[str]) -> dict[str, float]:
        """A unit-length TF-IDF vector; words no document has are left out."""
        vector = self._raw(terms)
        norm = math.sqrt(sum(w * w for w in vector.values())) or 1.0
        return {t: w / norm for t, w in vector.items()}

    def scores_many(self, queries: list[list[str]]):
        """The cosines of many queries at once: a sparse matrix (queries × documents), or None
        without scipy. The same numbers as :meth:`scores`, a row per query."""
        if self.matrix is None:
            return None
        rows, cols, values = [], [], []
        for q, terms in enumerate(queries):
            for t, w in self.weigh(terms).items():
                k = self.vocabulary.get(t)
                if k is not None and t not in self.common:
                    rows.append(q)
                    cols.append(k)
                    values.append(w)
        weights = sparse.csr_matrix((values, (rows, cols)), shape=(len(queries), len(self.vocabulary)))
        product = (weights @ self.matrix).tocsr()
        product.sort_indices()
        return product

    def scores(self, terms: list[str]) -> dict[int, float]:
        """Cosine of ``terms`` against every document sharing a word with them."""
        out: dict[int, float] = defaultdict(float)
        for t, w in self.weigh(terms).items():
            if t in self.common:
                continue
            for i, dw in self.postings.get(t, ()):
                out[i] += w * dw
        return out


def _keyword_pattern(title: str) -> re.Pattern | None:
    """A regex that finds a keyword in English card or ruling text: ``explores``, ``scry 2``, ``Dredge 3``."""
    if title in _UNFINDABLE or len(title) < 4:
        return None
    words = title.split()
    last = re.escape(words[-1])
    # inflections of the last word: explore/explores/explored/exploring, scry/scries/scried, search/searches
    if words[-1].endswith("y"):
        ending = re.escape(words[-1][:-1]) + r"(?:y|ies|ied|ying)"
    elif words[-1].endswith("e"):
        ending = re.escape(words[-1][:-1]) + r"(?:e|es|ed|ing)"
    else:
        ending = last + r"(?:s|es|ed|ing|d)?"
    head = r"\s+".join(re.escape(w) for w in words[:-1])
    body = (head + r"\s+" if head else "") + ending
    return re.compile(rf"(?<![\w-]){body}(?![\w-])", re.IGNORECASE)


class RuleIndex:
    """The newest release's rules, both languages, their vectors and the keywords (see the module docstring)."""

    def __init__(self, conn, release_en: str, release_ja: str | None, *, functions: TextFunctions | None = None):
        self.functions = functions or TextFunctions()
        english_terms = self.functions.english_terms
        self.conn = conn
        self.release_en, self.release_ja = release_en, release_ja
        lineage_of = {n: lid for n, lid in conn.execute(
            "select number, lineage_id from rule_lineage where lang = 'en' and release = ?", [release_en])}
        ja_by_lineage: dict[int, tuple[str, str, str]] = {}
        if release_ja:
            for number, text, search_ja, lid in conn.execute(
                    "select r.number, r.text, r.search_ja, l.lineage_id from rules r join rule_lineage l"
                    " on l.lang = r.lang and l.release = r.release and l.number = r.number"
                    " where r.lang = 'ja' and r.release = ? and r.text != ''", [release_ja]):
                ja_by_lineage[lid] = (number, text, search_ja or "")
        self.docs: list[RuleDoc] = []
        self.by_number: dict[str, int] = {}
        self.by_lineage: dict[int, int] = {}
        en_terms: list[list[str] | None] = []
        ja_terms: list[list[str] | None] = []
        titles: dict[str, tuple[str, str | None]] = {}  # number -> (title_en, parent)
        # A rule's examples tell the situations it decides, often with the very cards rulings
        # are about (701.23c's Lobotomy): their words count with the rule's, at EXAMPLE_WEIGHT.
        examples_en: dict[str, list[str]] = defaultdict(list)
        examples_ja: dict[str, list[str]] = defaultdict(list)
        if EXAMPLE_WEIGHT:
            for rule_number, text in conn.execute(
                    "select rule_number, text from examples where lang = 'en' and release = ?", [release_en]):
                examples_en[rule_number].append(text)
            if release_ja:
                for rule_number, search_ja in conn.execute(
                        "select rule_number, coalesce(search_ja, '') from examples where lang = 'ja' and release = ?",
                        [release_ja]):
                    examples_ja[rule_number].append(search_ja)
        for number, kind, parent, title, text in conn.execute(
                "select number, kind, parent, title, text from rules where lang = 'en' and release = ?"
                " order by position", [release_en]):
            if kind == "numbered" and parent in ("701", "702") and title:
                titles[number] = (title, parent)
            if not text or kind not in ("numbered", "subrule"):
                continue
            lid = lineage_of.get(number)
            if lid is None:
                continue
            ja = ja_by_lineage.get(lid)
            doc = RuleDoc(lid, number, parent, text, ja[1] if ja else None, ja[0] if ja else None)
            self.by_number[number] = len(self.docs)
            self.by_lineage[lid] = len(self.docs)
            self.docs.append(doc)
            en_terms.append(with_pairs(english_terms(text))
                            + [t for e in examples_en.get(number, ()) for t in english_terms(e)] * EXAMPLE_WEIGHT)
            ja_terms.append(with_pairs(japanese_terms(ja[2]))
                            + [t for e in examples_ja.get(ja[0], ()) for t in japanese_terms(e)] * EXAMPLE_WEIGHT
                            if ja else None)
        self.en = VectorIndex(en_terms)
        self.ja = VectorIndex(ja_terms)
        self.keywords = self._keywords(titles, lineage_of)
        self.keyword_of_doc: dict[int, str] = {}
        self._by_first_stem: dict[str, list[Keyword]] = defaultdict(list)
        for kw in self.keywords.values():
            for i in kw.members:
                self.keyword_of_doc[i] = kw.title
            stems = english_terms(kw.title)
            if kw.pattern is not None and stems:
                self._by_first_stem[stems[0]].append(kw)
        self._numbers: dict[tuple[str, str], dict[int, str]] = {}
        self._lineages: dict[tuple[str, str], dict[str, int]] = {}
        self._topic_members: dict[str, tuple[int, ...]] = {}
        self._subjects: dict[str, Keyword | None] = {}

    def topic_members(self, topic) -> tuple[int, ...]:
        """The doc indexes of the rules of a :class:`~kb.ruling_links.topics.Topic` (kept per topic)."""
        from .topics import matches

        found = self._topic_members.get(topic.name)
        if found is None:
            found = tuple(i for i, d in enumerate(self.docs) if matches(d.number, topic.rules))
            self._topic_members[topic.name] = found
        return found

    def _keywords(self, titles: dict, lineage_of: dict) -> dict[str, Keyword]:
        names_ja: dict[str, str] = {}
        if self.release_ja:
            for number, title, title_en in self.conn.execute(
                    "select number, title, title_en from rules where lang = 'ja' and release = ?"
                    " and kind = 'numbered' and parent in ('701', '702')", [self.release_ja]):
                if title:
                    names_ja[number] = re.sub(r"(?:を行う|する)$", "", title.split("／")[0].strip())
        members: dict[str, list[int]] = defaultdict(list)
        for i, doc in enumerate(self.docs):
            members[doc.parent or ""].append(i)
        out: dict[str, Keyword] = {}
        for number, (title, _) in titles.items():
            out[title.lower()] = Keyword(title, number, lineage_of.get(number), names_ja.get(number),
                                         members.get(number, []), title in GENERIC_KEYWORDS,
                                         _keyword_pattern(title))
        return out

    def keyword(self, name: str | None) -> Keyword | None:
        """The keyword titled ``name`` (English, any case; ``Manifest dread``, ``Villainous Choice``)."""
        if not name:
            return None
        key = name.strip().lower()
        found = self.keywords.get(key)
        if found is None:
            found = next((k for t, k in self.keywords.items() if t.endswith(" " + key) or t.startswith(key + " ")), None)
        return found

    def subject(self, name: str | None, most: int = 30) -> Keyword | None:
        """A page subject that is no keyword (Treasure, Vehicle) as a :class:`Keyword` of the rules whose
        English text names it, most mentions first (the rule that defines it, 111.10a, ahead), when
        there are few enough (``most``) to narrow anything; ``None`` otherwise.
        """
        if not name or len(name) < 4:
            return None
        key = name.strip().lower()
        cached = self._subjects.get(key, False)
        if cached is not False:
            return cached
        pattern = re.compile(rf"(?<![\w-]){re.escape(key)}(?:s|es)?(?![\w-])", re.IGNORECASE)
        counts = [(len(pattern.findall(d.text_en)), i) for i, d in enumerate(self.docs)]
        found = sorted(((c, i) for c, i in counts if c), key=lambda x: (-x[0], x[1]))
        subject = None
        if 0 < len(found) <= most:
            subject = Keyword(name, "", None, None, [i for _, i in found])
        self._subjects[key] = subject
        return subject

    def keywords_in_english(self, text: str) -> list[Keyword]:
        """The keywords an English text names (``explores``, ``Dredge 3``, ``scry 2``).

        Only keywords whose first word's stem is among the text's are tried with their
        pattern, so a card's text costs a few set look-ups, not 250 regular expressions.
        """
        found: list[Keyword] = []
        for s in dict.fromkeys(self.functions.english_terms(text)):
            for k in self._by_first_stem.get(s, ()):
                if k not in found and k.pattern is not None and k.pattern.search(text):
                    found.append(k)
        return found

    def keywords_in_japanese(self, text: str) -> list[Keyword]:
        """The keywords a Japanese text names by their Japanese name (探す, 発掘)."""
        return [k for k in self.keywords.values() if k.name_ja and len(k.name_ja) >= 2 and k.name_ja in text]

    # -- other releases

    def numbers_in(self, lang: str, release: str) -> dict[int, str]:
        """``{lineage_id: number}`` of a release."""
        key = (lang, release)
        if key not in self._numbers:
            rows = self.conn.execute("select lineage_id, number from rule_lineage where lang = ? and release = ?",
                                     [lang, release]).fetchall()
            self._numbers[key] = dict(rows)
            self._lineages[key] = {n: lid for lid, n in rows}
        return self._numbers[key]

    def lineage_of(self, lang: str, release: str, number: str) -> int | None:
        self.numbers_in(lang, release)
        return self._lineages[(lang, release)].get(number)
