"""Japanese text for search: normalise, then segment into words with SudachiPy.

SQLite's tokenizers cannot search Japanese: ``unicode61`` takes a whole
sentence as one token and ``trigram`` finds nothing for one- or two-character
words (発見, 墓地). So the build stores, beside each Japanese text, its search
form: NFKC-normalised (full-width digits and letters become ASCII), the stray
spaces the source puts between Japanese words removed, then split into words
(SudachiPy, core dictionary, the finest split mode A) and each word written in
its dictionary form, space separated. Queries go through the same steps, so
``探し`` finds ``探す``. The displayed text is never changed.

>>> search_form("あなたの ライブラリーから探し、墓地に置く。")
'あなた の ライブラリー から 探す 墓地 に 置く'
>>> segment_query("発見を行う")
['発見 を 行う']
"""

from __future__ import annotations

import functools
import re
import unicodedata

_JA_CHAR = r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u3005\u30fc]"
# A space between two Japanese characters is a typesetting artefact of the source.
_STRAY_SPACE = re.compile(rf"(?<={_JA_CHAR})[ \u3000]+(?={_JA_CHAR})")
_PUNCTUATION = re.compile(r"[\s、。，．・「」『』（）()〔〕［］\[\]【】《》〈〉“”\"'’！？!?：:；;／/…—–\-~〜]+")


def normalize(text: str) -> str:
    """NFKC, and no stray spaces between Japanese words.

    >>> normalize("ライブラリーの　一番上　１枚")
    'ライブラリーの一番上 1枚'
    """
    text = unicodedata.normalize("NFKC", text)
    return _STRAY_SPACE.sub("", text)


@functools.lru_cache(maxsize=1)
def _tokenizer():
    from sudachipy import Dictionary, SplitMode

    return Dictionary(dict="core").create(SplitMode.A)


def words(text: str) -> list[str]:
    """The words of ``text`` in dictionary form, punctuation dropped."""
    out: list[str] = []
    for chunk in _PUNCTUATION.split(normalize(text)):
        if not chunk:
            continue
        for m in _tokenizer().tokenize(chunk):
            form = m.dictionary_form()
            if form.strip():
                out.append(form.lower())
    return out


def search_form(text: str) -> str:
    """What full-text search indexes for a Japanese ``text``."""
    return " ".join(words(text))


def segment_query(query: str) -> list[str]:
    """A Japanese query word as FTS5 phrases: its words, to be found next to each other."""
    found = words(query)
    return [" ".join(found)] if found else []
