"""Japanese text for search: normalise, then segment into words with SudachiPy.

SQLite's tokenizers cannot search Japanese: ``unicode61`` takes a whole
sentence as one token and ``trigram`` finds nothing for one- or two-character
words (発見, 墓地). So the build stores, beside each Japanese text, its
*search form*, and queries go through the same steps:

1. :func:`normalize`: NFKC (full-width digits, letters and signs become
   ASCII: ``＋１／＋１`` → ``+1/+1``; half-width katakana become full-width), and
   the stray spaces the source puts between Japanese words removed
   (``あなたの ライブラリー`` → ``あなたのライブラリー``). NFKC is right here because
   the search form is never shown; the displayed text is never changed.
2. Segmentation with SudachiPy (core dictionary, the finest split mode A, so
   that a part of a compound is a word: 島 in 島渡り).
3. Each word written in its *key* form: Sudachi's normalised form for Japanese
   (inflection and spelling variants fold together: 探し → 探す, 行なう → 行う,
   ライブラリ → ライブラリー, オモテ → 表), lower case for Latin words (Sudachi would
   turn "Cub" into カブ). Punctuation is dropped.

>>> search_form("あなたの ライブラリーから探し、墓地に置く。")
'貴方 の ライブラリー から 探す 墓地 に 置く'
>>> search_form("行なう") == search_form("行う")
True

A query is read the same way, then split where a particle or auxiliary
separates content words: each run of content words is a phrase FTS5 must find
(in that order, adjacent), and the runs are all required. A light verb (する,
行う) that ends a run is dropped when something else is left.

>>> segment_query("発見を行う")
['発見']
>>> segment_query("ライブラリーの一番上")
['ライブラリー', '一番 上']
>>> segment_query("マナ・コスト")
['マナ コスト']
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from dataclasses import dataclass

_JA_CHAR = r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u3005\u30fc\u3006]"
# A space between two Japanese characters is a typesetting artefact of the source.
_STRAY_SPACE = re.compile(rf"(?<={_JA_CHAR})[ \u3000]+(?={_JA_CHAR})")
# Where the text is cut before segmentation (Sudachi takes at most ~49 kB at once).
_SENTENCE_BREAK = re.compile(r"(?<=[。．！？!?\n])")
_LATIN = re.compile(r"^[0-9A-Za-z][0-9A-Za-z'’.\-]*$")
# Parts of speech that end a run of content words in a query.
_FUNCTION_POS = {"助詞", "助動詞", "補助記号", "空白", "接続詞"}
_JOINERS = {"・", "･"}
# Verbs that carry no meaning of their own after a noun (発見を行う, 偽装する), as key forms.
LIGHT_VERBS = frozenset({"為る", "行う", "成る", "居る", "有る", "出来る", "れる", "られる"})


def normalize(text: str) -> str:
    """NFKC, and no stray spaces between Japanese words.

    >>> normalize("ライブラリーの　一番上　１枚")
    'ライブラリーの一番上 1枚'
    >>> normalize("ｶｰﾄﾞを ２枚、＋１／＋１")
    'カードを 2枚、+1/+1'
    """
    text = unicodedata.normalize("NFKC", text)
    return _STRAY_SPACE.sub("", text)


_dictionary_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def _dictionary():
    from sudachipy import Dictionary

    return Dictionary(dict="core")


_per_thread = threading.local()


def _tokenizer():
    """This thread's tokenizer.

    A SudachiPy ``Tokenizer`` is not thread-safe (concurrent calls fail with
    "Tokenizer is already in use"); the ``Dictionary`` is. Datasette runs SQL
    functions and views in several threads, so each thread gets its own
    tokenizer over the one shared dictionary, as SudachiPy's maintainers advise
    (WorksApplications/sudachi.rs#289).
    """
    tokenizer = getattr(_per_thread, "tokenizer", None)
    if tokenizer is None:
        from sudachipy import SplitMode

        with _dictionary_lock:
            tokenizer = _per_thread.tokenizer = _dictionary().tokenizer(mode=SplitMode.A)
    return tokenizer


@dataclass(frozen=True)
class Token:
    """A word of a text: its ``key`` (what search compares), part of speech and place.

    ``begin``/``end`` index the text given to :func:`tokens` (Sudachi keeps
    the caller's offsets while it normalises internally).
    """

    surface: str
    key: str
    pos: str
    begin: int
    end: int
    pos_detail: str = ""  # Sudachi's second POS level: 一般, 非自立可能, 普通名詞…
    pos_kind: str = ""  # Sudachi's third POS level: 助数詞可能 (a noun that counts: 点, 回), 助数詞…

    @property
    def is_punctuation(self) -> bool:
        return self.pos in ("補助記号", "空白")

    @property
    def is_function(self) -> bool:
        return self.pos in _FUNCTION_POS and self.surface not in _JOINERS


@functools.lru_cache(maxsize=65536)
def _key(surface: str, normalized: str) -> str:
    plain = unicodedata.normalize("NFKC", surface)
    if _LATIN.match(plain):
        return plain.lower()
    return normalized.lower()


def tokens(text: str) -> list[Token]:
    """Every word of ``text`` (as given, not normalised), punctuation included.

    >>> [(t.surface, t.key, t.pos) for t in tokens("探した")]
    [('探し', '探す', '動詞'), ('た', 'た', '助動詞')]
    """
    out: list[Token] = []
    offset = 0
    for piece in _SENTENCE_BREAK.split(text):
        if piece.strip():
            for m in _tokenizer().tokenize(piece):
                pos = m.part_of_speech()
                out.append(Token(m.surface(), _key(m.surface(), m.normalized_form()),
                                 pos[0], offset + m.begin(), offset + m.end(), pos[1], pos[2]))
        offset += len(piece)
    return out


@functools.lru_cache(maxsize=4096)
def _is_punctuation_pos(pos_id: int) -> bool:
    return _dictionary().pos_of(pos_id)[0] in ("補助記号", "空白")


def words(text: str) -> list[str]:
    """The key forms of the words of ``text`` (normalised first), punctuation dropped.

    The build calls this for every Japanese text, so it skips :class:`Token`.

    >>> words("墓地に置かれた")
    ['墓地', 'に', '置く', 'れる', 'た']
    """
    out: list[str] = []
    for piece in _SENTENCE_BREAK.split(normalize(text)):
        if not piece.strip():
            continue
        for m in _tokenizer().tokenize(piece):
            if _is_punctuation_pos(m.part_of_speech_id()):
                continue
            key = _key(m.surface(), m.normalized_form())
            if key.strip():
                out.append(key)
    return out


# 「毒／poison」カウンター: an English gloss after a full-width solidus (a solidus after
# NFKC), up to the closing bracket. Never a mana symbol ({W/U}) or "+1/+1".
_GLOSS = re.compile(
    r"/\s*(?P<en>[A-Za-z\[][^「」『』{}\n\u3040-\u30ff\u3400-\u9fff]*?)(?=[」』〕)])")


def split_glosses(text: str) -> tuple[str, list[str]]:
    """``text`` (normalised) without its English glosses, and the glosses.

    >>> split_glosses("10個以上の「毒/poison」カウンターを持つ")
    ('10個以上の「毒」カウンターを持つ', ['poison'])
    >>> split_glosses("混成シンボル{W/U}と+1/+1")
    ('混成シンボル{W/U}と+1/+1', [])
    """
    glosses = [m.group("en") for m in _GLOSS.finditer(text)]
    return (_GLOSS.sub("", text), glosses) if glosses else (text, [])


def search_form(text: str) -> str:
    """What full-text search indexes for a Japanese ``text``: its words, the English
    glosses it prints (「探す／Search」) moved to the end so that the Japanese words
    around them stay next to each other (「毒／poison」カウンター is 毒 カウンター).

    >>> search_form("10個以上の「毒／poison」カウンター")
    '10 個 以上 の 毒 カウンター poison'
    """
    japanese, glosses = split_glosses(normalize(text))
    return " ".join(words(japanese) + words(" ".join(glosses)))


def query_runs(query: str) -> list[list[str]]:
    """The content-word runs of a query (see the module docstring), as lists of keys.

    >>> query_runs("墓地から探す")
    [['墓地'], ['探す']]
    >>> query_runs("偽装する")  # Sudachi spells 偽装 as 擬装 in its normalised form
    [['擬装']]
    >>> query_runs("する")
    [['為る']]
    >>> query_runs("タップ状態になる")
    [['タップ', '状態']]
    """
    return [[t.key for t in run] for run in _token_runs(query)]


def _token_runs(query: str) -> list[list[Token]]:
    runs: list[list[Token]] = [[]]
    for t in tokens(normalize(query)):
        if t.is_function:
            if runs[-1]:
                runs.append([])
        elif not t.is_punctuation and t.key.strip():
            runs[-1].append(t)
    runs = [r for r in runs if r]
    meaningful = [r for r in runs if not all(t.key in LIGHT_VERBS for t in r)]
    if meaningful:
        # A light verb ends a run (偽装する); inside one it stays, or the phrase would not be found.
        runs = [r[:len(r) - next(i for i, t in enumerate(reversed(r)) if t.key not in LIGHT_VERBS)]
                for r in meaningful]
    return runs


def _is_number(token: Token) -> bool:
    """A numeral (5, 三) or the 何/幾 that asks for one (何枚, いくつ): Sudachi's 名詞-数詞."""
    return token.pos == "名詞" and token.pos_detail == "数詞"


def _counts(token: Token) -> bool:
    """A counter word (点, 回, 体) or suffix (枚, つ): what follows a numeral."""
    return token.pos_kind in ("助数詞可能", "助数詞") or token.pos == "接尾辞"


def phrase_runs(query: str) -> list[list[str]]:
    """The runs of :func:`query_runs` as phrases to boost: without the demonstratives,
    question words and numbers that lead them (その/この/どの: 連体詞; それ/いつ/何: 代名詞;
    3点/何枚: a numeral and its counter), which a rule's text doesn't share.

    >>> phrase_runs("そのクリーチャーはブロックできる"), phrase_runs("何枚引く")
    ([['クリーチャー'], ['ブロック']], [['引く']])
    >>> phrase_runs("これってどうやって使うの")
    [['使う']]
    """
    out: list[list[str]] = []
    content = set(content_words(query))
    for run in _token_runs(query):
        i = 0
        while i < len(run) and (run[i].pos in ("連体詞", "代名詞") or _is_number(run[i])
                                or (i and _is_number(run[i - 1]) and _counts(run[i]))):
            i += 1
        # A run of question words and light verbs alone (どうやって: どう 遣る) is no phrase of a rule.
        if run[i:] and any(t.key in content for t in run[i:]):
            out.append([t.key for t in run[i:]])
    return out


def segment_query(query: str) -> list[str]:
    """A Japanese query as FTS5 phrases, all of which must be found."""
    return [" ".join(run) for run in query_runs(query)]


# What a question is made of besides what it asks about: pronouns (何, いつ, どちら),
# adnominals (この, どの), adverbs (どう, 必ず), interjections, prefixes and suffixes on
# their own (枚, 者), and verbs, adjectives and nouns that only lean on another word
# (できる, なる, ある, こと, ため: Sudachi's 非自立可能).
_QUESTION_POS = {"代名詞", "連体詞", "副詞", "感動詞", "接頭辞", "接尾辞"}


def is_content(token: Token, before: Token | None = None) -> bool:
    """A word a search should look for: not a particle, auxiliary, pronoun, question
    word or light verb, judged by Sudachi's part of speech. ``before`` is the word
    before it: a verb Sudachi marks 非自立可能 (置く, かける, 見る) leans on another word
    only after a て-form (置いておく), and is the verb itself after a case particle
    (墓地に置かれる, 修整をかける).

    >>> [t.surface for t in tokens("呪禁は何を防ぐ？") if is_content(t)]
    ['呪禁', '防ぐ']
    >>> [t.surface for t in tokens("ブロックできるの？") if is_content(t)]
    ['ブロック']
    >>> content_words("墓地に置かれる？"), content_words("脇に置いておく")
    (['墓地', '置く'], ['脇', '置く'])
    """
    if token.is_function or token.is_punctuation or not token.key.strip():
        return False
    if token.pos in _QUESTION_POS:
        return False
    if token.pos_detail == "非自立可能" and not (
            token.pos == "動詞" and before is not None and before.pos == "助詞"
            and before.pos_detail == "格助詞"):
        return False
    return token.key not in LIGHT_VERBS


def content_words(query: str) -> list[str]:
    """The keys of the content words of a query (:func:`is_content`), in order, once each:
    what a relaxed search ORs together. Numbers are no content word (5/5, 3点, 何枚: a numeral
    and the counter after it), nor is a question word Sudachi reads as one noun (何色), whose
    head noun (色) stays.

    >>> content_words("召喚酔いのクリーチャーでブロックできる？")
    ['召喚', '酔い', 'クリーチャー', 'ブロック']
    >>> content_words("タイムスタンプ順とは何ですか")
    ['タイム', 'スタンプ', '順']
    >>> content_words("何色のクリーチャー？"), content_words("3点のダメージを何回与える")
    (['色', 'クリーチャー'], ['ダメージ', '与える'])
    """
    found = [t for t in tokens(normalize(query)) if not t.is_punctuation]
    keys: list[str] = []
    for i, t in enumerate(found):
        before = found[i - 1] if i else None
        if _is_number(t) or (before is not None and _is_number(before) and _counts(t)):
            continue
        if not is_content(t, before):
            continue
        head = _interrogative_head(t)
        keys.extend(head if head is not None else [t.key])
    return list(dict.fromkeys(keys))


def _interrogative_head(token: Token) -> list[str] | None:
    """For a noun Sudachi reads whole that starts with a question pronoun (何色, 何度): the
    content words after it (色; none for a counter), else None."""
    if token.pos != "名詞" or len(token.surface) < 2 or not "\u3400" <= token.surface[0] <= "\u9fff":
        return None  # a kanji pronoun (何, 誰), not a kana that Sudachi may read as one (タ)
    first = tokens(token.surface[0])
    if len(first) != 1 or first[0].pos != "代名詞":
        return None
    rest = [t for t in tokens(token.surface[1:]) if not t.is_punctuation]
    return [t.key for t in rest if is_content(t) and not _counts(t) and not _is_number(t)]


def content_keys(text: str) -> set[str]:
    """The keys of the content words of ``text`` (no particles, auxiliaries or punctuation):
    the words a snippet marks.

    >>> sorted(content_keys("生け贄に捧げる"))
    ['捧げる', '生け贄']
    """
    return {t.key for t in tokens(normalize(text)) if not t.is_function and not t.is_punctuation and t.key.strip()}


def highlight(text: str, keys: set[str], *, width: int = 80, mark: tuple[str, str] = ("[", "]")) -> str:
    """A snippet of the displayed ``text`` around the first word whose key is in ``keys``,
    each such word marked: the text as printed, matched by its search form.

    Only the sentences up to the first match and those in the snippet are
    segmented, so a long rule costs no more than a short one.

    >>> highlight("あなたのライブラリーから探した。", {"探す"}, width=12)
    '…リーから[探し]た。'
    >>> highlight("墓地", set())
    '墓地'
    """
    pieces, at = [], 0
    for piece in _SENTENCE_BREAK.split(text):
        pieces.append((at, piece))
        at += len(piece)
    cache: dict[int, list[Token]] = {}
    # Segmenting is the cost: first try only the sentences holding a key's first character
    # (探 for 探す finds 探し), then, if none matched (貴方 is printed あなた), all of them.
    hints = {k[0] for k in keys if k}
    likely = [i for i, (_, piece) in enumerate(pieces) if any(h in piece for h in hints)]

    def words_of(i: int) -> list[Token]:
        if i not in cache:
            start, piece = pieces[i]
            found = []
            if piece.strip():
                for m in _tokenizer().tokenize(piece):  # no Token per word: this runs for every hit
                    key = _key(m.surface(), m.normalized_form())
                    if key in keys:
                        found.append(Token(m.surface(), key, "", start + m.begin(), start + m.end()))
            cache[i] = found
        return cache[i]

    first = None
    for candidates in (likely, range(len(pieces))):
        first = next((words_of(i)[0] for i in candidates if keys and words_of(i)), None)
        if first is not None:
            break
    if first is None:
        return text if len(text) <= width else text[:width] + "…"
    begin = max(0, first.begin - width // 3)
    end = min(len(text), begin + width)
    found = [t for i, (start, piece) in enumerate(pieces)
             if start < end and start + len(piece) > begin for t in words_of(i)]
    out, at = [], begin
    for t in found:
        if t.begin < begin or t.end > end or t.begin < at:
            continue
        out.append(text[at:t.begin])
        out.append(f"{mark[0]}{text[t.begin:t.end]}{mark[1]}")
        at = t.end
    out.append(text[at:end])
    return ("…" if begin > 0 else "") + "".join(out) + ("…" if end < len(text) else "")
