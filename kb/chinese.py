"""Chinese text for search: normalise, then segment into words with rjieba (jieba in Rust).

The interface is :mod:`kb.japanese`'s: :func:`search_form` is what the build
stores beside each Chinese text and full-text search indexes;
:func:`segment_query` turns a query into the FTS5 phrases that must all match;
:func:`content_keys` and :func:`highlight` mark the matched words of a
snippet in the text as printed.

Why rjieba: jieba's dictionary and algorithm (MIT), compiled (a 3.7 MB wheel,
dictionary inside, nothing written to disk or fetched at run time; jieba
itself is a 19 MB source package that builds a cache file on first use). Its
``Jieba`` is a Rust object whose segmenting methods only read it, so the one
segmenter is shared by Datasette's threads (``tests/test_segmenters.py`` runs
it from several threads at once).

1. :func:`normalize`: NFKC (full-width letters, digits and signs become ASCII;
   the displayed text is never changed).
2. Words: jieba's dictionary segmentation (``hmm=False``: words the
   dictionary does not know come out as single characters rather than as
   guesses, so a text and a query split the same way far more often: 2.2 %
   of the CR's own terms are segmented otherwise inside a rule than alone,
   against 5.7 % with the HMM guesser).
3. The search form is those words, then the text's characters one by one
   (Han characters apart, Latin words and numbers whole): a query phrase is
   searched as its words *or* as its characters, so a term the segmenter
   splits otherwise inside a sentence (坟墓场 in 坟墓场里) is still found, and
   a match of the words ranks above one of characters alone.

>>> search_form("派出衍生物。")
'派出 衍生物 派 出 衍 生 物'
>>> search_form("倾探4")  # not in jieba's dictionary: characters already, stored once
'倾 探 4'
>>> segment_query("从你的牌库顶放逐")
['牌 库 顶', '放逐']
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass

LANG = "zh"

_HAN = r"\u3400-\u9fff\uf900-\ufaff"
_HAN_CHAR = re.compile(f"[{_HAN}]")
# One character of the character stream: a Han character, or a run of letters and digits.
_CHAR_TOKEN = re.compile(rf"[{_HAN}]|[0-9A-Za-z]+(?:['’][A-Za-z]+)?")
_LATIN = re.compile(r"^[0-9A-Za-z][0-9A-Za-z'’.\-]*$")
# jieba's part-of-speech tags that end a run of content words in a query: particles
# (u, uj 的, ul 了, …), prepositions, conjunctions, pronouns, modal particles,
# interjections, onomatopoeia and punctuation (x).
_FUNCTION_TAGS = re.compile(r"^(?:u\w*|p|c|r\w*|y|e|o|x|w)$")
_JOINERS = {"·", "・", "/"}

_lock = threading.Lock()


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rjieba")
    except PackageNotFoundError:  # pragma: no cover - the package is a dependency
        return "unknown"


# What the search forms depend on: bump the first part when this module's rules change.
SEGMENTER_VERSION = f"2-rjieba-{_package_version()}"


_SEGMENTER: list = []


def _segmenter():
    """The one rjieba segmenter, built once under a lock (its dictionary loads in about 0.2 s)."""
    if not _SEGMENTER:
        with _lock:
            if not _SEGMENTER:
                import rjieba

                _SEGMENTER.append(rjieba.Jieba())
    return _SEGMENTER[0]


def normalize(text: str) -> str:
    """NFKC: full-width letters, digits and signs as ASCII.

    >>> normalize("＋１／＋１指示物")
    '+1/+1指示物'
    """
    return unicodedata.normalize("NFKC", text)


@dataclass(frozen=True)
class Token:
    """A word of a text: its ``key`` (what search compares), part of speech and place in the text."""

    surface: str
    key: str
    pos: str
    begin: int
    end: int

    @property
    def is_punctuation(self) -> bool:
        return not self.key.strip() or not re.search(r"\w", self.key)

    @property
    def is_function(self) -> bool:
        return bool(_FUNCTION_TAGS.match(self.pos)) and self.surface not in _JOINERS


def _key(surface: str) -> str:
    plain = normalize(surface)
    return plain.lower() if _LATIN.match(plain) else plain


def tokens(text: str) -> list[Token]:
    """Every word of ``text`` (as given), punctuation included, with its part of speech.

    >>> [(t.surface, t.pos) for t in tokens("放逐的生物")]
    [('放逐', 'v'), ('的', 'uj'), ('生物', 'n')]
    """
    segmenter = _segmenter()
    out: list[Token] = []
    at = 0
    for word, pos in segmenter.tag(text, False):
        begin = text.find(word, at)
        if begin < 0:
            begin = at
        out.append(Token(word, _key(word), pos, begin, begin + len(word)))
        at = begin + len(word)
    return out


def words(text: str) -> list[str]:
    """The key forms of the words of ``text`` (normalised first), punctuation dropped.

    >>> words("派出一个衍生物。")
    ['派出', '一个', '衍生物']
    """
    out = []
    for word in _segmenter().cut(normalize(text), False):
        key = _key(word)
        if key.strip() and re.search(r"\w", key):
            out.append(key)
    return out


def characters(text: str) -> list[str]:
    """The character stream of ``text`` (normalised): Han characters one by one, other words whole.

    >>> characters("倾探N：法术力值")
    ['倾', '探', 'n', '法', '术', '力', '值']
    """
    return [t.lower() for t in _CHAR_TOKEN.findall(normalize(text))]


def search_form(text: str) -> str:
    """What full-text search indexes for a Chinese ``text``: its words, then its characters."""
    found = words(text)
    chars = characters(text)
    return " ".join(found + chars) if chars != found else " ".join(found)


def query_runs(query: str) -> list[list[str]]:
    """The content-word runs of a query, as lists of keys: function words and punctuation split
    them, and a verb stands alone (Chinese has no particle between a noun and its verb, and
    the text often puts words between them: 从你的牌库顶开始放逐).

    >>> query_runs("坟墓场的牌")
    [['坟墓', '场'], ['牌']]
    """
    runs: list[list[str]] = [[]]
    for t in tokens(normalize(query)):
        if t.is_function or t.is_punctuation:
            if runs[-1]:
                runs.append([])
        elif t.pos.startswith("v") and len(t.key) >= 2:
            runs.extend([[t.key], []])
        else:
            runs[-1].append(t.key)
    return [r for r in runs if r]


def segment_query(query: str) -> list[str]:
    """A Chinese query as FTS5 phrases, all of which must be found (one per run of content words)."""
    return [" ".join(run) for run in query_runs(query)]


def phrase_alternatives(phrase: str) -> list[str]:
    """The ways a query phrase is searched: as its words, and as its characters (see the module docstring).

    >>> phrase_alternatives("坟墓 场")
    ['坟墓 场', '坟 墓 场']
    >>> phrase_alternatives("放逐")
    ['放逐', '放 逐']
    >>> phrase_alternatives("牌")
    ['牌']
    """
    chars = " ".join(characters(phrase.replace(" ", "")))
    return [phrase] if chars == phrase else [phrase, chars]


def content_keys(text: str) -> set[str]:
    """The keys of the content words of ``text``: the words a snippet marks.

    >>> sorted(content_keys("从牌库顶放逐"))
    ['库', '放逐', '牌', '顶']
    """
    return {t.key for t in tokens(normalize(text)) if not t.is_function and not t.is_punctuation}


def highlight(text: str, keys: set[str], *, width: int = 80, mark: tuple[str, str] = ("[", "]")) -> str:
    """A snippet of the displayed ``text`` around the first place a key occurs, each occurrence marked.

    Chinese words do not inflect, so a key is found in the printed text as it is
    (after NFKC, which keeps the length of CJK text).

    >>> highlight("于此异能结算时，其操控者派出一个塔莫耶夫衍生物。", {"衍生物"}, width=12)
    '…塔莫耶夫[衍生物]。'
    """
    plain = normalize(text)
    if len(plain) != len(text):
        plain = text
    spans = []
    for key in sorted((k for k in keys if k), key=len, reverse=True):
        for m in re.finditer(re.escape(key), plain, flags=re.IGNORECASE):
            if not any(a < m.end() and m.start() < b for a, b in spans):
                spans.append((m.start(), m.end()))
    if not spans:
        return text if len(text) <= width else text[:width] + "…"
    spans.sort()
    begin = max(0, spans[0][0] - width // 3)
    end = min(len(text), begin + width)
    out, at = [], begin
    for a, b in spans:
        if a < begin or b > end or a < at:
            continue
        out.append(text[at:a])
        out.append(f"{mark[0]}{text[a:b]}{mark[1]}")
        at = b
    out.append(text[at:end])
    return ("…" if begin > 0 else "") + "".join(out) + ("…" if end < len(text) else "")


def has_chinese(text: str) -> bool:
    """True when ``text`` has a Han character (it may be Japanese too: the caller decides).

    >>> has_chinese("倾探"), has_chinese("discover")
    (True, False)
    """
    return bool(_HAN_CHAR.search(text))
