"""The rules a card's text points to, for a question that names the card.

:func:`card_rules` ranks, for the cards a query names, the numbered rules of
the newest English release that a question about them most likely needs:

1. what the card is: its layout (Adventure 715, split card 709) and type
   line (Aura, Equipment, legendary, Saga), a power of ``*`` (604.3);
2. its keyword abilities (``card_keywords``: Flying → 702.9);
3. what its Oracle text does (:data:`TEXT_RULES`): "enters"
   (603.6), "enters tapped" (614.1), "dies" (700.4), "instead" (614.1),
   type- and ability-changing text (the layers, 613.1), a land's type set
   (305.7), power and toughness set or changed (613.4), Aura, Equipment,
   legendary, Saga, Adventure, …;
4. its first keyword actions (``card_keywords``: Exert → 701.43);
5. last, weak signs: a legendary card's legend rule (704.5).

The rules the card's rulings apply (``card_ruling_rules``) were tried as a
fifth source and left out: on the tuning part of the evaluation they found
no more answers and ranked them lower (bench/bench_card_search.py).

Each pattern names its rule by title as well as number, so that a test can
check it against the newest CR (``tests/test_search_cards.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class TextRule:
    pattern: str  # a regular expression over the Oracle text (or, prefixed "type:", the type line)
    number: str  # a numbered rule of the newest English release
    title: str  # words of that rule's text (or its title), checked against the CR by the tests
    last: bool = False  # a weak sign, listed after everything else (a legendary card: the legend rule)


#: What a card's text does → the rule a question about it needs (first match of each counts once).
TEXT_RULES: tuple[TextRule, ...] = (
    TextRule(r"\benters? (?:the battlefield )?tapped\b|\benters? with\b|\bAs .{1,60}\benters?\b", "614.12",
             "modify how a permanent enters the battlefield"),
    TextRule(r"\b(?:When|Whenever)\b[^.]{0,80}\benters?\b", "603.6", "enters-the-battlefield abilities"),
    TextRule(r"\bdies\b|put into (?:a|your|its owner's|their owners'?) graveyards?\b", "700.4", "dies"),
    TextRule(r"\b(?:When|Whenever)\b[^.]{0,80}\b(?:dies|leaves the battlefield|sacrifice)", "603.10",
             "look back in time"),
    TextRule(r"\binstead\b|\bIf .{1,80} would\b", "614.1", "replacement effects"),
    TextRule(r"\binstead\b|\bIf .{1,80} would\b", "614.6", "If an event is replaced, it never happens"),
    TextRule(r"\bprevent\b", "615.1", "prevention effects"),
    TextRule(r"\b(?:are|is) (?:a |an )?(?:Plains|Islands?|Swamps?|Mountains?|Forests?)\b|"
             r"\bland (?:type|types)\b", "305.7", "sets a land's subtype"),
    TextRule(r"in addition to (?:its|their) other (?:types|colors|creature types|land types)|"
             r"\bbecomes? (?:a|an) [^.]{0,40}(?:creature|artifact|land)\b|\blose(?:s)? all abilities\b|"
             r"\b(?:are|is) (?:a |an )?(?:Plains|Islands?|Swamps?|Mountains?|Forests?)\b|"
             r"\bgain control\b|\b(?:have|has|gain|gains) \"|\bare (?:\w+ )?creatures\b", "613.1",
             "values of an object's characteristics"),
    TextRule(r"\bbase power\b|\bgets? [+-]\d+/[+-]\d+|\bswitch\b[^.]*power|\bpower and toughness are each\b|"
             r"\bhave base\b|\bis \d+/\d+\b|\bare \d+/\d+\b", "613.4", "power and/or toughness"),
    TextRule(r"\bcop(?:y|ies)\b", "707.2", "copiable values"),
    TextRule(r"\bcreate[s]?\b[^.]*\btokens?\b", "111.1", "tokens"),
    TextRule(r"\{T\}[^:]*: Add\b|\bAdd \{|\badds? (?:one )?mana\b", "605.1", "mana ability"),
    TextRule(r"\{Q\}", "107.6", "untap symbol"),
    TextRule(r"\bWhenever (?:you|a player|an opponent) casts?\b", "601.2", "casting a spell"),
    TextRule(r"^(?:When|Whenever|At)\b|\n(?:When|Whenever|At)\b", "603.2", "triggered ability"),
    TextRule(r"[+-]1/[+-]1 counters?", "122.1", "counter"),
    TextRule(r"\bwithout paying (?:its|their) mana costs?\b|\brather than pay", "118.9", "alternative costs"),
    TextRule(r"\bAs an additional cost\b", "118.8", "additional costs"),
    TextRule(r"\bAs an additional cost\b", "601.2", "casting a spell"),
    TextRule(r"\bcan't lose the game\b|\bcan't win the game\b", "104.3", "ways to lose the game"),
    TextRule(r"\bextra turn\b", "500.7", "extra turns"),
    TextRule(r"\bplay an additional land\b|\bplay lands from\b", "305.2", "play one land"),
    TextRule(r"\bChoose (?:one|two|one or more)\b", "700.2", "modal"),
    TextRule(r"\bAdventure\b", "715.3", "as an Adventure"),
    TextRule(r"type:\bLegendary\b", "704.5", "legendary permanents with the same name", last=True),
    TextRule(r"type:\bAura\b", "303.4", "Aura"),
    TextRule(r"\bAura\b", "303.4", "Aura"),
    TextRule(r"type:\bEquipment\b", "301.5", "Equipment"),
    TextRule(r"type:\bVehicle\b", "301.7", "Vehicle"),
    TextRule(r"type:\bSaga\b", "714.4", "lore counters"),
    TextRule(r"type:\bPlaneswalker\b", "606.3", "loyalty ability of a permanent"),
    TextRule(r"type:\bBattle\b", "310.1", "battle"),
)

_COMPILED = [(re.compile(r.pattern.removeprefix("type:")), r) for r in TEXT_RULES]
LAYOUT_RULES = {"adventure": ("715.3", "Adventure"), "split": ("709.3", "split card"),
                "transform": ("712.8", "double-faced"), "modal_dfc": ("712.8", "double-faced"),
                "flip": ("710.1", "flip")}
CDA = ("604.3", "characteristic-defining abilities")  # a power or toughness of * (Tarmogoyf)

KEYWORD_ACTIONS = 2
MAX_RULES = 4  # every rule of the list weighs about as much in the fusion: a short list is a precise one


def card_rules(conn, card_ids: list[int], *, release: str | None) -> list[tuple[str, str, str]]:
    """(release, number, why) of the rules the cards' text points to, best first (see the module
    docstring); ``release`` is the newest English release."""
    if not card_ids or release is None:
        return []
    tables = _tables(conn)
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()

    def add(number: str | None, why: str):
        number = _numbered(number)
        if number and number not in seen and len(out) < MAX_RULES:
            seen.add(number)
            out.append((release, number, why))

    per_card = []
    for card_id in card_ids:
        row = conn.execute("select name_en, type_line, text, faces_text, power, toughness, layout from cards"
                           " where id = ?", [card_id]).fetchone()
        if row:
            per_card.append((card_id, row))
    keywords: list[tuple[str, str]] = []
    if "card_keywords" in tables and per_card:
        marks = ",".join("?" * len(per_card))
        keywords = conn.execute(
            f"select number, keyword from card_keywords where card_id in ({marks}) and number is not null"
            f" order by card_id, id", [c for c, _ in per_card]).fetchall()
    # 1. What the card is: its layout (an Adventure, a split card) and type line (an Aura, legendary).
    for _, (name, type_line, text, faces_text, power, toughness, layout) in per_card:
        if layout in LAYOUT_RULES:
            add(LAYOUT_RULES[layout][0], LAYOUT_RULES[layout][1])
        for regex, rule in _COMPILED:
            if rule.pattern.startswith("type:") and not rule.last and regex.search(type_line or ""):
                add(rule.number, rule.title)
        if "*" in f"{power or ''}{toughness or ''}":
            add(CDA[0], CDA[1])
    # 2. Its keyword abilities (702), in the order the text has them.
    for number, keyword in keywords:
        if number.startswith("702."):
            add(number, f"keyword {keyword}")
    # 3. What its text does.
    for _, (name, type_line, text, faces_text, power, toughness, layout) in per_card:
        body = (text or "") + "\n" + (faces_text or "")
        for regex, rule in _COMPILED:
            if not rule.pattern.startswith("type:") and regex.search(body):
                add(rule.number, rule.title)
    # 4. Its keyword actions (701: exile, sacrifice, search), the least telling: a question that
    # names one finds its rule by the word anyway.
    for number, keyword in keywords[:KEYWORD_ACTIONS]:
        if not number.startswith("702."):
            add(number, f"keyword action {keyword}")
    # 5. Weak signs: being legendary says little of what is asked about a card.
    for _, (name, type_line, *_rest) in per_card:
        for regex, rule in _COMPILED:
            if rule.last and regex.search(type_line or ""):
                add(rule.number, rule.title)
    return out


def _numbered(number: str | None) -> str | None:
    if not number:
        return None
    return number[:-1] if re.fullmatch(r"\d{3}\.\d+[a-z]", number) else number


_TABLES: dict = {}


def _tables(conn) -> set[str]:
    key = next((r[2] for r in conn.execute("pragma database_list") if r[1] == "main"), "") or id(conn)
    if key not in _TABLES:
        _TABLES[key] = {r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")}
    return _TABLES[key]

