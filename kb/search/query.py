"""A question read into what to look for.

:func:`read_query` turns "what does hexproof stop" or 「呪禁は何を防ぐ？」 into
a :class:`QueryPlan`: the rule number it names (if any), the words worth
looking for and the phrases to boost, with what was dropped and corrected, so
that a search can OR the words together instead of requiring all of them.

- English: words as FTS5's unicode61 sees them; stopwords and question words
  (:data:`STOPWORDS`) dropped.
- Other languages: the language's segmenter (:mod:`.segmenters`) gives the
  content words (Japanese: by Sudachi's part of speech) and the runs of content
  words, kept whole as phrases to boost.
- Keyword names (``keyword_names``: first strike, 最悪の二択) stay phrases, with
  their name in the other language beside them.
- Player slang (the ``search_aliases`` table, from ``data/aliases.toml``) adds
  the CR's words in both languages.
- An unknown word is corrected against the index's own vocabulary
  (:mod:`.typos`).

Work is bounded: at most :data:`MAX_TERMS` words and :data:`MAX_PHRASES` phrases.

>>> plan = read_query("what does hexproof stop", names=KeywordNames([("hexproof", "呪禁", "呪禁")]))
>>> [(t.phrase, t.origin) for t in plan.terms]
[('hexproof', 'name'), ('呪禁', 'name'), ('stop', 'word')]
>>> plan.dropped
['what', 'does']
>>> read_query("rule 704.5a").number
'704.5a'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .fts import KeywordNames, english_key, english_stems
from .numbers import find_rule_number, normalize_query, only_rule_number
from .segmenters import detect, segmenter

MAX_TERMS = 16
MAX_PHRASES = 20  # a keyword name adds its phrase in both languages: a long question names 8–10

# English words that carry no meaning in a rules question: articles, pronouns,
# auxiliaries, question words, the commonest prepositions. Kept: words the rules
# use as terms (can't, first, double, each, all, up, down, out, under, over, no, not).
STOPWORDS = frozenset("""
a an the and or but if then than so as of to in on at by for from with into onto about
is are was were be been being am do does did doing done has have had having will would shall should
may might must can could i me my mine we us our ours you your yours he him his she her hers it its
they them their theirs this that these those there here what which who whom whose when where why how
whether does does happen happens happened mean means meaning work works working get gets got
some any just also very really actually please tell explain know want need thing things way
rule rules mtg magic gathering cr comprehensive question questions answer
""".split())


@dataclass(frozen=True)
class Term:
    """One thing to look for: an FTS5 phrase (space-separated words or keys)."""

    phrase: str
    lang: str | None  # "en", "ja", … or None for a word of no language (a number)
    origin: str  # "word", "name" (keyword name), "alias", "phrase" (a run of words), "correction"
    typed: str = ""  # what the user typed, for a correction or an alias


@dataclass
class QueryPlan:
    text: str  # the query, normalised (NFKC, single spaces)
    number: str | None = None  # a rule number the query names
    only_number: bool = False  # the query is that number and nothing else
    terms: list[Term] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # words not searched for (stopwords, function words)
    corrections: dict[str, str] = field(default_factory=dict)  # typed → searched for
    unknown: list[str] = field(default_factory=list)  # content words the index doesn't have
    languages: set[str] = field(default_factory=set)  # of the words typed
    capped: bool = False  # terms were dropped to stay under MAX_TERMS
    # Senses of a keyword name the words typed rule out (an alias's ``not``): "counters" is never
    # 打ち消す (Counter, 701.6), "countered" never カウンター (122); their rules are no title match.
    excluded: set[str] = field(default_factory=set)
    # The rules' words of the paired aliases the query has both halves of: one idea, one rule
    # ("aura" with "dies" is 704.5m), ranked on their own beside the other rankings.
    ideas: list[str] = field(default_factory=list)

    @property
    def words(self) -> list[Term]:
        return [t for t in self.terms if t.origin in ("word", "correction")]

    @property
    def phrases(self) -> list[Term]:
        return [t for t in self.terms if t.origin not in ("word", "correction")]

    def shown_as(self) -> str:
        """The query as searched, for "showing results for …"."""
        out = self.text
        for typed, used in self.corrections.items():
            out = re.sub(rf"(?i)(?<!\w){re.escape(typed)}(?!\w)", used, out)
        return out


@dataclass(frozen=True)
class Alias:
    words: tuple[str, ...]
    en: tuple[str, ...]
    ja: tuple[str, ...]
    not_: tuple[str, ...] = ()
    # An idea players write with two words, neither enough alone: the alias applies only when
    # the query also has one of these ("aura" with "dies": what happens to what was attached).
    with_: tuple[str, ...] = ()


class AliasTable:
    """Player words → the CR's words (the ``search_aliases`` table)."""

    def __init__(self, aliases: list[Alias]):
        self.aliases = aliases
        self.by_word: dict[str, Alias] = {}
        self.paired = [a for a in aliases if a.with_]
        for alias in aliases:
            if alias.with_:
                continue
            for w in alias.words:
                self.by_word[_alias_key(w)] = alias
        self.longest = max((len(k.split()) for k in self.by_word), default=0)

    def pairs_in(self, text: str) -> list[tuple[str, Alias]]:
        """The paired aliases ``text`` has both halves of, each with the word that matched:
        English words by their stems (dies, died; leaves, leave), other scripts as typed."""
        if not self.paired:
            return []
        if not hasattr(self, "_pair_forms"):
            self._pair_forms = [([(w, _pair_form(w)) for w in a.words], [_pair_form(w) for w in a.with_], a)
                                for a in self.paired]
        stems = frozenset(english_stems(english_key(text)))
        compact = normalize_query(text).replace(" ", "")

        def has(form: tuple[bool, object]) -> bool:
            script, key = form
            return key in compact if script else bool(key) and key <= stems  # type: ignore[operator]

        out = []
        for words, with_, alias in self._pair_forms:
            word = next((w for w, form in words if has(form)), None)
            if word and any(has(form) for form in with_):
                out.append((word, alias))
        return out

    def find(self, key: str) -> Alias | None:
        return self.by_word.get(key)

    def of_language(self, lang: str) -> list[tuple[str, Alias]]:
        """The (word, alias) pairs whose word is written in ``lang`` (a non-Latin script)."""
        if not hasattr(self, "_by_lang"):
            self._by_lang: dict[str, list[tuple[str, Alias]]] = {}
            for key, alias in self.by_word.items():
                self._by_lang.setdefault(detect(key) or "", []).append((key, alias))
        return self._by_lang.get(lang, [])


def _pair_form(word: str) -> tuple[bool, object]:
    """How :meth:`AliasTable.pairs_in` looks for ``word``: (True, its compact form) in a script
    a segmenter reads, (False, its set of English stems) otherwise."""
    if detect(word):
        return True, normalize_query(word).replace(" ", "")
    return False, frozenset(english_stems(english_key(word)))


def _alias_key(word: str) -> str:
    return english_key(word) if not detect(word) else normalize_query(word)


def _english_items(chunk: str) -> list[str]:
    return english_key(chunk).split()


def read_query(query: str, *, names: KeywordNames | None = None, aliases: AliasTable | None = None,
               vocabulary=None) -> QueryPlan:
    """Read ``query`` (see the module docstring). ``vocabulary`` (a :class:`.typos.Vocabulary`)
    corrects unknown words; without it none are."""
    names = names or KeywordNames([])
    aliases = aliases or AliasTable([])
    text = normalize_query(query)
    plan = QueryPlan(text=text)
    found = find_rule_number(text)
    if found:
        plan.number = found.number
        plan.only_number = only_rule_number(text) is not None
        text = text[:found.start] + " " + text[found.end:]
        if plan.only_number:
            return plan
    terms: list[Term] = []
    excluded: set[str] = set()
    # Chunks of one language: English words, or a run of another script for its segmenter.
    for chunk_lang, chunk in _chunks(text):
        if chunk_lang is None:
            _read_english(chunk, plan, terms, names, aliases, excluded)
        else:
            _read_segmented(chunk_lang, chunk, plan, terms, names, aliases)
    for word, alias in aliases.pairs_in(text):
        _add_alias(alias, word, terms)
        plan.ideas.extend(p for p in (*alias.en, *alias.ja) if p and p not in plan.ideas)
    terms = [t for t in terms if t.phrase not in excluded]
    plan.excluded = excluded
    if vocabulary is not None:
        terms = _correct(terms, plan, vocabulary)
    # De-duplicate, then cap: names and aliases first, then words in order, then runs.
    unique = list(dict.fromkeys(terms))
    rank = {"name": 0, "alias": 1, "word": 2, "correction": 2, "phrase": 3}
    kept_phrases = [t for t in unique if t.origin != "word" and t.origin != "correction"]
    kept_words = [t for t in unique if t.origin in ("word", "correction")]
    if len(kept_words) > MAX_TERMS or len(kept_phrases) > MAX_PHRASES:
        plan.capped = True
    kept = sorted(kept_phrases, key=lambda t: rank[t.origin])[:MAX_PHRASES] + kept_words[:MAX_TERMS]
    plan.terms = sorted(kept, key=lambda t: unique.index(t))
    return plan


_SCRIPT_SPLIT = re.compile(r"(\s+)")


def _chunks(text: str) -> list[tuple[str | None, str]]:
    """Runs of the query in one language each (None: English, split on spaces)."""
    out: list[tuple[str | None, str]] = []
    # Split between a Latin and a non-Latin character too (呪禁hexproof, ルール510); but a bare
    # number goes with the Japanese written right after it (2枚, 3点): only with it does the
    # segmenter read the counter as one (枚 alone is a noun, 名詞-普通名詞) and drop them both.
    # Zero stays a word of its own (ライフが0に: the one amount the rules test for).
    for piece in re.findall(r"(?!0+(?![0-9]))[0-9]+(?=[^\sA-Za-z0-9'’+/\-{}])[^\sA-Za-z0-9'’+/\-{}]+"
                            r"|[A-Za-z0-9'’+/\-{}]+|[^\sA-Za-z0-9'’+/\-{}]+", text):
        lang = detect(piece)
        if lang is None and not re.search(r"[A-Za-z0-9]", piece):
            continue  # punctuation alone
        if out and out[-1][0] == lang:
            out[-1] = (lang, out[-1][1] + " " + piece)
        else:
            out.append((lang, piece))
    return out


def _base_forms(word: str) -> list[str]:
    """The words an -ing or -ed form may come from, most likely first.

    >>> _base_forms("milling"), _base_forms("exiled"), _base_forms("attacked"), _base_forms("scried")
    (['mill', 'mille', 'mil'], ['exile', 'exil'], ['attacke', 'attack'], ['scrie', 'scri', 'scry'])
    """
    out: list[str] = []
    if len(word) > 5 and word.endswith("ing"):
        base = word[:-3]
        out += [base, base + "e"] + ([base[:-1]] if base[-1] == base[-2] else [])
    elif len(word) > 4 and word.endswith("ed"):
        base = word[:-2]
        out += [word[:-1], base] + ([base[:-1]] if base[-1] == base[-2] else [])
        if base.endswith("i"):
            out.append(base[:-1] + "y")
    return out


def _read_english(chunk: str, plan: QueryPlan, terms: list[Term], names: KeywordNames,
                  aliases: AliasTable, excluded: set[str]) -> None:
    items = _english_items(chunk)
    if items:
        plan.languages.add("en")
    run: list[str] = []
    i = 0
    while i < len(items):
        # The longest keyword name or alias starting here.
        matched = False
        for n in range(min(max(names.longest_en, aliases.longest), len(items) - i), 0, -1):
            key = items[i:i + n]
            joined = " ".join(key)
            alias = aliases.find(joined)
            stems = english_stems(joined)
            if n == 1 and stems not in names.by_english and key[0] not in STOPWORDS:
                # A keyword action as players conjugate it: milling → Mill, exiled → Exile.
                stems = next((english_stems(b) for b in _base_forms(key[0]) if english_stems(b) in names.by_english),
                             stems)
            if stems in names.by_english and (n > 1 or key[0] not in STOPWORDS):
                terms.append(Term(joined, "en", "name"))
                others = names.by_english[stems]
                if alias:
                    excluded.update(alias.not_)
                terms.extend(Term(p, "ja", "name") for p in sorted(others) if not alias or p not in alias.not_)
                if alias:
                    _add_alias(alias, joined, terms)
                i += n
                matched = True
                run = []
                break
            if alias:
                excluded.update(alias.not_)
                if n == 1 and key[0] not in STOPWORDS:
                    terms.append(Term(joined, "en", "alias", joined))
                _add_alias(alias, joined, terms)
                i += n
                matched = True
                run = []
                break
        if matched:
            continue
        word = items[i]
        if word in STOPWORDS or len(word) == 1 and not word.isdigit() or _question_form(word, items[i - 1] if i else ""):
            plan.dropped.append(word)
            run = []
        else:
            if _bare_number(word):
                plan.dropped.append(word)
            else:
                terms.append(Term(word, "en", "word"))
            run.append(word)
            # Words typed next to each other are also a phrase ("lore counter", "face down",
            # "0 loyalty"); a P/T figure (5/5) stays a phrase to boost, its numbers no words.
            if len(run) >= 2:
                terms.append(Term(" ".join(run[-2:]), "en", "phrase"))
        i += 1
    span = _span_phrase(items)
    if span and not any(t.phrase == span for t in terms):
        terms.append(Term(span, "en", "phrase"))


# What follows "how" in "how many", "how much", "how long", "how often": the question, not its subject.
HOW_WORDS = frozenset(["many", "much", "long", "often", "far", "soon"])
_CONTRACTED = re.compile(r"(.+)'(?:s|re|m|ll|ve|d)")


def _question_form(word: str, before: str) -> bool:
    """A question's own words beyond :data:`STOPWORDS`: a contraction of a stopword (what's,
    there's, you're, I'm) and the word after "how" (how many, how long).

    >>> _question_form("what's", ""), _question_form("creature's", ""), _question_form("long", "how")
    (True, False, True)
    >>> _question_form("long", "as")
    False
    """
    contracted = _CONTRACTED.fullmatch(word)
    return bool(contracted and contracted.group(1) in STOPWORDS) or (before == "how" and word in HOW_WORDS)


def _bare_number(word: str) -> bool:
    """An amount (5/5, -2/-2, 3 damage, 3点) is no word to search for: rules print amounts
    everywhere. Zero stays, the one amount the rules test for (0 life, 0 loyalty, 0 or less).
    A rule number was taken out before; a keyword name or alias with a number matched before.

    >>> _bare_number("5"), _bare_number("0"), _bare_number("5th")
    (True, False, False)
    """
    return word.isdigit() and word.strip("0") != ""


SPAN = (3, 6)  # a short query's words from its first content word to its last are also a phrase


def _span_phrase(items: list[str]) -> str | None:
    """The words typed from the first content word to the last, stopwords included, when they are
    few: "toughness 0 or less" is a phrase of the rules as well as three words.

    >>> _span_phrase("toughness 0 or less".split()), _span_phrase("what is hexproof".split())
    ('toughness 0 or less', None)
    """
    content = [i for i, w in enumerate(items) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())
               and not _bare_number(w)]
    if not content:
        return None
    span = items[content[0]:content[-1] + 1]
    return " ".join(span) if SPAN[0] <= len(span) <= SPAN[1] else None


def _add_alias(alias: Alias, typed: str, terms: list[Term]) -> None:
    terms.extend(Term(p, "en", "alias", typed) for p in alias.en if p)
    terms.extend(Term(p, "ja", "alias", typed) for p in alias.ja if p)


def _read_segmented(lang: str, chunk: str, plan: QueryPlan, terms: list[Term], names: KeywordNames,
                    aliases: AliasTable) -> None:
    seg = segmenter(lang)
    plan.languages.add(lang)
    compact = chunk.replace(" ", "")
    # Slang first, as typed (ETB誘発, バウンス): a segmenter may split it where players don't.
    for key, alias in aliases.of_language(lang):
        if key in compact:
            _add_alias(alias, key, terms)
    runs = seg.segment_query(chunk)
    # A number typed before the chunk is in it (3点, 2枚: see _chunks): the segmenter drops the
    # numeral and its counter, as it does 何点 (round 6: no tuning half lost, one card question
    # gained; 点 kept as a word had been measured better when digits were a chunk of their own).
    content = seg.content_words(chunk)
    content_set = set(content)
    # Keyword names among the runs (longest first), with their English names.
    run_keys = [tuple(r.split()) for r in runs]
    for run in run_keys:
        i = 0
        while i < len(run):
            for n in range(min(names.longest_ja_words, len(run) - i), 0, -1):
                key = run[i:i + n]
                if key in names.by_japanese_words:
                    phrases, english = names.by_japanese_words[key]
                    terms.extend(Term(p, lang, "name") for p in sorted(phrases))
                    terms.extend(Term(e, "en", "name") for e in sorted(english))
                    i += n
                    break
            else:
                i += 1
    # Boost phrases without the demonstratives, question words and numbers that lead them.
    boosts = ([" ".join(r) for r in seg.phrase_runs(chunk)] if hasattr(seg, "phrase_runs") else runs)
    for run in boosts:
        if len(run.split()) > 1:
            terms.append(Term(run, lang, "phrase"))
    slang = {k for k, _ in aliases.of_language(lang)}
    terms.extend(Term(w, lang, "alias" if w in slang else "word", w) for w in content)
    all_words = [w for r in runs for w in r.split()]
    plan.dropped.extend(w for w in all_words if w not in content_set and w not in plan.dropped)


def _correct(terms: list[Term], plan: QueryPlan, vocabulary) -> list[Term]:
    out: list[Term] = []
    for t in terms:
        if t.origin != "word" or t.lang is None or vocabulary.knows(t.phrase, t.lang):
            out.append(t)
            continue
        better = vocabulary.correct(t.phrase, t.lang)
        if better:
            plan.corrections[t.phrase] = better
            out.append(Term(better, t.lang, "correction", t.phrase))
        else:
            plan.unknown.append(t.phrase)
            out.append(t)
    return out
