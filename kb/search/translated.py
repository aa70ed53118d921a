"""Questions typed in Chinese or Korean: read by their own segmenter, searched in their own CR.

The question-answering search (:mod:`.engine`) reads English and Japanese;
a judge in Shanghai or Seoul types 践踏伤害怎么分配？ or 선제공격은 어떻게 작동하나요?.
:func:`readings` reads such a query for the Chinese and Korean CR rows of
``search_current`` (their search forms were written by :mod:`kb.chinese` and
:mod:`kb.korean`), giving, per language:

- the content words (jieba's and Kiwi's parts of speech drop particles,
  pronouns, question words and endings; a few light verbs and question nouns
  are dropped by name), each an FTS5 phrase; a Chinese word is also searched as
  its characters, as the build indexed them;
- the keyword and glossary names it contains (``keyword_translations``:
  践踏 is trample, 선제공격 first strike), as English keys, so that the English
  and Japanese rules are found through them;
- whether the query is in that language alone: Hangul is Korean; Han characters
  are Chinese alone when one of them is never used by the Japanese CR (飞, 么),
  and may be either otherwise (死触 reads in both).

>>> r = Reading("zh", words=["践踏", "伤害"], phrases=[], names=["trample"], dropped=["怎么"], only=True)
>>> [(t.phrase, t.origin) for t in r.terms()]
[('践踏', 'word'), ('践 踏', 'phrase'), ('伤害', 'word'), ('伤 害', 'phrase')]
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from .query import Term

LANGUAGES = ("zh", "ko")
_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
_KANA = re.compile("[\u3040-\u30ff\uff66-\uff9f]")
_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff]")

# Words the parts of speech keep that say nothing a rule says: light verbs, "happen", "question".
ZH_DROPPED = frozenset("""
是 有 会 能 可以 可 要 想 发生 怎样 请问 问题 规则 万智牌 裁判 时候 时 情况 一下 还能 能否 是否 可否
会不会 能不能 是不是 多少 几 呢 吗 吧 啊 呀 么 请 谢谢 知道 告诉 为何 为啥
""".split())
# jieba's tags dropped in a question beyond kb.chinese's function tags: adverbs (都, 还, 也), numerals
# written in characters (两个), measure words, time words, localisers.
_ZH_DROPPED_TAGS = re.compile(r"^(?:d\w*|m|mq|q\w*|t\w*|f)$")
KO_DROPPED = frozenset("""
하다 되다 있다 이다 아니다 어떻다 같다 경우 때 것 수 질문 규칙 룰 매직 어떤 무엇 뭐 무슨 왜 언제 어디 누구
""".split())
# Kiwi's tags dropped beyond kb.korean's function tags: pronouns (무엇, 이것), dependent nouns (수, 것),
# determiners (어떤, 이), adverbs (어떻게, 다시), conjunctive adverbs, interjections.
_KO_DROPPED_TAGS = re.compile(r"^(?:NP|NNB|MM|MAG|MAJ|IC)$")
MIN_NAME = 2  # characters: a one-character name (牌) is found in every question


@dataclass
class Reading:
    """A query read for the CR text of one language (see the module docstring)."""

    lang: str
    words: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)  # runs of more than one content word, to boost
    names: list[str] = field(default_factory=list)  # English keys of the names the query holds
    dropped: list[str] = field(default_factory=list)
    only: bool = False  # the query is in this language and no other

    def terms(self) -> list[Term]:
        """The FTS5 phrases searched in this language's text (a Chinese word also as its characters)."""
        out: list[Term] = []
        for word in self.words:
            out.append(Term(word, self.lang, "word", word))
            if self.lang == "zh" and len(word) > 1 and _HAN.search(word):
                out.append(Term(" ".join(word), self.lang, "phrase", word))
        out.extend(Term(p, self.lang, "phrase", p) for p in self.phrases)
        return list(dict.fromkeys(out))


_FACTS: dict = {}


def _cached(conn, name: str, compute):
    row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
    path = row[2] if row and row[2] else None
    if path is None or not os.path.exists(path):
        return compute()  # an in-memory database: an id() may be reused, so nothing is kept
    stamp = os.stat(path).st_mtime_ns
    key = (path, name)
    found = _FACTS.get(key)
    if found is None or found[0] != stamp:
        found = _FACTS[key] = (stamp, compute())
    return found[1]


def japanese_characters(conn) -> frozenset[str]:
    """The Han characters of the Japanese rows ``search_current`` holds (rules, glossary), once per file."""
    def compute() -> frozenset[str]:
        chars: set[str] = set()
        for (text,) in conn.execute("select coalesce(title, '') || coalesce(text, '') from search_current"
                                    " where lang = 'ja' and kind in ('rule', 'example', 'glossary')"):
            chars.update(_HAN.findall(text))
        return frozenset(chars)
    return _cached(conn, "japanese characters", compute)


def translated_names(conn) -> dict[str, dict[str, set[str]]]:
    """{lang: {name as typed, without spaces: English keys}} from ``keyword_translations``."""
    def compute() -> dict[str, dict[str, set[str]]]:
        out: dict[str, dict[str, set[str]]] = {lang: {} for lang in LANGUAGES}
        if not conn.execute("select 1 from sqlite_master where name = 'keyword_translations'").fetchone():
            return out
        for lang, key_en, key, match in conn.execute(
                "select lang, key_en, key, match from keyword_translations where lang in ('zh', 'ko')"):
            if not key_en:
                continue
            # The name as a query's runs read it, whole: never one word of a longer name (攻击 alone is
            # no "attacking team", 전투 no "battle cry").
            form = (match or "").replace("|", "").replace(" ", "")
            if len(form) >= MIN_NAME:
                out[lang].setdefault(form, set()).add(key_en)
        return out
    return _cached(conn, "translated names", compute)


def _names_in(compact: str, names: dict[str, set[str]]) -> list[str]:
    """The English keys of the names found in ``compact`` (the query without spaces), longest
    first and not overlapping, in the order they appear."""
    found: list[tuple[int, str]] = []
    taken = [False] * len(compact)
    longest = max((len(n) for n in names), default=0)
    for size in range(min(longest, len(compact)), MIN_NAME - 1, -1):
        for start in range(len(compact) - size + 1):
            piece = compact[start:start + size]
            if piece in names and not any(taken[start:start + size]):
                taken[start:start + size] = [True] * size
                found += [(start, key) for key in sorted(names[piece])]
    return list(dict.fromkeys(key for _, key in sorted(found)))


def _content(tokens, skipped, dropped_by) -> tuple[list[str], list[str], list[str]]:
    """The content words of ``tokens``, the runs of more than one of them (phrases), and the words
    dropped: a token ``skipped`` ends a run unrecorded, one ``dropped_by`` ends it and is listed."""
    words: list[str] = []
    phrases: list[str] = []
    dropped: list[str] = []
    run: list[str] = []
    for token in tokens:
        if skipped(token) or dropped_by(token):
            if not skipped(token):
                dropped.append(token.key)
            if len(run) > 1:
                phrases.append(" ".join(run))
            run = []
            continue
        words.append(token.key)
        run.append(token.key)
    if len(run) > 1:
        phrases.append(" ".join(run))
    return words, phrases, dropped


def _read_chinese(query: str) -> tuple[list[str], list[str], list[str]]:
    from .. import chinese

    return _content(chinese.tokens(chinese.normalize(query)), lambda t: t.is_punctuation,
                    lambda t: (t.is_function or t.key in ZH_DROPPED
                               or (_ZH_DROPPED_TAGS.match(t.pos) is not None and not t.key.isdigit())))


def _read_korean(query: str) -> tuple[list[str], list[str], list[str]]:
    from .. import korean

    return _content(korean.tokens(korean.normalize(query)), lambda t: t.is_punctuation or t.is_function,
                    lambda t: t.key in KO_DROPPED or _KO_DROPPED_TAGS.match(t.pos) is not None)


def readings(conn, query: str) -> list[Reading]:
    """The Chinese and Korean readings of ``query`` (none for English or Japanese text).

    Han characters with kana beside them are Japanese; Hangul is Korean; Han characters alone are
    read as Chinese, alone when one of them is not in the Japanese CR, beside the Japanese reading
    otherwise.
    """
    out: list[Reading] = []
    compact = re.sub(r"\s+", "", query)
    if _HANGUL.search(query):
        words, phrases, dropped = _read_korean(query)
        out.append(Reading("ko", words, phrases, _names_in(compact, translated_names(conn)["ko"]), dropped, True))
    han = set(_HAN.findall(query))
    if han and not _KANA.search(query):
        words, phrases, dropped = _read_chinese(_HANGUL.sub(" ", query))
        # Hanja beside Hangul are Korean's: Chinese alone only with no Hangul.
        only = not out and bool(han - japanese_characters(conn))
        out.append(Reading("zh", words, phrases, _names_in(compact, translated_names(conn)["zh"]), dropped, only))
    return [r for r in out if r.words or r.names]
