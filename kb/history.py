"""Match the rules of two releases: which rule of the older one became which rule of the newer.

Rule numbers move (Search was 701.19 and is 701.23 since 20250606), so a
release-to-release comparison cannot go by number. :func:`match_rules` pairs
every rule, numbered rule and subrule of an older release with its successor
in the newer one, in stages, each taking only what the stages before left:

1. **number** — same number, same title and same text (after
   :func:`normalize_text`: curly and straight quotes, dashes, spacing and
   full-width forms count as equal).
2. **title** — headed rules (``701.23. Search``, ``702.52. Dredge``,
   ``100. General``) pair by title, within their kind, then across kinds
   when the title is unique on both sides (a numbered rule that became a
   rule); the Japanese ``探す／Search`` pairs by its English half.
3. **text** — identical text at another number: the subrules of a block
   that moved (701.15–701.18 became 701.19–701.22 in 20250606) come out as
   moves, not as removals and additions.
4. **children** — a rule left over pairs with the rule most of its
   subrules went to (a keyword renamed: ``Tap`` became ``Tap and Untap``).
5. **siblings** — what is left under rules already paired pairs by
   word-level similarity (:func:`word_similarity`) with the items under the
   successor rule, by an optimal assignment (:func:`optimal_assignment`).
6. **similar** — anything still left pairs across the whole release with
   its most similar unpaired counterpart, when similar enough; candidates
   come from shared word pairs, so this stays fast across the 2009
   renumbering, where almost every number changed.
7. **split** — a rule split in two follows the part whose text continues it
   (the part at its own number that begins as it did), not the larger part;
   two rules merged into one likewise.
8. **rewrite** — a rule left unpaired on both sides at one number, with the
   same kind, title and (paired) parent, was rewritten in place: ``changed``,
   not removed and added.

Each pair gets a status: ``same`` (same number and text), ``changed`` (same
number, other text), ``moved`` (other number, same text), ``moved_changed``;
rules with no successor are ``removed`` and rules with no predecessor
``added``. An excerpt (rules a wiki page quotes) is not a whole release:
absence from an excerpt is not removal, so a pair with an excerpt on the new
side has no ``removed`` rows and one with an excerpt on the old side no
``added`` rows.

>>> old = [RuleText("701.19", "numbered", "701", "Search", ""),
...        RuleText("701.19a", "subrule", "701.19", None, "To search for a card in a zone, look at it.")]
>>> new = [RuleText("701.19", "numbered", "701", "Regenerate", ""),
...        RuleText("701.23", "numbered", "701", "Search", ""),
...        RuleText("701.23a", "subrule", "701.23", None, "To search for a card in a zone, look at it.")]
>>> for m in match_rules(old, new):
...     print(m.old_number, m.new_number, m.status, m.how)
701.19 701.23 moved title
701.19a 701.23a moved text
None 701.19 added None
"""

from __future__ import annotations

import functools
import hashlib
import heapq
import re
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, NamedTuple, Sequence

import sqlite_utils
from rapidfuzz.distance import Indel

from .japanese import normalize as normalize_japanese
from .sqlite import sqlite3

STATUSES = ("same", "changed", "moved", "moved_changed", "removed", "added")

# Least word-level similarity to pair two rules that are not the same number
# under the same parent; same-number pairs need less (a rule rewritten in place
# stays the same rule).
SIBLING_THRESHOLD = 0.5
SAME_NUMBER_THRESHOLD = 0.3
GLOBAL_THRESHOLD = 0.6
# Above this many candidate pairs in one connected block the assignment is
# greedy by score instead of optimal (optimal is cubic).
OPTIMAL_LIMIT = 1600


class RuleText(NamedTuple):
    """One rule as matching sees it: number, kind, parent, title and text.

    ``title_en`` is the English title of a Japanese rule where the source
    gives it; ``position`` is the document order. A named tuple, not a
    dataclass: matching every release makes half a million of them, and
    they cross process boundaries.
    """

    number: str
    kind: str
    parent: str
    title: str | None
    text: str
    position: int = 0
    title_en: str | None = None


class RuleMatch(NamedTuple):
    """One row of a comparison: ``old_number`` → ``new_number`` with its status.

    ``how`` names the stage that paired them (``number``, ``title``, ``text``,
    ``children``, ``siblings``, ``similar``); ``similarity`` is the word-level
    ratio of title and text, 1.0 for equal texts.
    """

    old_number: str | None
    new_number: str | None
    status: str
    similarity: float | None
    how: str | None = None


# --- text -------------------------------------------------------------------

_TYPOGRAPHY = (
    ("‘", "'"), ("’", "'"), ("‚", "'"), ("“", '"'), ("”", '"'), ("„", '"'), ("–", "-"), ("—", "-"),
    ("−", "-"),
)
_JA_CHAR = "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u3005\u30fc\uff66-\uff9f"
_HAS_JAPANESE = re.compile(f"[{_JA_CHAR}]")
# A word: a rule number (701.23a), a run of letters/digits (with an inner apostrophe), one Japanese
# character, or one punctuation mark. Leading spaces stay with the token so
# that joining tokens gives back the text.
_TOKEN = re.compile(
    rf"\s*(?:\d+(?:\.\d+[a-z]?)+|[{_JA_CHAR}]|[^\W{_JA_CHAR}]+(?:['’][^\W{_JA_CHAR}]+)*|[^\w\s])"
)


@functools.lru_cache(maxsize=1 << 16)
def normalize_text(text: str | None) -> str:
    """The form two texts are compared in: typographic variants and spacing do not count.

    >>> normalize_text("It’s  a “card” — see rule 701.23.")
    'It\\'s a "card" - see rule 701.23.'
    >>> normalize_text("あなたの ライブラリー　から") == normalize_text("あなたのライブラリーから")
    True
    """
    if not text:
        return ""
    if not text.isascii():
        if _HAS_JAPANESE.search(text):
            text = normalize_japanese(text)
        else:
            text = unicodedata.normalize("NFKC", text)
        for variant, plain in _TYPOGRAPHY:  # str.replace is much faster than str.translate
            if variant in text:
                text = text.replace(variant, plain)
    return " ".join(text.split())


def split_words(text: str) -> list[str]:
    """Split ``text`` into word tokens, each with the spaces before it; joined they give the text.

    Japanese has no spaces between words, so each Japanese character is a token.

    >>> split_words("Search 701.23a, “Search.”")
    ['Search', ' 701.23a', ',', ' “', 'Search', '.', '”']
    >>> split_words("探す／Search")
    ['探', 'す', '／', 'Search']
    """
    tokens = _TOKEN.findall(text)
    rest = len(text) - sum(map(len, tokens))
    if rest:  # trailing spaces
        tokens.append(text[len(text) - rest:])
    return tokens


def _words(normalized: str) -> list[str]:
    return [t.strip().casefold() for t in _TOKEN.findall(normalized)]


def word_similarity(a: str, b: str) -> float:
    """Word-level similarity of two texts in [0, 1]: twice their longest common subsequence of words
    over the words of both.

    >>> word_similarity("Tap a permanent.", "Tap a permanent.")
    1.0
    >>> round(word_similarity("To search for a card, look.", "To search for two cards, look."), 2)
    0.75
    """
    return _ratio(_words(normalize_text(a)), _words(normalize_text(b)))


# The ratio is 2·LCS / (len(a) + len(b)) over words, the longest common
# subsequence computed by RapidFuzz (its Indel distance), fifty times as fast as
# difflib's SequenceMatcher and exact where difflib's is a heuristic.
def _ratio(a: Sequence[str], b: Sequence[str]) -> float:
    if not a and not b:
        return 1.0
    return Indel.normalized_similarity(a, b)


def display_title(title: str | None, title_en: str | None = None) -> str | None:
    """A title as compared and shown: a Japanese title with its English name, as the CR prints it.

    Loaders store the Japanese heading either split (``探す`` and ``Search``)
    or as printed (``探す／Search``); both read the same here.

    >>> display_title("探す", "Search"), display_title("探す／Search", "Search"), display_title("Search")
    ('探す／Search', '探す／Search', 'Search')
    """
    if not title:
        return title_en or None
    if "／" in title or not title_en or title_en == title:
        return title
    return f"{title}／{title_en}"


def title_key(title: str | None, title_en: str | None = None) -> str:
    """What titles are compared by: the English title (or the English half of ``探す／Search``), folded.

    >>> title_key("探す／Search"), title_key("Tap and Untap"), title_key("発見", "Discover")
    ('search', 'tap and untap', 'discover')
    """
    name = title_en or title or ""
    if "／" in name:
        name = name.split("／", 1)[1]
    elif "/" in name and _HAS_JAPANESE.search(name.split("/", 1)[0]):
        name = name.split("/", 1)[1]
    name = normalize_text(name).casefold()
    return " ".join(re.sub(r"[^\w\s]", " ", name).split())


# --- assignment ---------------------------------------------------------------


def optimal_assignment(scores: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """The pairs (row, column) that maximise the total score, each row and column used once.

    The Hungarian method (Kuhn–Munkres with potentials), O(n²m); pairs with a
    score of 0 or less are left out of the answer.

    >>> optimal_assignment([[0.9, 0.8], [0.85, 0.1]])
    [(0, 1), (1, 0)]
    >>> optimal_assignment([[0.0, 0.7, 0.6]])
    [(0, 1)]
    """
    rows = len(scores)
    cols = len(scores[0]) if rows else 0
    if not rows or not cols:
        return []
    transposed = rows > cols
    if transposed:
        scores = [list(col) for col in zip(*scores)]
        rows, cols = cols, rows
    # Minimise cost = -score over an n x m matrix (n <= m); 1-based arrays.
    inf = float("inf")
    u = [0.0] * (rows + 1)
    v = [0.0] * (cols + 1)
    p = [0] * (cols + 1)
    way = [0] * (cols + 1)
    for i in range(1, rows + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (cols + 1)
        used = [False] * (cols + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = inf
            j1 = 0
            row = scores[i0 - 1]
            ui0 = u[i0]
            for j in range(1, cols + 1):
                if not used[j]:
                    cur = -row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(cols + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    pairs = []
    for j in range(1, cols + 1):
        i = p[j]
        if i and scores[i - 1][j - 1] > 0:
            pairs.append((j - 1, i - 1) if transposed else (i - 1, j - 1))
    return sorted(pairs)


def assign_pairs(edges: dict[tuple[int, int], float]) -> list[tuple[int, int]]:
    """A best one-to-one choice among candidate pairs ``(old, new) → score``.

    Candidate pairs split into connected blocks; a block of up to
    :data:`OPTIMAL_LIMIT` cells gets :func:`optimal_assignment`, a larger one
    the greedy choice (best score first).

    >>> assign_pairs({(0, 0): 0.9, (0, 1): 0.8, (1, 0): 0.85})
    [(0, 1), (1, 0)]
    """
    if not edges:
        return []
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for o, n in edges:
        a, b = find(("o", o)), find(("n", n))
        if a != b:
            parent[a] = b
    blocks: dict[tuple[str, int], list[tuple[int, int]]] = defaultdict(list)
    for pair in edges:
        blocks[find(("o", pair[0]))].append(pair)
    chosen: list[tuple[int, int]] = []
    for pairs in blocks.values():
        if len(pairs) == 1:
            chosen.append(pairs[0])
            continue
        olds = sorted({o for o, _ in pairs})
        news = sorted({n for _, n in pairs})
        if len(olds) * len(news) <= OPTIMAL_LIMIT:
            matrix = [[edges.get((o, n), 0.0) for n in news] for o in olds]
            chosen.extend((olds[i], news[j]) for i, j in optimal_assignment(matrix))
        else:
            taken_o: set[int] = set()
            taken_n: set[int] = set()
            for (o, n) in sorted(pairs, key=lambda p: (-edges[p], p)):
                if o not in taken_o and n not in taken_n:
                    taken_o.add(o)
                    taken_n.add(n)
                    chosen.append((o, n))
    return sorted(chosen)


# --- matching -----------------------------------------------------------------


class _Entry:
    """A rule prepared for matching: normalised once per release, reused by both its pairs."""

    __slots__ = ("rule", "index", "number", "kind", "parent", "title", "content", "kind_class", "has_text",
                 "_words", "_pairs")

    def __init__(self, rule: RuleText, index: int):
        self.rule = rule
        self.index = index
        self.number, self.kind, self.parent = rule.number, rule.kind, rule.parent
        self.title = title_key(rule.title, rule.title_en) if rule.title else ""
        text = normalize_text(rule.text)
        title = normalize_text(display_title(rule.title, rule.title_en)) if rule.title else ""
        self.content = f"{title}\n{text}" if title else text
        self.has_text = bool(text)
        # Rules (701) pair only with rules; numbered rules and subrules with
        # each other (a numbered rule can be split into subrules).
        self.kind_class = "rule" if rule.kind == "rule" else "item"
        self._words: list[str] | None = None
        self._pairs: set[tuple[str, str]] | None = None

    @property
    def words(self) -> list[str]:
        if self._words is None:
            self._words = _words(self.content)
        return self._words

    @property
    def word_pairs(self) -> set[tuple[str, str]]:
        if self._pairs is None:
            w = self.words
            self._pairs = set(zip(w, w[1:])) if len(w) > 1 else {(w[0], "")} if w else set()
        return self._pairs


def prepare(rules: Sequence[RuleText]) -> list[_Entry]:
    """The rules of one release as matching uses them; prepare a release once for both its pairs."""
    return [_Entry(r, i) for i, r in enumerate(rules)]


def _letter(number: str) -> str:
    return number[-1] if number[-1:].isalpha() else ""


def _common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _lcs(a: Sequence[str], b: Sequence[str]) -> int:
    """The length of the longest common subsequence of two word lists."""
    return (len(a) + len(b) - Indel.distance(a, b)) // 2


class _Matcher:
    def __init__(self, old: Sequence[_Entry], new: Sequence[_Entry]):
        self.old = old
        self.new = new
        self.new_by_number = {e.number: e for e in new}
        self.old_by_number = {e.number: e for e in old}
        self.old_children: dict[str, list[_Entry]] = defaultdict(list)
        for e in old:
            self.old_children[e.parent].append(e)
        self.new_children: dict[str, list[_Entry]] = defaultdict(list)
        for e in new:
            self.new_children[e.parent].append(e)
        self.o2n: dict[int, int] = {}
        self.n2o: dict[int, int] = {}
        self.how: dict[int, str] = {}
        self.similarity: dict[int, float] = {}
        # The unpaired entries, in document order (dicts keep insertion order): each stage
        # reads only what is left instead of rescanning every rule of both releases.
        self._free_old: dict[int, None] = dict.fromkeys(range(len(old)))
        self._free_new: dict[int, None] = dict.fromkeys(range(len(new)))

    # helpers
    def pair(self, o: _Entry, n: _Entry, how: str, similarity: float | None = None) -> None:
        self.o2n[o.index] = n.index
        self.n2o[n.index] = o.index
        self._free_old.pop(o.index, None)
        self._free_new.pop(n.index, None)
        self.how[o.index] = how
        if similarity is not None:
            self.similarity[o.index] = similarity

    def unpair(self, o: _Entry) -> None:
        n_index = self.o2n.pop(o.index)
        del self.n2o[n_index]
        self.how.pop(o.index, None)
        self.similarity.pop(o.index, None)
        self._free_old[o.index] = None  # order no longer matters: the last stages look up by number
        self._free_new[n_index] = None

    def free_old(self) -> list[_Entry]:
        return [self.old[i] for i in self._free_old]

    def free_new(self) -> list[_Entry]:
        return [self.new[i] for i in self._free_new]

    def successor_number(self, old_number: str) -> str | None:
        e = self.old_by_number.get(old_number)
        if e is None or e.index not in self.o2n:
            return None
        return self.new[self.o2n[e.index]].number

    def closeness(self, o: _Entry, n: _Entry) -> float:
        """A small bonus for keeping place: same number, same parent, same letter."""
        bonus = 0.0
        if o.number == n.number:
            bonus += 0.05
        if self.successor_number(o.parent) == n.parent:
            bonus += 0.03
        if _letter(o.number) and _letter(o.number) == _letter(n.number):
            bonus += 0.01
        return bonus

    def assign(self, edges: dict[tuple[int, int], float], how: str, sims: dict[tuple[int, int], float]) -> int:
        chosen = assign_pairs(edges)
        for o, n in chosen:
            self.pair(self.old[o], self.new[n], how, sims.get((o, n)))
        return len(chosen)

    # stages
    def by_number(self) -> None:
        new_by_number = self.new_by_number
        for o in self.old:
            n = new_by_number.get(o.number)
            if n is not None and n.kind == o.kind and n.content == o.content:
                self.pair(o, n, "number", 1.0)

    def by_title(self) -> None:
        groups: dict[tuple[str, str], tuple[list[_Entry], list[_Entry]]] = defaultdict(lambda: ([], []))
        for e in self.free_old():
            if e.title:
                groups[(e.kind, e.title)][0].append(e)
        for e in self.free_new():
            if e.title and (e.kind, e.title) in groups:
                groups[(e.kind, e.title)][1].append(e)
        edges: dict[tuple[int, int], float] = {}
        for olds, news in groups.values():
            if len(olds) == 1 and len(news) == 1:
                self.pair(olds[0], news[0], "title")
                continue
            for o in olds:
                for n in news:
                    # Several rules titled "General": prefer the same number or parent.
                    edges[(o.index, n.index)] = 1.0 + self.closeness(o, n) + 0.1 * (o.number[0] == n.number[0])
        self.assign(edges, "title", {})
        # A headed numbered rule that became a rule of its own, or back (the 2009
        # renumbering made 419.8 "Prevention Effects" into 615): by title, when
        # the title is unique among what is left on both sides.
        olds_by_title: dict[str, list[_Entry]] = defaultdict(list)
        news_by_title: dict[str, list[_Entry]] = defaultdict(list)
        for e in self.free_old():
            if e.title:
                olds_by_title[e.title].append(e)
        for e in self.free_new():
            if e.title:
                news_by_title[e.title].append(e)
        for title, olds in olds_by_title.items():
            news = news_by_title.get(title, [])
            if len(olds) == 1 and len(news) == 1:
                self.pair(olds[0], news[0], "title")

    def by_text(self) -> None:
        groups: dict[tuple[str, str], tuple[list[_Entry], list[_Entry]]] = defaultdict(lambda: ([], []))
        for e in self.free_old():
            if e.has_text:
                groups[(e.kind_class, e.content)][0].append(e)
        for e in self.free_new():
            key = (e.kind_class, e.content)
            if e.has_text and key in groups:
                groups[key][1].append(e)
        edges: dict[tuple[int, int], float] = {}
        for olds, news in groups.values():
            if not news:
                continue
            if len(olds) == 1 and len(news) == 1:
                self.pair(olds[0], news[0], "text", 1.0)
                continue
            for o in olds:
                for n in news:
                    edges[(o.index, n.index)] = 1.0 + self.closeness(o, n)
        self.assign(edges, "text", {key: 1.0 for key in edges})

    def by_children(self) -> int:
        found = 0
        for o in self.free_old():
            children = self.old_children.get(o.number)
            if not children:
                continue
            votes = Counter(self.new[self.o2n[c.index]].parent for c in children if c.index in self.o2n)
            if not votes:
                continue
            target, count = votes.most_common(1)[0]
            n = self.new_by_number.get(target)
            if (n is None or n.index in self.n2o or n.kind_class != o.kind_class
                    or count * 2 < len(children)):
                continue
            self.pair(o, n, "children")
            found += 1
        return found

    def by_siblings(self) -> int:
        """Left-over items against the left-over items under the successor of their parent."""
        free_new = self._free_new
        edges: dict[tuple[int, int], float] = {}
        sims: dict[tuple[int, int], float] = {}
        similarity = Indel.normalized_similarity
        for o in self.free_old():
            candidates: dict[int, _Entry] = {}
            target_parent = self.successor_number(o.parent)
            if target_parent is None and o.parent in self.new_by_number:
                target_parent = o.parent
            if target_parent is not None:
                for n in self.new_children.get(target_parent, ()):
                    if n.index in free_new and n.kind_class == o.kind_class:
                        candidates[n.index] = n
            same = self.new_by_number.get(o.number)
            if same is not None and same.index in free_new and same.kind_class == o.kind_class:
                candidates[same.index] = same
            for n in candidates.values():
                threshold = SAME_NUMBER_THRESHOLD if n.number == o.number else SIBLING_THRESHOLD
                sim = similarity(o.words, n.words, score_cutoff=threshold) if (o.words or n.words) else 1.0
                if sim >= threshold:
                    sims[(o.index, n.index)] = sim
                    edges[(o.index, n.index)] = sim + self.closeness(o, n)
        return self.assign(edges, "siblings", sims)

    def by_similarity(self) -> int:
        """Left-over items against all left-over items, candidates from shared word pairs."""
        free_new = self.free_new()
        free_old = self.free_old()
        if not free_new or not free_old:
            return 0
        index: dict[tuple[str, str], list[int]] = defaultdict(list)
        for n in free_new:
            for pair in n.word_pairs:
                index[pair].append(n.index)
        # Word pairs found in many rules say little about which rule it is.
        common = max(8, len(free_new) // 50)
        edges: dict[tuple[int, int], float] = {}
        sims: dict[tuple[int, int], float] = {}
        similarity = Indel.normalized_similarity
        for o in free_old:
            shared: Counter = Counter()
            for pair in o.word_pairs:
                posting = index.get(pair)
                if posting and len(posting) <= common:
                    shared.update(posting)
            if not shared:
                continue
            size = len(o.word_pairs)
            for n_index, count in heapq.nlargest(4, shared.items(), key=lambda kv: (kv[1], -kv[0])):
                n = self.new[n_index]
                if n.kind_class != o.kind_class:
                    continue
                if 2 * count < GLOBAL_THRESHOLD * 0.5 * (size + len(n.word_pairs)):
                    continue
                sim = similarity(o.words, n.words, score_cutoff=GLOBAL_THRESHOLD)
                if sim >= GLOBAL_THRESHOLD:
                    sims[(o.index, n.index)] = sim
                    edges[(o.index, n.index)] = sim + self.closeness(o, n)
        return self.assign(edges, "similar", sims)

    def by_continuation(self) -> int:
        """A rule split in two (or two merged into one) follows the part whose text continues.

        The similarity stages pair a split rule with its larger part, wherever
        that went: 19991101's 420.5a ("A player with 0 life or less or who was
        required to draw more cards than were in his or her library loses the
        game") with 20010723's 420.5g (the drawing half), leaving 420.5a ("A
        player with 0 life or less loses the game") "added". When the rule of
        the same number is left unpaired on the other side, begins as the rule
        does, and the two parts together hold the rule's words, the pair
        follows the same number instead.
        """
        found = 0
        for o_index, n_index in list(self.o2n.items()):
            o, n = self.old[o_index], self.new[n_index]
            if o.number == n.number or o.content == n.content or not o.has_text or not n.has_text:
                continue
            # A split: o's number lives on, unpaired, in the new release.
            s = self.new_by_number.get(o.number)
            if (s is not None and s.index in self._free_new and s.kind == o.kind and s.has_text
                    and self._continues(o.words, s.words, n.words)
                    and _lcs(o.words, s.words) + _lcs(o.words, n.words) >= 0.8 * len(o.words)):
                self.unpair(o)
                self.pair(o, s, "split")
                found += 1
                continue
            # A merge: n's number was, unpaired, a rule of the old release.
            s = self.old_by_number.get(n.number)
            if (s is not None and s.index in self._free_old and s.kind == n.kind and s.has_text
                    and self._continues(n.words, s.words, o.words)
                    and _lcs(n.words, s.words) + _lcs(n.words, o.words) >= 0.8 * len(n.words)):
                self.unpair(o)
                self.pair(s, n, "split")
                found += 1
        return found

    @staticmethod
    def _continues(whole: Sequence[str], part: Sequence[str], other: Sequence[str]) -> bool:
        """``part`` begins as ``whole`` does (half of ``part`` at least), and more so than ``other``."""
        prefix = _common_prefix(whole, part)
        return prefix >= max(3, len(part) / 2) and prefix > _common_prefix(whole, other)

    def by_rewrite(self) -> int:
        """A rule rewritten in place: same number, same kind, same title, under the same parent.

        What is left unpaired on both sides at one number is one rule whose
        text was rewritten (100.1 in 20050801: "These Magic rules assume a
        game between two players" became "These Magic rules apply to any
        Magic game with two or more players"), when it keeps its role: its
        parent became the parent of the other, and it has the same title (or
        none). A headed rule that changed its title, or whose parent is
        another rule now, is not the same rule.
        """
        found = 0
        for o in self.free_old():
            n = self.new_by_number.get(o.number)
            if (n is None or n.index not in self._free_new or n.kind != o.kind or n.title != o.title
                    or self.successor_number(o.parent) != n.parent):
                continue
            self.pair(o, n, "rewrite")
            found += 1
        return found

    def run(self) -> None:
        self.by_number()
        self.by_title()
        self.by_text()
        while self.by_children() + self.by_siblings():
            pass
        self.by_similarity()
        while self.by_children() + self.by_siblings():
            pass
        self.by_continuation()
        self.by_rewrite()

    def results(self, old_is_excerpt: bool, new_is_excerpt: bool) -> list[RuleMatch]:
        out: list[RuleMatch] = []
        for o in self.old:
            if o.index not in self.o2n:
                if not new_is_excerpt:
                    out.append(RuleMatch(o.number, None, "removed", None))
                continue
            n = self.new[self.o2n[o.index]]
            same_text = o.content == n.content
            similarity = 1.0 if same_text else self.similarity.get(o.index)
            if similarity is None:
                similarity = _ratio(o.words, n.words)
            if o.number == n.number:
                status = "same" if same_text else "changed"
            else:
                status = "moved" if same_text else "moved_changed"
            out.append(RuleMatch(o.number, n.number, status, round(similarity, 4), self.how[o.index]))
        if not old_is_excerpt:
            for n in self.new:
                if n.index not in self.n2o:
                    out.append(RuleMatch(None, n.number, "added", None))
        return out


def match_rules(
    old: Sequence[RuleText],
    new: Sequence[RuleText],
    *,
    old_is_excerpt: bool = False,
    new_is_excerpt: bool = False,
) -> list[RuleMatch]:
    """Pair each rule of ``old`` with its successor in ``new``; see the module docstring.

    Old rules come first in their order (matched or ``removed``), then the
    ``added`` ones in the new release's order.
    """
    return match_prepared(prepare(old), prepare(new), old_is_excerpt=old_is_excerpt,
                          new_is_excerpt=new_is_excerpt)


def match_prepared(old: Sequence[_Entry], new: Sequence[_Entry], *, old_is_excerpt: bool = False,
                   new_is_excerpt: bool = False) -> list[RuleMatch]:
    """:func:`match_rules` on releases already prepared (:func:`prepare`)."""
    matcher = _Matcher(old, new)
    matcher.run()
    return matcher.results(old_is_excerpt, new_is_excerpt)


# --- releases in the database ---------------------------------------------------

RULES_SQL = """
select number, kind, parent, title, text, position, title_en
from rules where release = :release and lang = :lang
order by position
"""

RELEASES_SQL = """
select release, lang, completeness from releases
order by lang, release
"""


@dataclass(frozen=True)
class ReleasePair:
    """Two releases of one language compared with each other (``old`` before ``new``).

    Whole releases pair with the whole release before them. An excerpt hangs
    off the nearest whole release before it (or, when there is none, the
    first one after it), so each excerpt is compared with a complete text and
    the chain of whole releases is never broken by one.
    """

    lang: str
    old_release: str
    new_release: str
    old_is_excerpt: bool = False
    new_is_excerpt: bool = False


def release_pairs(releases: Iterable[tuple[str, str, str | None]]) -> list[ReleasePair]:
    """The pairs to compare, from ``(release, lang, completeness)`` rows.

    >>> rows = [("20231117", "ja", "excerpt"), ("20260116", "ja", "whole"),
    ...         ("20260807", "ja", "excerpt"), ("20250404", "en", "whole"), ("20250606", "en", "whole")]
    >>> for p in release_pairs(rows): print(p.lang, p.old_release, p.new_release, p.old_is_excerpt, p.new_is_excerpt)
    en 20250404 20250606 False False
    ja 20231117 20260116 True False
    ja 20260116 20260807 False True
    """
    by_lang: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for release, lang, completeness in releases:
        by_lang[lang].append((release, completeness == "excerpt"))
    pairs: list[ReleasePair] = []
    for lang in sorted(by_lang):
        rows = sorted(set(by_lang[lang]))
        wholes = [r for r, excerpt in rows if not excerpt]
        for a, b in zip(wholes, wholes[1:]):
            pairs.append(ReleasePair(lang, a, b))
        for release, excerpt in rows:
            if not excerpt:
                continue
            before = [w for w in wholes if w < release]
            after = [w for w in wholes if w > release]
            if before:
                pairs.append(ReleasePair(lang, before[-1], release, False, True))
            elif after:
                pairs.append(ReleasePair(lang, release, after[0], True, False))
    return sorted(pairs, key=lambda p: (p.lang, p.new_release, p.old_release))


def read_rules(db: sqlite_utils.Database, release: str, lang: str) -> list[RuleText]:
    """The rules of one release and language, in document order."""
    return [RuleText._make(row) for row in read_rule_rows(db.conn, lang, release)]


def read_rule_rows(conn, lang: str, release: str) -> list[RuleRow]:
    """The rules of one release as plain tuples, in :class:`RuleText` order (``conn``: a DB-API connection)."""
    return [(number, kind, parent or "", title, text or "", position or 0, title_en)
            for number, kind, parent, title, text, position, title_en
            in conn.execute(RULES_SQL, {"release": release, "lang": lang})]


def rules_digest(rows: Iterable[RuleRow]) -> str:
    """A digest of the rules of one release as matching sees them (rows as :func:`read_rule_rows` gives).

    Loaders that have a release's rows at hand record it
    (:meth:`kb.build.BuildContext.record_rules_digest`), so a build whose
    matches are cached need not read the rules back at all.

    >>> rows = [("100", "rule", "1", "General", "", 1, None)]
    >>> rules_digest(rows) == rules_digest([tuple(r) for r in rows]), rules_digest(rows) == rules_digest([])
    (True, False)
    """
    # repr() of plain tuples is exact and C-fast; the values are str, int and None.
    return hashlib.blake2b(repr([tuple(row) for row in rows]).encode(), digest_size=20).hexdigest()


def database_release_pairs(db: sqlite_utils.Database) -> list[ReleasePair]:
    """:func:`release_pairs` over the releases in ``db``."""
    return release_pairs(
        (r["release"], r["lang"], r["completeness"]) for r in db.query(RELEASES_SQL)
    )


# --- many pairs at once -----------------------------------------------------------

RuleRow = tuple  # (number, kind, parent, title, text, position, title_en)


@dataclass
class PairResult:
    """The matches of one :class:`ReleasePair` and how long matching took."""

    pair: ReleasePair
    matches: list[RuleMatch]
    seconds: float


class DatabaseRules:
    """The rules of a database file, read a release at a time (picklable: worker processes open their own)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._conn = None

    def __call__(self, lang: str, release: str) -> list[RuleRow]:
        if self._conn is None:
            self._conn = sqlite3.connect(f"{Path(self.path).resolve().as_uri()}?mode=ro", uri=True)
        return read_rule_rows(self._conn, lang, release)

    def __getstate__(self) -> dict:
        return {"path": self.path, "_conn": None}


def _match_run(pairs: Sequence[ReleasePair], rules: Callable[[str, str], list[RuleRow]],
               progress: Callable[[int], None] | None = None, finish: Callable[[PairResult], object] | None = None
               ) -> list:
    """Match ``pairs`` in order, preparing each release once (a release is in two consecutive pairs).

    ``finish(result)``, when given, is applied to each result in the process that matched it
    (a worker writing the rows where the build reads them), and its value returned instead.
    """
    prepared: dict[tuple[str, str], list[_Entry]] = {}
    out: list = []
    for i, p in enumerate(pairs):
        started = time.perf_counter()
        needed = {(p.lang, p.old_release), (p.lang, p.new_release)}
        following = pairs[i + 1] if i + 1 < len(pairs) else None
        keep = needed | ({(following.lang, following.old_release), (following.lang, following.new_release)}
                         if following else set())
        for key in needed:
            if key not in prepared:
                prepared[key] = prepare([RuleText._make(row) for row in rules(*key)])
        matches = match_prepared(prepared[(p.lang, p.old_release)], prepared[(p.lang, p.new_release)],
                                 old_is_excerpt=p.old_is_excerpt, new_is_excerpt=p.new_is_excerpt)
        for key in list(prepared):
            if key not in keep:
                del prepared[key]  # keep memory to two or three releases
        result = PairResult(p, matches, time.perf_counter() - started)
        out.append(finish(result) if finish else result)
        if progress:
            progress(1)
    return out


# Rules handed to forked workers by inheritance instead of pickling (a dict of every release).
_INHERITED: dict[tuple[str, str], list[RuleRow]] = {}


class _InheritedRules:
    def __call__(self, lang: str, release: str) -> list[RuleRow]:
        return _INHERITED.get((lang, release), [])


def _match_in_worker(args: tuple) -> list:
    pairs, rules, finish = args
    return _match_run(pairs, rules, None, finish)


def match_pairs(
    pairs: Sequence[ReleasePair],
    rules: Callable[[str, str], list[RuleRow]] | dict[tuple[str, str], list[RuleRow]],
    *,
    workers: int | Callable[[float], int] = 1,
    progress: Callable[[int], None] | None = None,
    sizes: dict[tuple[str, str], int] | None = None,
    finish: Callable[[PairResult], object] | None = None,
) -> list:
    """Match every pair, in the order given; ``rules(lang, release)`` gives a release's rows.

    ``rules`` may also be a dict ``(lang, release) → rows``. ``workers`` is a
    number of processes, or a function choosing one from the estimated seconds
    the pairs left would take in one process (the first pair is matched here
    and timed to estimate them): processes pay off only on idle cores, and a
    build seldom has many pairs to match. Pairs go to workers in runs of
    consecutive releases, so each release is prepared by as few processes as
    possible; each worker reads the rules itself (``rules`` is pickled, so it
    should be small: a :class:`DatabaseRules`). ``progress(n)`` is called as
    pairs finish; ``sizes`` (rules per ``(lang, release)``) weighs the
    estimate; ``finish`` is applied to each :class:`PairResult` where it was
    matched, and the list of its values returned instead.
    """
    pairs = list(pairs)
    if not pairs:
        return []
    if callable(workers):
        def size(p: ReleasePair) -> int:
            return ((sizes or {}).get((p.lang, p.old_release)) or 3000) + ((sizes or {}).get((p.lang, p.new_release)) or 3000)

        first = match_pairs(pairs[:1], rules, progress=progress, finish=finish)
        rest = pairs[1:]
        seconds = (first[0].seconds if isinstance(first[0], PairResult) else getattr(first[0], "seconds", 0.0))
        count = workers(seconds / size(pairs[0]) * sum(size(p) for p in rest)) if rest else 1
        return first + match_pairs(rest, rules, workers=count, progress=progress, finish=finish)
    if workers <= 1 or len(pairs) < 2:
        if isinstance(rules, dict):
            table = rules
            return _match_run(pairs, lambda lang, release: table.get((lang, release), []), progress, finish)
        return _match_run(pairs, rules, progress, finish)
    from .build import worker_pool

    if isinstance(rules, dict):
        _INHERITED.clear()
        _INHERITED.update(rules)
        rules = _InheritedRules()
    size = max(1, -(-len(pairs) // (workers * 3)))
    chunks = [pairs[i:i + size] for i in range(0, len(pairs), size)]
    results: list = []
    try:
        with worker_pool(workers) as pool:
            for done in pool.map(_match_in_worker, [(chunk, rules, finish) for chunk in chunks]):
                results.extend(done)
                if progress:
                    progress(len(done))
    finally:
        _INHERITED.clear()
    return results


def fold_history(steps) -> list[dict]:
    """One lineage's steps ``(lang, release, number, status, previous_release, previous_number, title,
    completeness)`` in (lang, release) order, folded into runs: releases in a row with the same number,
    status "same" and completeness are one run. English runs first, then by first release.

    >>> runs = fold_history([("en", "1", "701.14", None, None, None, "Search", "whole"),
    ...                      ("en", "2", "701.14", "same", "1", "701.14", "Search", "whole"),
    ...                      ("en", "3", "701.23", "renumbered", "2", "701.14", "Search", "whole"),
    ...                      ("ja", "2", "701.14", None, None, None, "探す", "whole")])
    >>> [(r["lang"], r["number"], r["first_release"], r["last_release"], r["releases"], r["status"]) for r in runs]
    [('en', '701.14', '1', '2', 2, 'first'), ('en', '701.23', '3', '3', 1, 'renumbered'), ('ja', '701.14', '2', '2', 1, 'first')]
    """
    runs: list[dict] = []
    for step_lang, step_release, step_number, status, prev_release, prev_number, title, completeness in steps:
        status = status or "first"
        last = runs[-1] if runs else None
        if (last and status == "same" and last["lang"] == step_lang and last["number"] == step_number
                and last["completeness"] == completeness):
            last["last_release"] = step_release
            last["releases"] += 1
            continue
        runs.append({"first_release": step_release, "last_release": step_release, "releases": 1, "lang": step_lang,
                     "number": step_number, "status": status, "title": title, "completeness": completeness,
                     "previous_release": prev_release, "previous_number": prev_number})
    return sorted(runs, key=lambda r: (r["lang"] != "en", r["first_release"]))
