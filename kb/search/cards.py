"""Card names in a question: which cards it names, and the rules their text points to.

:class:`CardNames` is an in-memory index of every card name of the database
(``card_aliases``: English, Japanese and Chinese, card and face names), built
once per database file and process and shared by every thread (it is never
changed after it is built). :meth:`CardNames.find` reads a query and returns
the cards it names (:class:`CardMention`), longest name first:

- English names by their words, in any case, with or without the comma or
  the possessive ("Urborg Tomb of Yawgmoth", "Lotus Cobra's ability"), and
  with a small typo (rapidfuzz, over the few names that share a word or a
  word's beginning with the query, never over all of them);
- Japanese and Chinese names as substrings of the query (voiced marks
  optional, as in ``card_aliases.key``), written in 《》 or 「」 or not;
- ``[[Name]]``, ``"Name"``, 《Name》, 「Name」 and 【Name】 always name a card; a Japanese or
  Chinese name of fewer than :data:`MIN_CJK` characters (稲妻, ショック) only so.

It does not fire on ordinary words: a name made only of common English words
("Fog", "Shock", "Opt", "Blood Moon", "Threaten"; wordfreq's Zipf frequency
:data:`COMMON_ZIPF` or more, or a word of the rules) counts only when typed
with its capitals, not at the start of the query, or quoted; one that is also
a keyword or a glossary term ("Flash", "Sacrifice"), or a basic land
("Island"), only when quoted. A typo is corrected only in a name with a word
no dictionary knows ("Tarmogoyf", "Urborg").

:func:`card_rules` lists the rules a card's text points to, best first: the
rules its rulings apply (``card_ruling_rules``, the rulings closest to the
question first), its keywords (``card_keywords``), and what its Oracle text
and type line do (:data:`TEXT_RULES`: "enters", "dies", "instead", type- or
ability-changing text and the layers of rule 613, …).

>>> names = CardNames([("urborg, tomb of yawgmoth", "Urborg, Tomb of Yawgmoth", "en", 1, "card"),
...                    ("blood moon", "Blood Moon", "en", 2, "card")], common={"blood", "moon"})
>>> [(m.name, m.how) for m in names.find("does Blood Moon turn Urborg off")]
[('Blood Moon', 'exact'), ('Urborg, Tomb of Yawgmoth', 'partial')]
>>> [m.name for m in names.find("what does a blood moon look like")]
[]
>>> [(m.name, m.how) for m in names.find("does blood moon affect urborg tomb of yawgmot")]
[('Blood Moon', 'exact'), ('Urborg, Tomb of Yawgmoth', 'typo')]

(A name of common words typed in lower case counts when the same query types another name of
several words in lower case too: the player writes every name that way.)
"""

from __future__ import annotations

import functools
import os
import re
import threading
import unicodedata
from dataclasses import dataclass, field

MAX_NAME_WORDS = 12
COMMON_ZIPF = 3.0  # wordfreq's Zipf scale: 3 is a word used once per million words (fog 3.9, cobra 3.5)
FUZZY_SCORE = 88  # rapidfuzz ratio (0-100) a typed name must reach to stand for a card's name
MIN_FUZZY = 6  # characters: a shorter name is only ever recognised as typed
MIN_CJK = 5  # characters: a shorter Japanese or Chinese name only in 《》, 「」 or 【】 (as Q&A writes them)
MIN_ZH = 3  # characters: a Chinese name of MIN_ZH to MIN_CJK - 1 counts unquoted in a question without kana
_KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
CJK_FUZZY_SCORE = 80  # rapidfuzz ratio a name in 《》 must reach to stand for a Japanese or Chinese name
MIN_CJK_FUZZY = 5  # characters: a shorter name in 《》 is only ever recognised as typed (4 with one slip: 75)
PARTIAL_MIN = 5  # letters: the distinctive first word of a long name, alone ("Urborg")
LOWERCASE_ZIPF = 4.0  # a name of common words counts in lower case with a word rarer than this (rite 3.3)

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f々〆ー・、，]+")
_QUOTED = re.compile(r"\[\[([^\[\]]{1,141})\]\]|\"([^\"]{1,141})\"|“([^”]{1,141})”|《([^《》]{1,141})》|「([^「」]{1,141})」"
                     r"|【([^【】]{1,141})】")
_STOP = frozenset("a an the of to in on at by for and or with from is are be it its this that".split())


@functools.lru_cache(maxsize=262144)
def fold_word(word: str) -> str:
    """A word as names are compared: accents off, case folded, a possessive and apostrophes dropped.

    >>> fold_word("Yawgmoth's"), fold_word("Lim-Dûl"), fold_word("CROWNS’")
    ('yawgmoth', 'lim-dul', 'crowns')
    """
    text = word if word.isascii() else "".join(
        c for c in unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", word)) if not unicodedata.combining(c))
    text = text.casefold()
    if text.endswith(("'s", "’s")):
        text = text[:-2]
    return text.replace("'", "").replace("’", "")


def plural_of(word: str) -> tuple[str, ...]:
    """The singulars a plural word may stand for ("enforcers" → enforcer; "witches" → witche, witch).

    >>> plural_of("enforcers"), plural_of("witches"), plural_of("glass")
    (('enforcer',), ('witche', 'witch'), ())
    """
    if len(word) < 4 or not word.endswith("s") or word.endswith("ss"):
        return ()
    return (word[:-1], word[:-2]) if word.endswith("es") else (word[:-1],)


@functools.lru_cache(maxsize=131072)
def name_words(name: str) -> tuple[str, ...]:
    """The folded words of a name ("Urborg, Tomb of Yawgmoth" → urborg tomb of yawgmoth)."""
    return tuple(fold_word(w) for w in _WORD.findall(name.replace("-", " ")))


def fold_cjk(text: str) -> str:
    """Japanese or Chinese text as names are compared: NFKC, voiced marks off (as
    ``card_aliases.key``), one character for one, so that spans map back to the query.

    >>> fold_cjk("ヨーグモスの墳墓、アーボーグ")
    'ヨークモスの墳墓、アーホーク'
    """
    return "".join(map(_fold_char, unicodedata.normalize("NFKC", text)))


@functools.lru_cache(maxsize=65536)
def _fold_char(c: str) -> str:
    d = "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x))
    return d[:1] if d else c


@dataclass(frozen=True)
class CardMention:
    """A card named in a query: ``typed`` as in the query, ``how`` it was recognised
    ("exact", "quoted", "typo", "partial": the distinctive first word of a longer name)."""

    card_id: int
    name: str  # the card's English name
    typed: str
    lang: str
    how: str
    score: float
    start: int  # span of ``typed`` in the query as given to :meth:`CardNames.find`
    end: int


@dataclass
class _Entry:
    card_id: int
    alias: str
    lang: str
    kind: str


def _starts_sentence(query: str, start: int) -> bool:
    """Whether the word at ``start`` begins the query or a sentence of it.

    >>> _starts_sentence("I'm at 0 life now. What happens?", 19), _starts_sentence("does Blood Moon", 5)
    (True, False)
    """
    before = query[:start].rstrip(" \t\"'“”(")
    return not before or before[-1] in ".?!:;\n"


def _without_back_references(found: list[CardMention]) -> list[CardMention]:
    """Drop a one-word name that is a word of another card the query names: players call a card
    they have named by its last word ("Unstable Shapeshifter … Do both Mogg Squad and the
    Shapeshifter die?"), and that word is seldom the card of that name.

    >>> a = CardMention(1, "Unstable Shapeshifter", "Unstable Shapeshifter", "en", "exact", 100.0, 7, 28)
    >>> b = CardMention(2, "Shapeshifter", "Shapeshifter", "en", "exact", 100.0, 60, 72)
    >>> [m.name for m in _without_back_references([a, b])]
    ['Unstable Shapeshifter']
    >>> c = CardMention(3, "Vorinclex, Voice of Hunger", "Vorinclex", "en", "partial", 100.0, 80, 89)
    >>> d = CardMention(4, "Vorinclex, Monstrous Raider", "Vorinclex, Monstrous Raider", "en", "exact", 100.0, 10, 37)
    >>> [m.name for m in _without_back_references([d, c])]
    ['Vorinclex, Monstrous Raider']
    """
    out = []
    for m in found:
        typed = name_words(m.typed)
        # "partial" too: "Vorinclex, Monstrous Raider … because of Vorinclex" is not Vorinclex, Voice of Hunger.
        # In the plural too: "Cavern of Souls … The caverns that were played before" is not Caverns of Despair.
        if m.how in ("exact", "partial") and len(typed) == 1 and any(
                o.end <= m.start and len(name_words(o.name)) > 1
                and ({typed[0], *plural_of(typed[0])} & set(name_words(o.name))) for o in found):
            continue
        out.append(m)
    return out


@dataclass
class CardNames:
    """Every card name, indexed for :meth:`find` (see the module docstring)."""

    rows: list = field(repr=False)  # (key, alias, lang, card_id, kind) of card_aliases
    common: set = field(default_factory=set, repr=False)  # common English words
    quoted_only: set = field(default_factory=set, repr=False)  # folded names recognised only when quoted
    card_names: dict = field(default_factory=dict, repr=False)  # card_id → English name
    printings: dict = field(default_factory=dict, repr=False)  # card_id → printings (which name a word means)
    set_names: set = field(default_factory=set, repr=False)  # folded names of sets ("torment", "visions")
    lowercase: set = field(default_factory=set, repr=False)  # plain names that count typed in lower case
    short_zh: set = field(default_factory=set, repr=False)  # short Chinese names that count unquoted (_short_zh)
    text_words: dict = field(default_factory=dict, repr=False)  # card_id → content words of its text (ties only)

    def __post_init__(self):
        self.known_words: dict[str, bool] = {}  # word → whether it misspells a word of the rules
        self.latin: dict[tuple[str, ...], _Entry] = {}
        self.cjk: dict[str, _Entry] = {}
        for key, alias, lang, card_id, kind in sorted(self.rows, key=lambda r: (r[4] != "card", r[3])):
            if not alias:
                continue
            if _CJK.search(alias):
                self.cjk.setdefault(fold_cjk(alias).replace(" ", "").replace("・", ""),
                                    _Entry(card_id, alias, lang, kind))
            else:
                words = name_words(alias)
                if words and len(words) <= MAX_NAME_WORDS:
                    self.latin.setdefault(words, _Entry(card_id, alias, lang, kind))
            if lang == "en" and kind == "card":
                self.card_names.setdefault(card_id, alias)
        self.longest = max((len(k) for k in self.latin), default=0)
        self.lengths: dict[str, set[int]] = {}
        self.by_word: dict[str, set[tuple[str, ...]]] = {}  # a rare word → the names with it
        self.by_prefix: dict[str, set[str]] = {}  # first 3 letters → rare words of names
        self.first_word: dict[str, tuple[str, ...]] = {}  # "urborg" → the one long name it begins
        self.first_word_ties: dict[str, list[tuple[str, ...]]] = {}  # "kalitas" → the names printed as often
        for words in self.latin:
            self.lengths.setdefault(words[0], set()).add(len(words))
            for w in words:
                if self.is_rare(w):
                    self.by_word.setdefault(w, set()).add(words)
                    self.by_prefix.setdefault(w[:3], set()).add(w)
        # A long name's distinctive first word alone stands for it when it is the only such name,
        # or printed more often than any other (Urborg, Tomb of Yawgmoth; not Urborg Elf).
        starting: dict[str, list[tuple[str, ...]]] = {}
        for words in self.latin:
            if len(words) > 1 and len(words[0]) >= PARTIAL_MIN and self.is_rare(words[0]):
                starting.setdefault(words[0], []).append(words)
        for first, keys in starting.items():
            ranked = sorted(keys, key=lambda k: -self.printings.get(self.latin[k].card_id, 0))
            top = self.printings.get(self.latin[ranked[0]].card_id, 0)
            runner_up = self.printings.get(self.latin[ranked[1]].card_id, 0) if len(ranked) > 1 else 0
            if len(ranked) == 1 or top > runner_up:
                self.first_word[first] = ranked[0]
            else:  # printed as often (Kalitas, Traitor of Ghet and Kalitas, Bloodchief of Ghet): the question's
                # other words choose between them (:meth:`_by_context`)
                self.first_word_ties[first] = [k for k in ranked if self.printings.get(self.latin[k].card_id, 0) == top]
        # The lengths of the Japanese and Chinese names long enough to count unquoted, longest first.
        self.cjk_lengths = sorted({len(k) for k in self.cjk if len(k) >= MIN_CJK}, reverse=True)
        self.cjk_by_length: dict[int, list[str]] = {}  # for a name in 《》 typed with a slip
        for k in self.cjk:
            self.cjk_by_length.setdefault(len(k), []).append(k)

    def is_rare(self, word: str) -> bool:
        return len(word) >= 3 and word not in self.common and not word.isdigit()

    def is_plain(self, words: tuple[str, ...]) -> bool:
        """A name of common words only: it needs its capitals or quotes to count."""
        return not any(self.is_rare(w) for w in words)

    # ------------------------------------------------------------------ reading a query

    def find(self, query: str, *, limit: int = 4, known=None) -> list[CardMention]:
        """The cards ``query`` names, in the order they are typed (see the module docstring).

        ``known(word)`` says whether a word misspells a word of the rules (the search's typo
        corrector): such a word is never taken for a one-word card name misspelt."""
        found: list[CardMention] = []
        taken: list[tuple[int, int]] = []

        def add(m: CardMention | None):
            if m is None or any(m.start < e and s < m.end for s, e in taken) and m.how != "partial":
                return
            if any(f.card_id == m.card_id for f in found):
                taken.append((m.start, m.end))
                return
            found.append(m)
            taken.append((m.start, m.end))

        for match in _QUOTED.finditer(query):
            inner = next(g for g in match.groups() if g is not None)
            add(self._quoted(inner.strip(), match.start(), match.end(), bracket=match.group(0)[0]))
        add_all = [self._cjk_scan(query, taken)]
        for ms in add_all:
            for m in ms:
                add(m)
        for m in self._latin_scan(query, taken, known):
            add(m)
        found.sort(key=lambda m: m.start)
        return _without_back_references(self._without_set_names(query, found))[:limit]

    def _by_context(self, first: str, words: list[str]) -> tuple[str, ...] | None:
        """Of the long names ``first`` begins, printed as often, the one whose Oracle text shares the most
        content words with the question (its "zombie-producing" ability: Kalitas, Traitor of Ghet), if one does.

        >>> n = CardNames([("kalitas traitor of ghet", "Kalitas, Traitor of Ghet", "en", 1, "card"),
        ...                ("kalitas bloodchief of ghet", "Kalitas, Bloodchief of Ghet", "en", 2, "card")],
        ...               text_words={1: {"zombie", "lifelink"}, 2: {"vampire", "destroy"}})
        >>> n._by_context("kalitas", ["kalitas", "zombie", "producing"]), n._by_context("kalitas", ["kalitas", "died"])
        (('kalitas', 'traitor', 'of', 'ghet'), None)
        """
        asked = {w for w in words if w != first and _content_word(w)}
        asked |= {s for w in asked for s in plural_of(w)}
        scored = sorted(((len(asked & self.text_words.get(self.latin[k].card_id, set())), k)
                         for k in self.first_word_ties[first]), reverse=True)
        if scored and scored[0][0] and (len(scored) == 1 or scored[0][0] > scored[1][0]):
            return scored[0][1]
        return None

    def _without_set_names(self, query: str, found: list[CardMention]) -> list[CardMention]:
        """Drop a name in parentheses that is also a set's: players write the set after a card
        ("an Alter Reality (Torment)"), and Torment, Visions or Onslaught is then no card named.

        >>> n = CardNames([("alter reality", "Alter Reality", "en", 1, "card"), ("torment", "Torment", "en", 2, "card")],
        ...               set_names={"torment"})
        >>> [m.name for m in n.find("Can I use an Alter Reality (Torment) on it")], [m.name for m in n.find("is Torment an Aura")]
        (['Alter Reality'], ['Torment'])
        """
        def in_parentheses(m: CardMention) -> bool:
            return query[:m.start].rstrip().endswith("(") and query[m.end:].lstrip().startswith(")")

        return [m for m in found if m.how == "quoted" or not in_parentheses(m)
                or " ".join(name_words(m.typed)) not in self.set_names]

    def _mention(self, entry: _Entry, typed: str, how: str, score: float, start: int, end: int) -> CardMention:
        return CardMention(entry.card_id, self.card_names.get(entry.card_id) or entry.alias, typed, entry.lang,
                           how, score, start, end)

    def _quoted(self, inner: str, start: int, end: int, bracket: str = "") -> CardMention | None:
        if _CJK.search(inner):
            key = fold_cjk(inner).replace(" ", "").replace("・", "")
            entry = self.cjk.get(key)
            if entry:
                return self._mention(entry, inner, "quoted", 100.0, start, end)
            # 《》 is the card-name bracket of Japanese Q&A: a name in it typed with a slip
            # (《帆凧の掠め取り》 for 帆凧の掠め盗り) is still a card's; 「」 quotes any text, so never there.
            if bracket == "《" and len(key) >= MIN_CJK_FUZZY:
                best = self._cjk_fuzzy(key)
                if best:
                    entry, score = best
                    return self._mention(entry, inner, "typo", score, start, end)
            return None
        words = name_words(inner)
        entry = self.latin.get(words)
        if entry:
            return self._mention(entry, inner, "quoted", 100.0, start, end)
        if len(" ".join(words)) >= MIN_FUZZY:
            best = self._fuzzy(words, self._candidates(words))
            if best:
                entry, score = best
                return self._mention(entry, inner, "typo", score, start, end)
        return None

    def _cjk_fuzzy(self, key: str) -> tuple[_Entry, float] | None:
        """The Japanese or Chinese name closest to ``key`` among those of about its length.

        >>> n = CardNames([("帆凧の掠め盗り", "帆凧の掠め盗り", "ja", 1, "card"), ("霊気の薬瓶", "霊気の薬瓶", "ja", 2, "card")])
        >>> n._cjk_fuzzy("帆凧の掠め取り")[0].card_id, n._cjk_fuzzy("帆船の大砲")
        (1, None)
        """
        from rapidfuzz import fuzz, process

        names = [k for n in (len(key) - 1, len(key), len(key) + 1) for k in self.cjk_by_length.get(n, ())]
        hit = process.extractOne(key, names, scorer=fuzz.ratio, score_cutoff=CJK_FUZZY_SCORE)
        return (self.cjk[hit[0]], hit[1]) if hit else None

    def _cjk_scan(self, query: str, taken) -> list[CardMention]:
        out = []
        # A Chinese question (no kana) names a card in 3 or 4 characters unquoted too (钻石雄狮), when the
        # name is no phrase of the Chinese CR and no Japanese name (:func:`_short_zh`).
        lengths = self.cjk_lengths + ([MIN_CJK - 1 - i for i in range(MIN_CJK - MIN_ZH)]
                                      if self.short_zh and not _KANA.search(query) else [])
        for run in _CJK.finditer(query):
            text = run.group(0)
            folded = fold_cjk(text)
            i = 0
            while i < len(folded):
                hit = None
                for length in lengths:  # longest first: a set lookup per length, not a scan of names
                    if i + length <= len(folded) and folded[i:i + length] in self.cjk and (
                            length >= MIN_CJK or folded[i:i + length] in self.short_zh):
                        hit = folded[i:i + length]
                        break
                if hit and hit in self.quoted_only:
                    hit = None
                if hit and not any(run.start() + i < e and s < run.start() + i + len(hit) for s, e in taken):
                    entry = self.cjk[hit]
                    out.append(self._mention(entry, text[i:i + len(hit)], "exact", 100.0, run.start() + i,
                                             run.start() + i + len(hit)))
                    i += len(hit)
                else:
                    i += 1
        return out

    def _latin_scan(self, query: str, taken, known=None, lower_names: bool = False) -> list[CardMention]:
        tokens = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(query.replace("-", " "))
                  if not _CJK.search(m.group(0))]
        if not tokens:
            return []
        words = [fold_word(t) for t, _, _ in tokens]
        # A sentence's first word is capitalised whatever it is ("… I'm at 0 life now. What happens?"):
        # its capital says no more there than at the start of the query.
        starts = {i for i, (_, s, _) in enumerate(tokens) if _starts_sentence(query, s)}
        # Capitals mean a name only where the query isn't capitalised throughout.
        capitals = sum(t[0].isupper() for t, _, _ in tokens) / len(tokens)
        capitals_say = capitals < 0.6
        out: list[CardMention] = []
        used = [any(s < e2 and s2 < e for s2, e2 in taken) for _, s, e in tokens]
        i = 0
        while i < len(words):
            if used[i]:
                i += 1
                continue
            hit = None
            lengths = sorted(self.lengths.get(words[i], ()), reverse=True)
            if 1 not in lengths and any(s in self.lengths for s in plural_of(words[i])):
                lengths.append(1)  # "two Tarmogoyfs": a one-word name in the plural
            for n in lengths:
                key = tuple(words[i:i + n])
                if len(key) != n or any(used[i:i + n]):
                    continue
                if key not in self.latin:  # "four Myr Enforcers": the name's last word in the plural
                    key = next((k for k in (key[:-1] + (s,) for s in plural_of(key[-1])) if k in self.latin), key)
                if key in self.latin and self._counts(key, tokens[i:i + n], 0 if i in starts else i, capitals_say,
                                                      lower_names):
                    hit = (key, n)
                    break
            if hit:
                key, n = hit
                longer = self._longer(words, used, i, n)
                if longer:  # "Urborg Tomb of Yawgmoht" is Urborg, Tomb of Yawgmoth misspelt, not Urborg
                    key, n, score = longer
                start, end = tokens[i][1], tokens[i + n - 1][2]
                out.append(self._mention(self.latin[key], query[start:end], "typo" if longer else "exact",
                                         longer[2] if longer else 100.0, start, end))
                if n == 1 and key[0] in self.first_word and not longer \
                        and (i + 1 >= len(words) or words[i + 1] != self.first_word[key[0]][1]) \
                        and self._printed(self.first_word[key[0]]) > self._printed(key):
                    # "Urborg" is a card, and what most who type it mean: Urborg, Tomb of Yawgmoth.
                    out.append(self._mention(self.latin[self.first_word[key[0]]], query[start:end], "partial",
                                             90.0, start, end))
                for j in range(i, i + n):
                    used[j] = True
                i += n
                continue
            i += 1
        # Typos and a long name's first word: only in words no name or dictionary has as typed.
        for i, w in enumerate(words):
            if used[i] or len(w) < 4 or not self.is_rare(w):
                continue
            tied = self._by_context(w, words) if w in self.first_word_ties else None
            if tied or w in self.first_word and (i + 1 >= len(words) or words[i + 1] != self.first_word[w][1]):
                key = tied or self.first_word[w]
                start, end = tokens[i][1], tokens[i][2]
                out.append(self._mention(self.latin[key], query[start:end], "partial", 90.0, start, end))
                used[i] = True
                continue
            best = None
            rules_word = None
            for key in self._candidates((w,)):
                n = len(key)
                for first in range(max(0, i - n + 1), i + 1):
                    window = tuple(words[first:first + n])
                    if len(window) != n or any(used[first:first + n]):
                        continue
                    score = self._score(window, key)
                    if score >= FUZZY_SCORE and (best is None or score > best[0]):
                        if n == 1:  # the typo corrector is slow (~20 ms a word): asked last, once
                            if rules_word is None:
                                rules_word = self._knows(known, w)
                            if rules_word:
                                continue
                        best = (score, key, first, n)
            if best:
                score, key, first, n = best
                start, end = tokens[first][1], tokens[first + n - 1][2]
                out.append(self._mention(self.latin[key], query[start:end], "typo", score, start, end))
                for j in range(first, first + n):
                    used[j] = True
        if not lower_names and any(" " in m.typed and m.typed == m.typed.lower() != m.name for m in out):
            # One name of several words typed in lower case ("compelling deterrance targetting drake haven"):
            # this asker types names so, and a name of common words counts in lower case too.
            return self._latin_scan(query, taken, known, lower_names=True)
        return out

    def _knows(self, known, word: str) -> bool:
        """``known(word)``, remembered: the corrector reads the same database as this index, so its
        answer for a word never changes while the index lives (a dict: safe across threads)."""
        if known is None:
            return False
        if word not in self.known_words:
            self.known_words[word] = bool(known(word))
        return self.known_words[word]

    def _longer(self, words: list[str], used: list[bool], i: int, n: int):
        """A longer name beginning at ``i`` that the words there misspell: (key, length, score)."""
        best = None
        for key in self.by_word.get(words[i], ()):
            m = len(key)
            if m <= n or key[0] != words[i] or i + m > len(words) or any(used[i:i + m]):
                continue
            score = self._score(tuple(words[i:i + m]), key)
            # The words after the one typed right must be the name's, misspelt: "Archaeomancer and" is
            # Archaeomancer, not Archaeomancer's Map (the long first word carries the whole score).
            if (score >= FUZZY_SCORE and (best is None or score > best[2])
                    and self._tail(tuple(words[i + n:i + m]), key[n:]) >= FUZZY_SCORE):
                best = (key, m, score)
        return best

    def _printed(self, key: tuple[str, ...]) -> int:
        return self.printings.get(self.latin[key].card_id, 0)

    @staticmethod
    def _tail(typed: tuple[str, ...], name: tuple[str, ...]) -> float:
        """How closely the rest of a longer name is typed.

        >>> CardNames._tail(("and",), ("map",)) < 50 < CardNames._tail(("tomb", "of", "yawgmoht"), ("tomb", "of", "yawgmoth"))
        True
        """
        from rapidfuzz import fuzz

        return fuzz.ratio(" ".join(typed), " ".join(name))

    def _counts(self, key: tuple[str, ...], typed: list, position: int, capitals_say: bool,
                lower_names: bool = False) -> bool:
        """Whether a name found as typed names the card here (common words need capitals, unless the
        query types another name of several words in lower case: ``lower_names``)."""
        joined = " ".join(key)
        if joined in self.quoted_only:
            return False
        if not self.is_plain(key) or key in self.lowercase:
            return True
        if lower_names and len(key) >= 2 and not any(t[0][0].isupper() for t in typed):
            return True
        if not capitals_say or position == 0:
            return False
        # Every word the name capitalises is capitalised as typed ("Blood Moon", "Act of Treason").
        return all(t[0][0].isupper() for t, w in zip(typed, key) if w not in _STOP)

    def _candidates(self, words: tuple[str, ...]) -> set[tuple[str, ...]]:
        """Names sharing a rare word with ``words``, or a word within an edit of one of them."""
        from rapidfuzz import process
        from rapidfuzz.distance import DamerauLevenshtein

        out: set = set()
        for w in words:
            if w in self.by_word:
                out |= self.by_word[w]
                continue
            if len(w) < 5:
                continue
            near = self.by_prefix.get(w[:3], set()) | self.by_prefix.get(w[:2] + w[3:4], set())
            if not near:
                continue
            for word, distance, _ in process.extract(w, list(near), scorer=DamerauLevenshtein.distance,
                                                     score_cutoff=1 if len(w) < 8 else 2, limit=5):
                out |= self.by_word.get(word, set())
        return out

    def _score(self, window: tuple[str, ...], key: tuple[str, ...]) -> float:
        from rapidfuzz import fuzz

        typed, name = " ".join(window), " ".join(key)
        if len(name) < MIN_FUZZY or typed == name:
            return 0.0
        return fuzz.ratio(typed, name)

    def _fuzzy(self, words: tuple[str, ...], candidates) -> tuple[_Entry, float] | None:
        best = None
        for key in candidates:
            score = self._score(words, key)
            if score >= FUZZY_SCORE and (best is None or score > best[1]):
                best = (self.latin[key], score)
        return best


_INDEXES: dict[str, tuple[int | None, CardNames]] = {}
_LOCK = threading.Lock()


def _path(conn) -> str:
    row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
    return row[2] if row and row[2] else f"memory:{id(conn)}"


def card_names(conn) -> CardNames | None:
    """The name index of the database ``conn`` is open on (None without card tables), built once
    per file and process; threads asking at once wait for the one that builds it."""
    path = _path(conn)
    stamp = os.stat(path).st_mtime_ns if os.path.exists(path) else None
    cached = _INDEXES.get(path)
    if cached and cached[0] == stamp:
        return cached[1]
    with _LOCK:
        cached = _INDEXES.get(path)
        if cached and cached[0] == stamp:
            return cached[1]
        if not conn.execute("select 1 from sqlite_master where name = 'card_aliases'").fetchone():
            return None
        index = _build(conn)
        _INDEXES[path] = (stamp, index)
        return index


def _build(conn) -> CardNames:
    rows = conn.execute("select key, alias, lang, card_id, kind from card_aliases").fetchall()
    names, printings = {}, {}
    for card_id, name, count in conn.execute("select id, name_en, printings from cards"):
        names[card_id], printings[card_id] = name, count or 0
    words = {w for _, alias, _, _, _ in rows if alias and not _CJK.search(alias) for w in name_words(alias)}
    common = _common_words(conn, words)
    quoted_only = _quoted_only(conn)
    sets = set()
    if conn.execute("select 1 from sqlite_master where name = 'card_sets'").fetchone():
        sets = {" ".join(name_words(n)) for (n,) in conn.execute("select name from card_sets") if n}
    index = CardNames(rows, common=common, quoted_only=quoted_only, printings=printings, set_names=sets,
                      lowercase=_lowercase_names(conn, rows, common), short_zh=_short_zh(conn, rows, quoted_only))
    index.card_names.update(names)
    tied = {index.latin[k].card_id for keys in index.first_word_ties.values() for k in keys}
    if tied:
        marks = ",".join("?" * len(tied))
        for card_id, text in conn.execute(f"select id, coalesce(text, '') || ' ' || coalesce(faces_text, '')"
                                          f" from cards where id in ({marks})", sorted(tied)):
            index.text_words[card_id] = {w for w in name_words(text) if _content_word(w)}
    return index


def _common_words(conn, words: set[str]) -> set[str]:
    """The words of card names that are ordinary English or the rules' own words."""
    from wordfreq import get_frequency_dict

    from .query import STOPWORDS

    frequency = get_frequency_dict("en")  # word → share of all words; Zipf = log10(share) + 9
    least = 10 ** (COMMON_ZIPF - 9)
    common = {w for w in words if w in STOPWORDS or len(w) < 3 or frequency.get(w, 0.0) >= least}
    newest = conn.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'").fetchone()
    if newest and newest[0]:
        rule_words: set[str] = set()
        for (text,) in conn.execute("select coalesce(title, '') || ' ' || coalesce(text, '') from rules"
                                    " where release = ? and lang = 'en'", [newest[0]]):
            rule_words.update(fold_word(w) for w in _WORD.findall(text))
        common |= words & rule_words
    return common


def _lowercase_names(conn, rows, common: set[str]) -> set[tuple[str, ...]]:
    """Names of common words that still name a card typed in lower case ("rite of replication",
    "cavern of souls"): three words or more, two of them not function words, one of those less
    common than :data:`LOWERCASE_ZIPF` (no phrase of everyday English: not "a good thing", "aid the
    fallen"), and the name no phrase of the rules ("two-headed giant", "city of brass" in an example)."""
    from wordfreq import get_frequency_dict

    frequency = get_frequency_dict("en")
    least = 10 ** (LOWERCASE_ZIPF - 9)
    keys = set()
    for _key, alias, lang, _card_id, _kind in rows:
        if lang != "en" or not alias or _CJK.search(alias):
            continue
        words = name_words(alias)
        content = [w for w in words if w not in _STOP]
        if (len(words) >= 3 and len(content) >= 2 and all(w in common for w in words)
                and any(frequency.get(w, 0.0) < least for w in content)):
            keys.add(words)
    newest = conn.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'").fetchone()
    if keys and newest and newest[0]:
        # The rules' three-word phrases: a name all of whose are there is a phrase of the rules.
        trigrams: set[tuple[str, ...]] = set()
        for (t,) in conn.execute("select coalesce(title, '') || ' ' || coalesce(text, '') from rules"
                                 " where release = ? and lang = 'en'", [newest[0]]):
            w = name_words(t)
            trigrams.update(zip(w, w[1:], w[2:]))
        keys = {k for k in keys if not all(g in trigrams for g in zip(k, k[1:], k[2:]))}
    return keys


def _content_word(word: str) -> bool:
    """A word that can tell two cards' texts apart: four letters or more, no function word."""
    from .query import STOPWORDS

    return len(word) >= 4 and word not in STOPWORDS and word not in _STOP and not word.isdigit()


def _short_zh(conn, rows, quoted_only: set[str]) -> set[str]:
    """Folded Chinese names of :data:`MIN_ZH` to ``MIN_CJK - 1`` characters that name a card unquoted
    in a question without kana: not a Japanese name too (a Japanese question's kanji), not a
    keyword's Chinese name, and no phrase of the Chinese CR (反击咒语, 记忆丧失, 从未发生 are words there)."""
    def fold(t: str) -> str:
        return fold_cjk(t).replace(" ", "").replace("・", "")

    short = {fold(a) for _k, a, lang, _c, _kind in rows if lang == "zh" and a and MIN_ZH <= len(fold(a)) < MIN_CJK}
    short -= {fold(a) for _k, a, lang, _c, _kind in rows if lang != "zh" and a and _CJK.search(a)}
    short -= quoted_only
    tables = {r[0] for r in conn.execute("select name from sqlite_master")}
    if "keyword_translations" in tables:
        short -= {fold(n) for (n,) in conn.execute("select name from keyword_translations where lang = 'zh'") if n}
    newest = conn.execute("select max(release) from rules where lang = 'zh'").fetchone()
    if short and newest and newest[0]:
        text = "".join(fold(t) for (t,) in conn.execute(
            "select coalesce(title, '') || coalesce(text, '') from rules where lang = 'zh' and release = ?", newest))
        short = {k for k in short if k not in text}
    return short


def _quoted_only(conn) -> set[str]:
    """Names that are also keywords, glossary terms or basic lands, in any language: only a quoted
    one names a card (folded as :meth:`CardNames.find` compares them)."""
    terms: set[str] = set()
    tables = {r[0] for r in conn.execute("select name from sqlite_master")}
    if "keyword_names" in tables:
        terms |= {t for row in conn.execute("select name_en, name_ja from keyword_names") for t in row if t}
    if "glossary" in tables:
        terms |= {t for (t,) in conn.execute("select term from glossary") if t}
    basics = [r[0] for r in conn.execute(
        "select id from cards where supertypes like '%Basic%' or type_line like 'Basic%'")]
    if basics:
        marks = ",".join("?" * len(basics))
        terms |= {a for (a,) in conn.execute(f"select alias from card_aliases where card_id in ({marks})", basics)}
    return {fold_cjk(t).replace(" ", "").replace("・", "") if _CJK.search(t) else " ".join(name_words(t))
            for t in terms}
