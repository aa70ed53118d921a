"""Read a card's Oracle text into abilities with a grammar (``oracle.lark``, parsed with Lark).

Each line of Oracle text is one ability (or a keyword line of several). The
text is normalised first — reminder text dropped, the card's own name and
"this creature/spell/…" written ``~``, each sentence's first letter lower-cased
— then parsed by the template grammar. A line the grammar doesn't match is an
:class:`Ability` of kind ``unparsed``: nothing about it is guessed.

>>> card = parse_card("Merfolk Branchwalker", "When Merfolk Branchwalker enters the battlefield, it explores.")
>>> [(a.kind, a.trigger, a.effects) for a in card.abilities]
[('triggered', 'self_enters', ('explore',))]
>>> parse_card("Golgari Grave-Troll", "Golgari Grave-Troll enters with a +1/+1 counter on it for each creature card "
...            "in your graveyard.\\n{1}, Remove a +1/+1 counter from Golgari Grave-Troll: Regenerate Golgari Grave-Troll."
...            "\\nDredge 6").keywords
(('Dredge', '6'),)
>>> parse_card("Nonsense", "Blorp the flibber.").abilities[0].kind
'unparsed'
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from lark import Lark, Token, Tree
from lark.exceptions import LarkError

from . import parse_cache
from .keywords import canonical_keyword, keyword_pattern

GRAMMAR = Path(__file__).with_name("oracle.lark")

_REMINDER = re.compile(r"\s*\([^()]*\)")
_ABILITY_WORD = re.compile(r"^([A-Z][\w' -]*?) — (?=(When|Whenever|At|As|If|Each|You|Target|Creatures|\{|~))")
_SELF_WORDS = re.compile(
    r"\bthis (creature|spell|permanent|land|artifact|enchantment|card|aura|equipment|planeswalker|vehicle|token|saga|battle)\b",
    re.IGNORECASE)


@dataclass(frozen=True)
class Ability:
    """One line of Oracle text as the grammar read it.

    ``kind`` is ``keyword``, ``triggered``, ``activated``, ``static``,
    ``spell``, ``modal``, ``bullet``, ``level`` or ``unparsed``; ``tree`` is
    the parse tree (``None`` when unparsed); ``keywords`` are the (702 title,
    argument) pairs of a keyword line; ``trigger`` the trigger event's rule
    name; ``effects`` the effect rules in order; ``template`` the line with
    numbers and costs generalised, for the coverage report.
    """

    kind: str
    text: str
    line: int
    tree: Tree[Token] | None = field(default=None, compare=False, repr=False)
    keywords: tuple[tuple[str, str], ...] = ()
    trigger: str | None = None
    effects: tuple[str, ...] = ()
    static: str | None = None
    once_each_turn: bool = False
    error: str = ""

    @property
    def parsed(self) -> bool:
        return self.kind != "unparsed"

    @property
    def template(self) -> str:
        return template_of(self.text)


@dataclass(frozen=True)
class ParsedCard:
    """A card's abilities, line by line."""

    name: str
    abilities: tuple[Ability, ...]

    @property
    def complete(self) -> bool:
        """Every line was read."""
        return all(a.parsed for a in self.abilities)

    @property
    def keywords(self) -> tuple[tuple[str, str], ...]:
        return tuple(k for a in self.abilities for k in a.keywords)

    def has_keyword(self, title: str) -> bool:
        return any(k == title for k, _ in self.keywords)

    def keyword_argument(self, title: str) -> str | None:
        return next((arg for k, arg in self.keywords if k == title), None)

    @property
    def unparsed(self) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if not a.parsed)


def template_of(text: str) -> str:
    """A line with costs, numbers and P/T generalised: ``{M}: ~ gets +N/+N until end of turn.``"""
    text = re.sub(r"(\{[^}]+\})+", "{M}", text)
    text = re.sub(r"[+-]?\b\d+/[+-]?\d+\b", "N/N", text)
    return re.sub(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b", "N", text)


def short_name(name: str) -> str | None:
    """The name a legendary card's text may use for itself: ``Sidisi`` for ``Sidisi, Brood Tyrant``."""
    if ", " in name:
        return name.split(", ")[0]
    if " the " in name and name.split(" the ")[0].count(" ") == 0:
        return name.split(" the ")[0]
    return None


def normalise(line: str, name: str) -> str:
    """The line as the grammar reads it (see the module docstring)."""
    text = _REMINDER.sub("", line).strip()
    names = [n for n in {name, *name.split(" // ")} if n]
    short = short_name(name)
    if short:
        names.append(short)
    for n in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z]){re.escape(n)}(?![a-z])", "~", text)
    text = _SELF_WORDS.sub("~", text)
    # An ability word has no rules meaning (Text Box — CR 207.2c): "Constellation — Whenever …" is read as "Whenever …".
    m = _ABILITY_WORD.match(text)
    if m and canonical_keyword(m.group(1)) is None and not m.group(1).lower().startswith("choose"):
        text = text[m.end():]
    text = text.replace("’", "'").replace("−", "-")
    # Lower-case the first letter of each sentence (after ". ", ": ", "• ", "— " and at the start).
    text = re.sub(r"(^|[.:•—]\s+|^\s*)([A-Z])(?=[a-z ])", lambda m: m.group(1) + m.group(2).lower(), text)
    text = re.sub(r"\{([a-z0-9/]+)\}", lambda m: "{" + m.group(1).upper() + "}", text)
    return text


STARTS = ["start", "keyword_line", "triggered", "activated", "static_line", "spell_line", "modal_head", "bullet",
          "flip_word"]


_PARSER_LOCK = threading.Lock()


def _parser() -> Lark:
    # Built once, by one thread: building takes seconds, and servers parse from several threads.
    with _PARSER_LOCK:
        return _build_parser()


@functools.lru_cache(maxsize=1)
def _build_parser() -> Lark:
    grammar = GRAMMAR.read_text(encoding="utf-8").replace("KEYWORDS", keyword_pattern()[4:-1])
    return Lark(grammar, parser="earley", lexer="dynamic", ambiguity="resolve", keep_all_tokens=True, start=STARTS)


@functools.lru_cache(maxsize=1)
def _keyword_start() -> re.Pattern[str]:
    return re.compile(keyword_pattern() + r"(?![a-z])")


_COST_START = re.compile(r"^(\{|\[[+-]?(\d+|X)\]|(sacrifice|pay|discard|exile|remove|tap|return)\b)", re.IGNORECASE)


def _candidates(text: str) -> list[str]:
    """The kinds of ability a line can be, most likely first: the grammar is tried only on those
    (an Earley parse of the whole grammar costs several times more)."""
    first = text.split(" ", 1)[0].strip(",").lower()
    if text.startswith("•"):
        return ["bullet"]
    if first in ("when", "whenever", "at"):
        return ["triggered", "modal_head"]
    head = text.split(".")[0]
    if ":" in head and _COST_START.match(text):
        return ["activated"]
    if first in ("level", "flip", "transform") and len(text.split()) <= 3:
        return ["flip_word"]
    kinds = []
    if _keyword_start().match(text):
        kinds.append("keyword_line")
    if first == "choose":
        kinds.append("modal_head")
    return kinds + ["static_line", "spell_line"]


def _rules(tree: Tree[Token]) -> Iterator[str]:
    stack = [tree]
    while stack:
        current = stack.pop()
        yield str(current.data)
        stack.extend(c for c in reversed(current.children) if isinstance(c, Tree))


_EFFECTS = {
    "deal_damage", "draw", "gain_life", "lose_life", "destroy", "exile", "bounce", "pump", "put_counters",
    "create_token", "search", "explore", "discover", "manifest", "cloak", "manifest_dread", "mill", "scry",
    "surveil", "counter_spell", "tap", "untap", "sacrifice", "discard", "add_mana", "look_top", "shuffle",
    "gain_keyword", "regenerate", "return_to_battlefield", "return_to_hand", "put_rest", "reveal_top", "transform",
    "fight", "goad", "investigate", "proliferate", "connive", "amass", "adapt", "put_onto_battlefield", "exile_graveyards",
    "fateseal", "clash", "detain", "populate", "monstrosity", "bolster", "support", "learn",
    "prevent_damage", "gain_control", "copy_spell", "choose_mode", "put_this_way", "extra_land", "reveal_from_among", "flash_permission", "may", "conditional", "otherwise", "for_each",
    "incubate", "suspect", "forage", "endure", "collect_evidence", "ring_tempts", "time_travel", "blight", "recruit",
    "earthbend", "airbend", "harness", "search_instead",
    "cascade",
    "prevent_damage", "gain_control", "copy_spell", "choose_mode", "put_this_way", "extra_land", "reveal_from_among", "reveal_hand", "choose_from_hand", "exchange_control", "exchange_life", "double_power", "double_life",
    "double_counters", "double_mana", "may", "conditional", "otherwise", "for_each", "each_puts_from_graveyard",
    "becomes_renowned", "get_poison", "create_token_copy", "prevent_next_from_source", "pay_cost",
}
_TRIGGERS = {
    "self_enters", "enters", "dies", "self_dies", "attacks", "self_attacks", "cast", "explores", "keyword_event",
    "cards_to_graveyard", "beginning", "deals_combat_damage", "turned_face_up", "self_leaves", "searches",
    "shuffles", "draws", "gains_life", "becomes_target", "blocks", "self_blocks", "sacrifice_event",
    "becomes_monstrous", "self_cycled", "self_cast", "player_dealt_damage",
}


def _keywords(tree: Tree[Token]) -> tuple[tuple[str, str], ...]:
    found = []
    for sub in tree.find_data("keyword"):
        token = sub.children[0]
        title = canonical_keyword(str(token)) or str(token)
        argument = " ".join(str(t) for t in _tokens(sub.children[1])) if len(sub.children) > 1 else ""
        if title == "Landwalk" and not argument:
            argument = str(token)
        if title == "Cycling" and str(token).casefold() != "cycling":
            argument = f"{token} {argument}".strip()
        found.append((title, argument))
    return tuple(found)


def _tokens(node: Any) -> Iterator[Token]:
    if isinstance(node, Token):
        yield node
    elif isinstance(node, Tree):
        for child in node.children:
            yield from _tokens(child)


def parse_line(line: str, name: str, number: int = 1) -> Ability:
    """One line of ``name``'s Oracle text."""
    text = normalise(line, name)
    if not text:
        return Ability("keyword" if line.strip() else "spell", "", number)   # reminder text only (a basic land's)
    # What a normalised line parses to is kept between processes (parse_cache.py: keyed by the grammar's digest).
    cache = parse_cache.current()
    found = cache.get(text, number) if cache is not None else None
    if found is None:
        found = _read(text, number)
        if cache is not None:
            cache.put(text, found)
    return found


def _read(text: str, number: int) -> Ability:
    """A normalised line, parsed by the grammar."""
    error = ""
    top: Tree[Token] | None = None
    parser = _parser()   # a broken grammar (a rule defined twice) raises here, never reads as "unparsed"
    for start in _candidates(text):
        try:
            top = parser.parse(text, start=start)
            break
        except LarkError as e:
            error = error or f"as {start.replace('_', ' ')}: " + str(e).split("\n")[0][:200]
    if top is None:
        return Ability("unparsed", text, number, error=error)
    kind = {"keyword_line": "keyword", "triggered": "triggered", "activated": "activated",
            "static_line": "static", "spell_line": "spell", "modal_head": "modal", "bullet": "bullet",
            "flip_word": "level"}.get(str(top.data), str(top.data))
    rules = list(_rules(top))
    trigger = next((r for r in rules if r in _TRIGGERS), None) if kind in ("triggered", "modal") else None
    static = None
    if kind == "static":
        first = top.children[0]
        static = str(first.data) if isinstance(first, Tree) else None
    effects = tuple(r for r in rules if r in _EFFECTS)
    return Ability(kind, text, number, top, _keywords(top) if kind in ("keyword",) else (), trigger, effects,
                   static, "once_each_turn" in rules)


@functools.lru_cache(maxsize=32768)
def parse_card(name: str, text: str) -> ParsedCard:
    """Every line of a card's Oracle text, read (``text`` lines are separated by newlines)."""
    abilities = [parse_line(line, name, i) for i, line in enumerate(text.split("\n"), 1) if line.strip()]
    return ParsedCard(name, tuple(abilities))
