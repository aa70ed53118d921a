"""Korean text for search: normalise, then analyse into morphemes with Kiwi (kiwipiepy).

The interface is :mod:`kb.japanese`'s: :func:`search_form` is what the build
stores beside each Korean text and full-text search indexes; :func:`segment_query`
turns a query into the FTS5 phrases that must all match; :func:`content_keys`
and :func:`highlight` mark the matched words of a snippet in the printed text.

Why Kiwi: a Korean morphological analyser that ships its model in a package
(``kiwipiepy`` 11.7 MB wheel and ``kiwipiepy_model``, 88 MB, both Apache-2.0;
nothing is fetched at run time). Korean words are a stem and particles or
endings glued together (서고에서, 찾습니다), so whitespace or FTS5's unicode61
would index 서고에서 as one word. Loading the model takes 3-4 s, so it is loaded
once, on first use, under a lock; Kiwi's author says one instance, built in one
thread, may then be used from many (bab2min/Kiwi#145), and
``tests/test_segmenters.py`` runs it from several threads at once.

Each morpheme is written in its *key* form: a verb or adjective as its
dictionary form (찾는다, 찾아, 찾기 → 찾다), Latin words in lower case, other
morphemes as they are. The search form keeps particles and endings (so that
words stay next to each other as in the text) and drops punctuation; a query
drops them, each run of content morphemes being one phrase.

>>> search_form("서고에서 카드를 찾습니다.")
'서고 에서 카드 를 찾다 습니다'
>>> segment_query("서고에서 찾기")
['서고', '찾다']
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass

LANG = "ko"

_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
_LATIN = re.compile(r"^[0-9A-Za-z][0-9A-Za-z'’.\-]*$")
# Kiwi's tags (Sejong tag set): J* particles, E* endings, X* affixes (하 in 추방하다),
# VCP the copula 이다, S* punctuation and symbols (SL foreign words, SH hanja and SN
# numbers are words).
_FUNCTION_TAG = re.compile(r"^(?:J\w*|E\w*|XS\w*|XP\w*|VCP|VX)$")
_PUNCTUATION_TAG = re.compile(r"^(?:SF|SP|SS\w*|SE|SO|SW|SB|W_\w+|Z\w*)$")
_LEMMA_TAGS = ("VV", "VA", "VX", "VCN")

_lock = threading.Lock()


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kiwipiepy")
    except PackageNotFoundError:  # pragma: no cover - the package is a dependency
        return "unknown"


# What the search forms depend on: bump the first part when this module's rules change.
SEGMENTER_VERSION = f"1-kiwipiepy-{_package_version()}"


_ANALYSER: list = []


def _analyser():
    """The one Kiwi instance, built once under a lock (3-4 s, 88 MB): two first Korean queries
    arriving together on the web wait for the one build, not each do their own."""
    if not _ANALYSER:
        with _lock:
            if not _ANALYSER:
                from kiwipiepy import Kiwi

                _ANALYSER.append(Kiwi())
    return _ANALYSER[0]


def normalize(text: str) -> str:
    """NFKC: full-width letters, digits and signs as ASCII; Hangul stays composed.

    >>> normalize("＋１／＋１ 카운터")
    '+1/+1 카운터'
    """
    return unicodedata.normalize("NFKC", text)


@dataclass(frozen=True)
class Token:
    """A morpheme: its ``key`` (what search compares), tag and place in the text."""

    surface: str
    key: str
    pos: str
    begin: int
    end: int

    @property
    def is_punctuation(self) -> bool:
        return bool(_PUNCTUATION_TAG.match(self.pos)) or not self.key.strip()

    @property
    def is_function(self) -> bool:
        return bool(_FUNCTION_TAG.match(self.pos))


def _key(form: str, tag: str, lemma: str | None) -> str:
    if tag.startswith(_LEMMA_TAGS) and lemma:
        return lemma
    plain = normalize(form)
    return plain.lower() if _LATIN.match(plain) else plain


def tokens(text: str) -> list[Token]:
    """Every morpheme of ``text`` (as given), with its tag and offsets in ``text``.

    >>> [(t.surface, t.key, t.pos) for t in tokens("찾는다")]
    [('찾', '찾다', 'VV'), ('는다', '는다', 'EF')]
    """
    if not text.strip():
        return []
    out = []
    for m in _analyser().tokenize(text):
        tag = str(m.tag).split("-")[0]  # "VV-R" (regular verb) is a VV
        out.append(Token(m.form, _key(m.form, tag, getattr(m, "lemma", None)), tag, m.start, m.start + m.len))
    return out


def words(text: str) -> list[str]:
    """The key forms of the morphemes of ``text`` (normalised first), punctuation dropped.

    >>> words("무덤에 놓인 카드")
    ['무덤', '에', '놓이다', 'ᆫ', '카드']
    """
    return [t.key for t in tokens(normalize(text)) if not t.is_punctuation]


def search_form(text: str) -> str:
    """What full-text search indexes for a Korean ``text``."""
    return " ".join(words(text))


def query_runs(query: str) -> list[list[str]]:
    """The content-morpheme runs of a query, as lists of keys.

    >>> query_runs("전투피해단에 추방하다")
    [['전투', '피해', '단'], ['추방']]
    """
    runs: list[list[str]] = [[]]
    for t in tokens(normalize(query)):
        if t.is_function or t.is_punctuation:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(t.key)
    return [r for r in runs if r]


def segment_query(query: str) -> list[str]:
    """A Korean query as FTS5 phrases, all of which must be found."""
    return [" ".join(run) for run in query_runs(query)]


def content_keys(text: str) -> set[str]:
    """The keys of the content morphemes of ``text``: the words a snippet marks.

    >>> sorted(content_keys("서고에서 찾기"))
    ['서고', '찾다']
    """
    return {t.key for t in tokens(normalize(text)) if not t.is_function and not t.is_punctuation}


def highlight(text: str, keys: set[str], *, width: int = 80, mark: tuple[str, str] = ("[", "]")) -> str:
    """A snippet of the displayed ``text`` around the first morpheme whose key is in ``keys``,
    each such morpheme marked (a verb is marked by its stem: [찾]습니다).

    >>> highlight("당신은 서고에서 카드를 찾습니다.", {"찾다"}, width=12)
    '…카드를 [찾]습니다.'
    """
    found = [t for t in tokens(text) if keys and t.key in keys]
    if not found:
        return text if len(text) <= width else text[:width] + "…"
    begin = max(0, found[0].begin - width // 3)
    end = min(len(text), begin + width)
    out, at = [], begin
    for t in found:
        if t.begin < begin or t.end > end or t.begin < at:
            continue
        out.append(text[at:t.begin])
        out.append(f"{mark[0]}{text[t.begin:t.end]}{mark[1]}")
        at = t.end
    out.append(text[at:end])
    return ("…" if begin > 0 else "") + "".join(out) + ("…" if end < len(text) else "")


def has_korean(text: str) -> bool:
    """True when ``text`` has Hangul.

    >>> has_korean("찾기"), has_korean("探す")
    (True, False)
    """
    return bool(_HANGUL.search(text))
