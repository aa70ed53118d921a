"""The words a ruling and a rule are compared by: English stems and Japanese keys.

English: lower case, possessives and a few irregular forms folded, then a light
suffix stemmer, so that "explores", "explored" and "exploring" meet "explore"
and "scries" meets "scry". Japanese: the key forms the build already stores in
``search_ja`` (SudachiPy dictionary forms: 探し → 探す), particles, auxiliaries and
light verbs dropped. Words too common to tell rules apart weigh little anyway
(:mod:`kb.ruling_links.index` weighs by inverse document frequency).

>>> english_terms("If a creature explores, it explored; the players' libraries.")
['creatur', 'explor', 'explor', 'player', 'library']
>>> english_terms("scries, searched, copies")
['scry', 'search', 'copy']
>>> japanese_terms("カード を 非 公開 領域 から 探す 必要 は 無い")
['カード', '非', '公開', '領域', '探す', '必要', '無い']
"""

from __future__ import annotations

import functools
import re

# Function words: they carry no rule's meaning.
ENGLISH_STOPWORDS = frozenset("""
a an the and or but nor of to in on at by for from with without into onto as than then that this these those
it its it's they them their there here is are was were be been being has have had do does did
if so not no can can't cannot could would should may might must will won't isn't aren't doesn't don't
any each all some such other another which who whom whose what when whenever where while how
you your yours he she his her we our one ones only also even just still again more most less
""".split())

_IRREGULAR = {
    "dies": "die", "died": "die", "dying": "die", "chose": "choos", "chosen": "choos", "drew": "draw",
    "drawn": "draw", "paid": "pay", "lost": "lose", "dealt": "deal", "gave": "give", "given": "give",
    "left": "leave", "put": "put", "has": "have", "had": "have", "does": "do", "did": "do",
    "found": "find", "took": "take", "taken": "take", "won": "win", "cast": "cast", "copies": "copy",
    "libraries": "library", "abilities": "ability", "its": "it",
}
FOLD_RENAMED = True  # fold the CR's renamed terms (fold_renamed_terms) before stemming
_SUFFIXES = (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))
_WORD = re.compile(r"[a-z0-9][a-z0-9'+/-]*")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix stemmer (enough for the CR's and rulings' vocabulary).

    >>> [stem(w) for w in ("explore", "explores", "exploring", "searches", "mills", "milled", "scried")]
    ['explor', 'explor', 'explor', 'search', 'mill', 'mill', 'scry']
    """
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            word = word[: len(word) - len(suffix)] + replacement
            break
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


@functools.lru_cache(maxsize=8192)
def _english_terms(text: str) -> tuple[str, ...]:
    return tuple(_english_terms_uncached(text))


def english_terms(text: str) -> list[str]:
    """The stems of the content words of an English text, in order (kept for texts seen lately)."""
    return list(_english_terms(text))


# The CR's renamed terms, folded to today's wording on both sides, so a ruling written in an older term meets
# the rule in its newer one: "converted mana cost" is "mana value" (CR 202.3, renamed 2021), "comes into play"
# is "enters" (2009, then "enters the battlefield" shortened to "enters", 2024), "in play" is "on the
# battlefield", "removed from the game" is "exiled" (2009), and "dies" is the CR's word (General — CR 700.4) for
# "is put into a graveyard from the battlefield", which many rules still spell out.
_RENAMED = (
    (re.compile(r"\bconverted mana costs?\b"), "mana value"),
    (re.compile(r"\b(?:comes?|came|coming) into play\b"), "enters"),
    (re.compile(r"\bleaves? play\b"), "leaves the battlefield"),
    (re.compile(r"\binto play\b"), "onto the battlefield"),
    (re.compile(r"\bin play\b"), "on the battlefield"),
    (re.compile(r"\bremoved? from the game\b"), "exiled"),
    (re.compile(r"\b(?:is|are|was|were|be|been|being) put into (?:a|an|its|their|that|your|his or her)(?: owner's| owners'|"
                r" owners')? graveyards? from the battlefield\b"), "dies"),
)


def fold_renamed_terms(text: str) -> str:
    """A lower-cased text with the CR's renamed terms in today's wording.

    >>> fold_renamed_terms("if it comes into play, its converted mana cost; it is put into its owner's graveyard from the battlefield")
    'if it enters, its mana value; it dies'
    """
    for pattern, new in _RENAMED:
        text = pattern.sub(new, text)
    return text


def _english_terms_uncached(text: str) -> list[str]:
    text = text.lower().replace("’", "'")
    if FOLD_RENAMED:
        text = fold_renamed_terms(text)
    out = []
    for word in _WORD.findall(text):
        word = word.strip("'-/")
        if word.endswith("'s"):
            word = word[:-2]
        if not word or word in ENGLISH_STOPWORDS or word.isdigit():
            continue
        out.append(stem(word))
    return out


# Particles, auxiliaries, light verbs and forms that follow them in a search form.
JAPANESE_STOPWORDS = frozenset("""
の に を は が と で から も へ や より まで か な だ です ます て た ない ず ぬ れる られる せる させる
為る 行う 成る 居る 有る 出来る 此の 其の 彼の 此れ 其れ 彼れ 等 事 物 場合 ば けれど ても でも たり
ね よ さ 御 ござる 様 又 及び 或いは 若しくは 並びに 但し 即ち
""".split())


def japanese_terms(search_form: str) -> list[str]:
    """The content keys of a Japanese text's search form (``kb.japanese.search_form``)."""
    return [w for w in search_form.split() if w not in JAPANESE_STOPWORDS and not w.isdigit()]


def with_pairs(terms: list[str]) -> list[str]:
    """The terms and each pair of neighbours (``illegal_target``): pairs tell rules apart better than words.

    >>> with_pairs(["illegal", "target", "resolv"])
    ['illegal', 'target', 'resolv', 'illegal_target', 'target_resolv']
    """
    return terms + [f"{a}_{b}" for a, b in zip(terms, terms[1:])]

