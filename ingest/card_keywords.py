"""Keyword actions (CR 701) and keyword abilities (CR 702) in a card's Oracle text: ``KeywordFinder``.

The names come from the rules themselves — every title of a numbered rule
under 701 or 702 in any release — so a keyword the CR adds is found with no
code change, and an old name (``Totem armor``, now Umbra Armor) is still
found and linked through the rule's lineage. What is searched is the text as
a player reads it, less what does not use the keyword:

- reminder text in parentheses (cascade's reminder says "exile"),
- the card's own names (Search for Azcanta does not search), and other cards
  named in the text (``a card named Splinter``),
- a noun that is spelled like an action: ``+1/+1 counter`` is not Counter,
  ``double strike`` is not Double.

Actions are verbs: their inflections count (``explores``, ``exiled``,
``fought``, ``scried``). Abilities are found where they stand in a keyword
line (``Flying, vigilance``; ``Kicker {2}{R}``; ``Swampwalk``;
``Plainscycling {2}``) or where text grants or names them (``gains flying``,
``kicked``, ``cycle``).

>>> finder = KeywordFinder({"Explore": "701", "Counter": "701", "Flying": "702", "Landwalk": "702",
...                         "Cycling": "702", "Kicker": "702", "Double Strike": "702", "Double": "701"})
>>> [(k.keyword, k.matched) for k in finder.find("Flying\\nWhen this enters, it explores. (Reveal...)")]
[('Flying', 'Flying'), ('Explore', 'explores')]
>>> [k.keyword for k in finder.find("Put a +1/+1 counter on it. Counter target spell. Double strike")]
['Counter', 'Double Strike']
>>> [k.matched for k in finder.find("Swampwalk\\nIslandcycling {2}\\nIf this spell was kicked, draw a card.")]
['Swampwalk', 'Islandcycling', 'kicked']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

# Verb forms the regular rules below do not make.
_IRREGULAR = {"fight": ["fought"], "scry": ["scries", "scried", "scrying"], "cast": ["casts", "casting"],
              "set in motion": ["sets in motion", "setting in motion"], "tap": ["tapped", "taps", "tapping"],
              "untap": ["untapped", "untaps", "untapping"], "planeswalk": ["planeswalks", "planeswalked"]}
# Keyword abilities spoken of as verbs or in another form.
_ABILITY_FORMS = {
    "Kicker": ["kicked", "multikicker"], "Cycling": ["cycle", "cycles", "cycled", "basic landcycling"],
    "Landwalk": ["nonbasic landwalk", "legendary landwalk", "snow landwalk"],
    "Banding": ["bands with other", "band"], "Morph": ["megamorph", "morphed"], "Ninjutsu": ["commander ninjutsu"],
    "Evoke": ["evoked"], "Dash": ["dashed"], "Foretell": ["foretold", "foretells"], "Escape": ["escaped", "escapes"],
    "Bestow": ["bestowed"], "Suspend": ["suspended"], "Prowl": ["prowled"], "Blitz": ["blitzed"],
    "Plot": ["plotted", "plots"], "Disguise": ["disguised"], "Mutate": ["mutated", "mutates", "mutating"],
    "Crew": ["crewed", "crews"], "Exploit": ["exploits", "exploited"], "Phasing": ["phase in", "phase out",
                                                                                    "phases in", "phases out",
                                                                                    "phased in", "phased out"],
    "Daybound and Nightbound": ["daybound", "nightbound"], "Hidden Agenda": ["double agenda"],
    "Umbra Armor": ["totem armor"], "Partner": ["partner with"],
    "Training": ["trains"], "Enlist": ["enlisted", "enlists"], "Saddle": ["saddled", "saddles"],
    "Boast": ["boasted"], "Encore": ["encored"], "Unearth": ["unearthed"], "Splice": ["splice onto", "spliced"],
    "Casualty": [], "Renown": ["renowned"], "Monstrosity": ["monstrous"], "Level Up": ["level up"],
}
# Words spelled like an action that are not the action in card text.
_NOT_THE_ACTION = {
    "Counter": r"(?<!\+1/\+1 )(?<!-1/-1 )\bcounter(?:s|ed|ing)?\b(?=\s+(?:target|it|that|those|the|all|each|up to|"
               r"any|them|this|one|two|a spell|spells|an? (?:activated|triggered)|whichever)\b)|\bcountered\b",
    "Double": r"\bdoubl(?:e|es|ed|ing)\b(?!\s+(?:strike|team|agenda|-faced|faced))",
    "Play": r"\bplay(?:s|ed|ing)?\b(?!\s+(?:with|mat))",
    "Exchange": r"\bexchang(?:e|es|ed|ing)\b(?!\s+of)",
    "Heal": r"\bheal(?:s|ed)?\b",  # not the "healing counters" of Coldsnap
    "Convert": r"\bconvert(?:s|ed)?\b(?!\s+mana)",
}


@dataclass(frozen=True)
class KeywordUse:
    """A keyword in a text: ``keyword`` is the rule title it was found by, ``matched`` the text as printed."""

    keyword: str
    section: str  # "701" (keyword action) or "702" (keyword ability)
    start: int
    end: int
    matched: str


def _verb_forms(title: str) -> list[str]:
    """The forms of an action title: ``explore`` → explore, explores, explored, exploring."""
    words = title.lower().split()
    head, rest = words[0], " ".join(words[1:])
    forms = {head}
    if head.endswith("e"):
        forms |= {head + "s", head + "d", head[:-1] + "ing"}
    elif head.endswith("y") and head[-2:-1] not in "aeiou":
        forms |= {head[:-1] + "ies", head[:-1] + "ied", head + "ing"}
    elif re.search(r"(?:s|sh|ch|x|z)$", head):
        forms |= {head + "es", head + "ed", head + "ing"}
    else:
        forms |= {head + "s", head + "ed", head + "ing"}
        if re.search(r"[^aeiou][aeiou][bdgklmnprt]$", head) and len(head) <= 4:
            forms |= {head + head[-1] + "ed", head + head[-1] + "ing"}
    out = []
    for form in sorted(forms, key=len, reverse=True):
        out.append(re.escape(form) + (r"\s+" + re.escape(rest).replace(r"\ ", r"\s+") if rest else ""))
    out += [re.escape(f) for f in _IRREGULAR.get(title.lower(), [])]
    return out


def _names(title: str) -> list[str]:
    """The parts of a title that name a keyword (``Tap and Untap`` → Tap, Untap; ``∞ (Infinity)`` → Infinity)."""
    title = title.strip()
    if title.lower() == "tap and untap":
        return ["tap", "untap"]
    m = re.match(r"^\S+ \((.+)\)$", title)
    return [m.group(1)] if m else [title]


_WORD = re.compile(r"[A-Za-z∞][A-Za-z'-]*!?")
# Abilities found by how a word ends: Plainscycling, Swampwalk, Nonbasic landwalk.
_SUFFIXES = (("cycling", "Cycling"), ("walk", "Landwalk"))


class KeywordFinder:
    """Finds keyword actions and abilities in card text; built once from ``{title: section}``.

    Each form of each keyword is a small regular expression tried only where a
    word of the text is that form's first word (a dictionary look-up), so a
    card costs a pass over its words, not over hundreds of alternatives.
    """

    def __init__(self, titles: dict[str, str], card_names: Iterable[str] = ()):
        self.titles = dict(titles)
        self.card_names = CardNames(card_names)
        self._by_word: dict[str, list[tuple[re.Pattern, str, str]]] = {}
        self._suffixes = [(suffix, title, titles[title]) for suffix, title in _SUFFIXES if title in titles]
        for title, section in titles.items():
            forms: list[str] = []
            if title in _NOT_THE_ACTION and section == "701":
                forms = [_NOT_THE_ACTION[title]]
            else:
                for name in _names(title):
                    if section == "701":
                        forms += _verb_forms(name)
                    else:
                        escaped = re.escape(name.lower()).replace(r"\ ", r"\s+")
                        forms.append(escaped + (r"\b" if name[-1:].isalnum() else ""))
                if section == "702":
                    forms += [f for f in _ABILITY_FORMS.get(title, []) if not f.startswith("[") and "(?:" not in f]
            for form in forms:
                for first in _first_words(form):
                    self._by_word.setdefault(first, []).append(
                        (re.compile(r"(?:" + form + r")(?![A-Za-z])", re.IGNORECASE), title, section))
        for candidates in self._by_word.values():
            candidates.sort(key=lambda c: -len(c[0].pattern))  # "double strike" before "double"

    def find(self, text: str | None, own_names: Iterable[str] = ()) -> list[KeywordUse]:
        """Every keyword use in ``text`` (offsets into ``text`` itself), in order; ``own_names`` are the
        card's names, which do not count (nor do the names of other cards that follow "named")."""
        if not text:
            return []
        masked = mask(text, own_names, self.card_names)
        out: list[KeywordUse] = []
        taken = 0
        for w in _WORD.finditer(masked):
            start = w.start()
            if start < taken:
                continue
            word = w.group(0).lower().rstrip("!")
            found = None
            for pattern, title, section in self._by_word.get(word, ()):
                m = pattern.match(masked, start)
                if m:
                    found = (title, section, m.end())
                    break
            if found is None and word.endswith("offering") and "Offering" in self.titles:
                found = ("Offering", self.titles["Offering"], w.end())
            if found is None:
                for suffix, title, section in self._suffixes:
                    if word.endswith(suffix) and len(word) > len(suffix) + 2:
                        found = (title, section, w.end())
                        break
            if found is None:
                continue
            title, section, end = found
            # A capitalised ability name inside a sentence is another card's name ("… Warp World").
            if section == "702" and masked[start].isupper() and re.search(r"[a-z,] $", masked[max(0, start - 2):start]) \
                    and not re.search(r"(?:^|\n|[,;—]) ?$", masked[max(0, start - 3):start]):
                taken = end
                continue
            out.append(KeywordUse(title, section, start, end, text[start:end]))
            taken = end
        return out


def _first_words(form: str) -> list[str]:
    """The first word(s) a form's regular expression can start with (its alternatives' first words)."""
    body = re.sub(r"^\(\?<[!=][^)]*\)", "", form)
    while body.startswith("(?<"):
        body = re.sub(r"^\(\?<[!=](?:[^()]|\([^()]*\))*\)", "", body)
    body = body.replace(r"\b", "")
    firsts = []
    for alternative in _top_level_alternatives(body):
        m = re.match(r"(?:\(\?:)?((?:[a-z'∞!]|\\[-!'])+)", alternative)
        if not m:
            continue
        word = m.group(1).replace("\\", "")
        rest = alternative[m.end():]
        if rest.startswith("(?:"):  # counter(?:s|ed)? → counter, counters, countered
            group = rest[3:rest.index(")")]
            firsts += [word + g for g in group.split("|")]
        firsts.append(word)
    return sorted(set(firsts))


def _top_level_alternatives(pattern: str) -> list[str]:
    depth, start, out = 0, 0, []
    for i, ch in enumerate(pattern):
        if ch == "(" and (i == 0 or pattern[i - 1] != "\\"):
            depth += 1
        elif ch == ")" and (i == 0 or pattern[i - 1] != "\\"):
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    out.append(pattern[start:])
    return out


_REMINDER = re.compile(r"\([^()]*\)")
_NAMED = re.compile(r"\b(?:named|Partner with|Melds with|meld them into|dungeon named)\s+")


class CardNames:
    """Card names by their first word, longest first, to find the one a text names at a position."""

    def __init__(self, names: Iterable[str] = ()):
        by_first: dict[str, list[str]] = {}
        for name in set(n for n in names if n):
            by_first.setdefault(name.split(" ", 1)[0], []).append(name)
        self.by_first = {k: sorted(v, key=len, reverse=True) for k, v in by_first.items()}

    def at(self, text: str) -> str | None:
        """The longest card name ``text`` starts with."""
        first = text.split(" ", 1)[0]
        for candidate in (first, first.rstrip(".,;:")):
            for name in self.by_first.get(candidate, ()):
                if text.startswith(name):
                    return name
        return None


def mask(text: str, own_names: Iterable[str] = (), others: CardNames | None = None) -> str:
    """``text`` with reminder text and card names blanked (same length, so offsets hold).

    >>> mask("Search for Azcanta: search your library (a reminder).", ["Search for Azcanta"])
    '                  : search your library             .'
    >>> mask("Search for a card named Lightning Bolt.", [], CardNames(["Lightning Bolt"]))
    'Search for a card named               .'
    """
    out = _REMINDER.sub(lambda m: " " * len(m.group(0)), text)
    for name in sorted({n for n in own_names if n}, key=len, reverse=True):
        if name in out:
            out = out.replace(name, " " * len(name))
    if others is not None and others.by_first and _NAMED.search(out):
        for m in list(_NAMED.finditer(out)):
            found = others.at(out[m.end():])
            if found:
                out = out[: m.end()] + " " * len(found) + out[m.end() + len(found):]
    return out
