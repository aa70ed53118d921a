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

Several cards: each card's list is taken in turns, tier by tier. Reminder text
is no sign (the keyword's rule stands for it). With a question, its words
choose among the rules (:func:`blend`) and say how much the card's ranking
weighs in the search (:func:`card_ranking`); a keyword ability the question
names joins them, and a rule the text only invites (tier 2: the stack, targets
on resolution) rises above the card's own only on the question's strong words.

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
    also: bool = False  # what questions about such text often turn on, not what the text does (the stack
    #                     order of a trigger, a new object after a zone change): listed after the text's own


_TRIGGER = r"(?:^|\n|— |• )(?:When|Whenever|At)\b"
_KEYWORDS = (r"(?:flying|first strike|double strike|deathtouch|haste|hexproof|indestructible|lifelink|menace|reach|"
             r"trample|vigilance|infect|defender|shroud|wither|intimidate|fear|protection from [a-z]+)")
# A static ability granting or removing a keyword ("Creatures you control with counters on them have vigilance",
# "Creatures your opponents control lose infect"): a layer 6 effect.
_GRANTS = r"\b(?:have|has|lose|loses)\s+" + _KEYWORDS + r"\b"
# An activated ability that is not a mana ability nor a loyalty ability: "{1}{U}, Sacrifice ~: Return …".
_ACTIVATED = r"(?m)^(?!\[?[+\-−]?(?:\d+|X)\]?: )[^\n:\"•—]{1,90}: (?!Add\b)"
#: What a card's text does → the rule a question about it needs (first match of each counts once).
TEXT_RULES: tuple[TextRule, ...] = (
    TextRule(r"\benters? (?:the battlefield )?tapped\b|\benters? with\b|\bAs .{1,60}\benters?\b", "614.12",
             "modify how a permanent enters the battlefield"),
    TextRule(r"\b(?:When|Whenever)\b[^.]{0,80}\benters?\b", "603.6", "enters-the-battlefield abilities"),
    TextRule(r"\b(?:When|Whenever)\b[^.]{0,80}\bleaves? the battlefield\b", "603.6",
             "Leaves-the-battlefield abilities"),
    TextRule(r"\bdies\b|put into (?:a|your|its owner's|their owners'?) graveyards?\b", "700.4", "dies"),
    TextRule(r"\b(?:When|Whenever)\b[^.]{0,80}\b(?:dies|leaves the battlefield|sacrifice|"
             r"(?:is|are) put into (?:a|your|an opponent's|its owner's) graveyard from (?:the battlefield|anywhere))",
             "603.10", "look back in time"),
    TextRule(r"\binstead\b|\bIf .{1,80} would\b", "614.1", "replacement effects"),
    TextRule(r"\binstead\b|\bIf .{1,80} would\b", "614.6", "If an event is replaced, it never happens"),
    TextRule(r"\b[Pp]revent\b", "615.1", "prevention effects"),
    TextRule(r"\b(?:are|is) (?:a |an )?(?:Plains|Islands?|Swamps?|Mountains?|Forests?)\b|"
             r"\bland (?:type|types)\b", "305.7", "sets a land's subtype"),
    TextRule(r"in addition to (?:its|their) other (?:types|colors|creature types|land types)|"
             r"\bbecomes? (?:a|an) [^.]{0,40}(?:creature|artifact|land)\b|\blose(?:s)? all abilities\b|"
             r"\b(?:are|is) (?:a |an )?(?:Plains|Islands?|Swamps?|Mountains?|Forests?)\b|"
             r"\b[Gg]ain control\b|\b(?:have|has|gain|gains) \"|\bare (?:\w+ )?creatures\b", "613.1",
             "values of an object's characteristics"),
    TextRule(r"\bbase power\b|\bgets? [+-]\d+/[+-]\d+|\bswitch\b[^.]*power|\bpower and toughness are each\b|"
             r"\bhave base\b|\bis \d+/\d+\b|\bare \d+/\d+\b", "613.4", "power and/or toughness"),
    TextRule(r"\b[Cc]op(?:y|ies)\b", "707.2", "copiable values"),
    TextRule(r"\b[Cc]opy (?:target|that|it|each)\b[^.]*\b(?:spell|ability)\b|\bcopy of (?:that|target) (?:spell|ability)",
             "707.10", "To copy a spell, activated ability, or triggered ability"),
    TextRule(r"\bcreate[s]?\b[^.]*\btokens?\b", "111.1", "tokens"),
    TextRule(r"\{T\}[^:]*: Add\b|\bAdd \{|\badds? (?:one )?mana\b", "605.1", "mana ability"),
    TextRule(r"\{Q\}", "107.6", "untap symbol"),
    TextRule(r"\b[Ww]henever (?:you|a player|an opponent|another player) casts?\b", "601.2", "casting a spell"),
    # Attacking and blocking: restrictions and requirements, and creatures put onto the battlefield attacking.
    TextRule(r"\bcan't attack\b|\battacks? each (?:combat|turn) if able\b|\bcan attack only\b|"
             r"\bcan't attack alone\b|\bNo more than (?:one|two) creatures? can attack\b", "508.1",
             "declares attackers"),
    TextRule(r"\bcan't block\b|\bblocks? each (?:combat|turn) if able\b|\bcan block only\b|"
             r"\bmust be blocked\b|\bcan't be blocked\b|\bNo more than (?:one|two) creatures? can block\b",
             "509.1", "declares blockers"),
    TextRule(r"\btapped and attacking\b|\bonto the battlefield attacking\b|\benters? attacking\b", "508.4",
             "put onto the battlefield attacking"),
    TextRule(r"\bunless (?:you|that player|its controller|an opponent|any player)\b", "118.12",
             "unless"),
    TextRule(_TRIGGER, "603.2", "triggered ability"),
    TextRule(_TRIGGER + r"[^,.]{0,80}, if\b", "603.4", "if [condition]"),
    TextRule(r"\bat the beginning of the next\b|\bat the beginning of (?:the|your) next\b", "603.7",
             "delayed triggered ability"),
    # Any kind of counter put or removed ("Remove two time counters from each permanent", "put a lore counter").
    TextRule(r"[+-]1/[+-]1 counters?|\b[Pp]uts? (?:a|an|one|two|three|X|that many) [a-z]+ counters?\b|"
             r"\b[Rr]emoves? (?:a|an|one|two|three|X|that many|all) [a-z]+ counters?\b", "122.1", "counter"),
    TextRule(r"\{E\}", "107.14", "energy symbol"),
    # Leylines, Chancellors, Gemstone Caverns, Sphinx of Foresight: actions from the opening hand.
    TextRule(r"\byour opening hand\b", "103.6", "take actions with them from their opening hand",
             also=True),  # once, before the first turn: the question's words say whether it is asked
    # Angel of Vitality, Boon Reflection: a life-gain replacement effect.
    TextRule(r"\bwould gain life\b", "119.10", "would gain life"),
    # Nyxbloom Ancient, Mana Reflection: the extra mana keeps the first ability's restrictions.
    TextRule(r"\bfor mana\b[^.]*\binstead\b|\b(?:twice|three times) as much (?:of that )?mana\b", "106.6",
             "increase the amount of mana produced"),
    # Kinnan, Mana Flare, Heartbeat of Spring: "whenever … is tapped for mana" is a triggered mana ability.
    TextRule(r"\b(?:tap|taps|is tapped|are tapped)\b[^.]{0,40}\bfor mana\b", "106.12", "tap [a permanent] for mana"),
    TextRule(r"\bwithout paying (?:its|their) mana costs?\b|\brather than pay", "118.9", "alternative costs"),
    TextRule(r"\bAs an additional cost\b", "118.8", "additional costs"),
    TextRule(r"\bAs an additional cost\b|\bcosts? (?:\{[^}]+\})+ (?:less|more)\b|\bcosts? (?:\w+ )?(?:less|more) to cast\b",
             "601.2", "casting a spell"),
    TextRule(r"\bYou may (?:cast|play)\b|\bmay be cast\b|\bcan't cast\b|\bcan't be cast\b", "601.3",
             "allows that player to cast it"),
    TextRule(r"\bcan't be activated\b|\babilities can't\b|\bActivate only\b", "602.5",
             "prohibited from being activated"),
    TextRule(r"\bcan't lose the game\b|\bcan't win the game\b", "104.3", "ways to lose the game"),
    TextRule(r"\bwins? the game\b", "104.2", "ways to win the game"),
    TextRule(r"\b[Cc]hange the text of\b|\breplacing all instances of\b", "612.1", "change an object's text"),
    TextRule(r"\bassigns? (?:its |their )?combat damage\b|\bas though (?:it|they) weren't blocked\b", "510.1",
             "assigns its combat damage"),
    TextRule(r"\b[Cc]hange (?:the|a) targets? of\b|\bchoose new targets\b", "115.7", "change the target"),
    TextRule(r"\bgain control of target (?:player|opponent)\b|\bcontrol (?:target )?(?:player|opponent) during\b",
             "723.1", "control another player"),
    TextRule(r"\bextra turn\b", "500.7", "extra turns"),
    TextRule(r"\bplay an additional land\b|\bplay lands from\b", "305.2", "play one land"),
    TextRule(r"\bChoose (?:one|two|one or more)\b", "700.2", "modal"),
    TextRule(r"\bemblem\b", "114.1", "emblems"),
    TextRule(r"\b[Ss]kips?\b", "614.10", "skip"),
    TextRule(r"\bthe exiled (?:card|cards|creature|permanent)s?\b|\bexiled with\b", "607.2", "linked"),
    TextRule(r"\bAdventure\b", "715.3", "as an Adventure"),
    TextRule(r"\boutside the game\b", "400.11", "outside the game"),
    TextRule(r"\bcosts? (?:\{[^}]+\})+ (?:less|more)\b|\bcosts? (?:\w+ )?(?:less|more) to (?:cast|activate)\b|"
             r"\breduce[sd]? (?:the|its|that) cost\b", "118.7", "changed or reduced by effects"),
    TextRule(r"\bcan't be prevented\b", "615.12", "can't be prevented"),
    TextRule(_GRANTS, "613.1", "values of an object's characteristics"),
    TextRule(r"cost:\{[^}]*/[^}]*\}", "107.4", "hybrid symbols"),
    # What questions about such text turn on: the stack, new objects, targets, "can't".
    TextRule(_TRIGGER, "603.3", "puts it on the stack", also=True),
    TextRule(r"\binstead\b|\bIf .{1,80} would\b|\b[Pp]revent\b", "616.1", "chooses one to apply", also=True),
    TextRule(_TRIGGER + r"|\b[Cc]ounter target\b|\b[Cc]opy target\b", "405.5",
             "the top (last-added) spell or ability on the stack resolves", also=True),
    TextRule(r"\b[Rr]eturn\b[^.]*\bto the battlefield\b|\b[Rr]eturn\b[^.]*\bto (?:its|their) owner's hand\b|"
             r"\b[Ee]xile\b[^.]*\bthen return\b", "400.7", "becomes a new object", also=True),
    TextRule(_GRANTS + r"|in addition to (?:its|their) other (?:types|colors|creature types|land types)|"
             r"\bbecomes? (?:a|an) [^.]{0,40}(?:creature|artifact|land)\b|\blose(?:s)? all abilities\b|"
             r"\b(?:are|is) (?:a |an )?(?:Plains|Islands?|Swamps?|Mountains?|Forests?)\b|\bhave base\b",
             "613.7", "timestamp", last=True),
    TextRule(r"in addition to (?:its|their) other (?:types|colors|creature types|land types)|"
             r"\bbecomes? (?:a|an) [^.]{0,40}(?:creature|artifact|land)\b|\blose(?:s)? all abilities\b|"
             r"\b(?:are|is) (?:a |an )?(?:Plains|Islands?|Swamps?|Mountains?|Forests?)\b|"
             r"\bare (?:\w+ )?creatures\b", "613.8", "dependency system", last=True),
    TextRule(r"\buntil [^.]*\bleaves the battlefield\b", "610.3", "until", also=True),
    # Blood Moon, Blood Sun, Humility: an entering permanent's "As … enters" is already gone (614.12).
    TextRule(r"\blose(?:s)? all abilities\b|\b(?:are|is) (?:a |an )?(?:Plains|Islands?|Swamps?|Mountains?|Forests?)\b",
             "614.12", "modify how a permanent enters the battlefield", also=True),
    TextRule(_ACTIVATED, "602.2", "activate an ability", also=True),
    TextRule(r"\btarget\b", "608.2", "illegal", also=True),
    TextRule(r"\bcan't\b", "101.2", "can't", also=True),
    TextRule(r"\b[Uu]ntil end of turn\b", "611.2", "continuous effect may be generated by the resolution", also=True),
    TextRule(r"\bcreate[s]?\b[^.]*\btokens?\b", "111.7", "ceases to exist", also=True),
    TextRule(r"\b[Yy]ou may play (?:that|those|the|it|them|cards?)\b|\bmay play lands?\b", "305.2", "play one land",
             also=True),  # "play", not "cast": a land among them is played as the land of the turn
    TextRule(r"\bcreate[s]?\b[^.]*\bcreature tokens?\b|\btoken that's a copy\b|\btoken copy\b", "302.6",
             "continuously since their most recent turn began", also=True),
    TextRule(r"\b[Ee]ach (?:player|opponent)\b", "101.4", "active player", also=True),
    TextRule(r"\b(?:its|their) owners?'s? (?:hand|library|graveyard)s?\b", "400.3",
             "other than its owner", also=True),
    TextRule(r"\b(?:gets?|put) -\d+/-\d+|-1/-1 counters?", "704.5", "toughness 0", also=True),
    TextRule(r"type:\bLegendary\b", "704.5", "legendary permanents with the same name", last=True),
    TextRule(r"type:\bAura\b", "303.4", "Aura"),
    TextRule(r"\bAura\b", "303.4", "Aura"),
    TextRule(r"type:\bEquipment\b", "301.5", "Equipment"),
    TextRule(r"type:\bVehicle\b", "301.7", "Vehicle"),
    TextRule(r"type:\bSaga\b", "714.2", "chapter ability"),
    TextRule(r"type:\bSaga\b", "714.4", "lore counters"),
    TextRule(r"type:\bPlaneswalker\b", "606.3", "loyalty ability of a permanent"),
    TextRule(r"type:\bBattle\b", "310.1", "battle"),
)

_COMPILED = [(re.compile(r.pattern.removeprefix("type:").removeprefix("cost:")), r) for r in TEXT_RULES]
# What a keyword ability of the card brings with it that questions about it turn on (indestructible ignores
# the lethal-damage state-based action; persist returns a new object; double strike a second damage step).
KEYWORD_ALSO = {"702.12": ("704.5", "state-based actions"), "702.2": ("704.5", "state-based actions"),
                "702.79": ("400.7", "becomes a new object"), "702.93": ("400.7", "becomes a new object"),
                "702.4": ("510.4", "double strike")}
LAYOUT_RULES = {"adventure": ("715.3", "Adventure"), "split": ("709.3", "split card"),
                "transform": ("712.8", "double-faced"), "modal_dfc": ("712.8", "double-faced"),
                "flip": ("710.1", "flip")}
CDA = ("604.3", "characteristic-defining abilities")  # a power or toughness of * (Tarmogoyf)

COPY_SPELL = ("707.10", "To copy a spell, activated ability, or triggered ability")
_COPIED = re.compile(r"\bcop(?:y|ied|ies|ying)\b")
KEYWORD_ACTIONS = 2
MAX_RULES = 4  # every rule of the list weighs about as much in the fusion: a short list is a precise one
PRIOR_K = 2.0  # the card's own order: 1 / (PRIOR_K + position), position 0 the first rule its text points to
ASKED_K = 2.0  # the question's order: ASKED_WEIGHT / (ASKED_K + rank), rank 1 the rule its words find first
UNASKED_KEYWORD = 0.3  # the card's order's weight for a keyword ability the question doesn't name
ASKED_WEIGHT = 2.0  # the question weighs twice what the card says: among its rules, the one asked about
# How well the question's words find a card's rule, as a share of how well they find the CR's best rule
# for them (bm25 of the search index): the card's ranking weighs best / FOCUS_SHARE of its weight, at least
# FOCUS_FLOOR. (Dropping the matches under a third of the best, too, lost a question of the tuning half.)
FOCUS_SHARE = 0.6
INVITED_SHARE = 0.5  # the same bar for a rule the card's text only invites (tier 2 of the module docstring)
KEYWORD_SHARE = 0.5  # a share as FOCUS_SHARE reads it: the keyword's rule about as well found as the CR's best
FOCUS_FLOOR = 0.25


def card_rules(conn, card_ids: list[int], *, release: str | None, plan=None,
               limit: int = MAX_RULES) -> list[tuple[str, str, str]]:
    """(release, number, why) of the rules the cards' text points to, best first (see the module
    docstring); ``release`` is the newest English release.

    With ``plan`` (the question's :class:`~.query.QueryPlan`, the names' words dropped), the rules
    the card touches are blended (:func:`blend`) with the rank at which the question's own words
    find each of them (:func:`asked_ranks`), so that a question about a card's trigger and the stack
    gets the stack's rule of the card's, not its keyword's."""
    return card_ranking(conn, card_ids, release=release, plan=plan, limit=limit)[0]


def card_ranking(conn, card_ids: list[int], *, release: str | None, plan=None,
                 limit: int = MAX_RULES) -> tuple[list[tuple[str, str, str]], float]:
    """:func:`card_rules` and how much the question is about them: 1.0 when its words find one of
    the card's rules about as well as any rule of the CR (or it has no words of its own: "What
    happens?"), down to :data:`FOCUS_FLOOR` when its words find none of them nearly as well as some
    other rule (a question that names Yasova Dragonclaw and asks how many cards a player draws in the
    draw step). The search weighs the card's ranking by it."""
    tiered = _tiered_candidates(conn, card_ids, release=release)
    invited = {number for _, number, _, tier in tiered if tier == 1}  # what questions about such text turn on
    candidates = [(release_, number, why) for release_, number, why, _ in tiered]
    # A question that copies an instant or a sorcery copies a spell, whatever the card's text says.
    if (plan is not None and candidates and _COPIED.search(_words_asked(plan))
            and not any(n == COPY_SPELL[0] for _, n, _ in candidates)
            and conn.execute(f"select 1 from cards where id in ({','.join('?' * len(card_ids))})"
                             " and (type_line like '%Instant%' or type_line like '%Sorcery%')", card_ids).fetchone()):
        candidates.append((release, *COPY_SPELL))
    if plan is not None and candidates:
        # A keyword ability the question names joins the card's rules ("can Necromancy return a creature
        # with protection from black"): the question's words rank it among them like the card's own.
        have = {n for _, n, _ in candidates}
        candidates += [(release, number, f"keyword {title}") for number, title in _keywords_named(conn, plan, card_ids,
                                                                                                  release)
                       if number not in have]
    focus = 1.0
    if plan is not None and candidates:
        ranks, strength = asked_strengths(conn, plan, [n for _, n, _ in candidates], release=release)
        if strength is not None:
            best = max(strength.values(), default=0.0)
            focus = max(FOCUS_FLOOR, min(1.0, best / FOCUS_SHARE))
        named = _words_asked(plan)
        # A keyword ability is asked about when the question names it ("does trample …"); its rule's
        # text matching the question's other words ("creature", "damage") says nothing, and an unasked
        # keyword weighs less than the rest of what the text does (Yasova's trample is not what a
        # question about her trigger's target is about).
        # A keyword the question doesn't name still counts when the question's words find its rule about
        # as well as any rule of the CR ("can he still be targeted" is hexproof's own definition).
        asked = [None if why.startswith("keyword ") and not _names_keyword(why, named)
                 and (why.startswith("keyword action ") or (strength or {}).get(n, 0.0) < KEYWORD_SHARE)
                 else ranks.get(n) for _, n, why in candidates]
        # A rule the text only invites (a trigger's place on the stack, targets on resolution, "can't") rises
        # above what the card does only when the question's words find it first among the card's rules or
        # as well as any rule of the CR: weak words ("cast", "creature") match those long rules everywhere.
        if strength is not None:
            asked = [None if n in invited and a != 1 and strength.get(n, 0.0) < INVITED_SHARE else a
                     for (_, n, _), a in zip(candidates, asked)]
        priors = [UNASKED_KEYWORD if why.startswith("keyword ") and not why.startswith("keyword action ") and a is None
                  else 1.0
                  for (_, _, why), a in zip(candidates, asked)]
        candidates = blend(candidates, asked, priors)
    return candidates[:limit], focus


_KEYWORD_TITLES: dict = {}


def _keywords_named(conn, plan, card_ids: list[int], release: str | None) -> list[tuple[str, str]]:
    """(number, title) of the keyword abilities (702) whose names the question's terms are, in the order
    the question has them, but not a keyword that is a word of a named card's name (Possibility Storm is
    no question about storm)."""
    if release is None:
        return []
    key = (_tables_key(conn), release)
    if key not in _KEYWORD_TITLES:
        _KEYWORD_TITLES[key] = {title.lower(): number for number, title in conn.execute(
            "select number, title from rules where lang = 'en' and release = ? and number glob '702.[0-9]*'"
            " and number not glob '*[a-z]' and title is not null", [release])}
    titles = _KEYWORD_TITLES[key]
    marks = ",".join("?" * len(card_ids))
    names = " ".join(n.lower() for (n,) in conn.execute(f"select name_en from cards where id in ({marks})", card_ids))
    out: list[tuple[str, str]] = []
    for term in plan.terms:
        phrase = term.phrase.lower()
        number = titles.get(phrase)
        if number and not re.search(rf"\b{re.escape(phrase)}\b", names) and all(n != number for n, _ in out):
            out.append((number, phrase))
    return out


def _words_asked(plan) -> str:
    return " ".join([(plan.text or "").lower()] + [t.phrase.lower() for t in plan.terms])


def _names_keyword(why: str, asked: str) -> bool:
    keyword = why.removeprefix("keyword action ").removeprefix("keyword ").lower()
    return bool(keyword) and (keyword in asked or keyword.replace("-", " ") in asked)


def blend(candidates: list, ranks: list[int | None], priors: list[float] | None = None) -> list:
    """``candidates`` (best first) reordered by their position and the question's ``ranks`` of them.

    >>> blend(["a", "b", "c"], [None, None, 1])
    ['c', 'a', 'b']
    >>> blend(["a", "b", "c"], [None, 30, None])
    ['a', 'b', 'c']
    """
    priors = priors or [1.0] * len(ranks)
    scores = [p / (PRIOR_K + i) + (ASKED_WEIGHT / (ASKED_K + r) if r else 0.0)
              for i, (r, p) in enumerate(zip(ranks, priors))]
    order = sorted(range(len(candidates)), key=lambda i: (-scores[i], i))
    return [candidates[i] for i in order]


def card_rule_candidates(conn, card_ids: list[int], *, release: str | None) -> list[tuple[str, str, str]]:
    """:func:`_tiered_candidates` without their tiers."""
    return [(release_, number, why) for release_, number, why, _tier in _tiered_candidates(conn, card_ids,
                                                                                              release=release)]


def _tiered_candidates(conn, card_ids: list[int], *, release: str | None) -> list[tuple[str, str, str, int]]:
    """Every rule the cards' text points to, in the card's order (module docstring), unblended.

    With several cards, each card's list is taken in turns, tier by tier (what the cards are and do,
    then what questions about such text turn on, then weak signs): the first card's long list does not
    fill the first places before the second card's first rule ("I cast Hero's Downfall on an Elspeth,
    Sun's Champion": destroy, 701.8, beside the planeswalker's rules)."""
    if not card_ids or release is None:
        return []
    tables = _tables(conn)
    per_card = []
    for card_id in card_ids:
        row = conn.execute("select name_en, type_line, text, faces_text, power, toughness, layout, mana_cost"
                           " from cards where id = ?", [card_id]).fetchone()
        if row:
            per_card.append((card_id, row))
    keywords: dict[int, list[tuple[str, str]]] = {}
    if "card_keywords" in tables and per_card:
        marks = ",".join("?" * len(per_card))
        for card_id, number, keyword in conn.execute(
                f"select card_id, number, keyword from card_keywords where card_id in ({marks})"
                f" and number is not null order by card_id, id", [c for c, _ in per_card]):
            keywords.setdefault(card_id, []).append((number, keyword))
    tiers = [_card_tiers(row, keywords.get(card_id, [])) for card_id, row in per_card]
    out: list[tuple[str, str, str, int]] = []
    seen: set[str] = set()
    for tier in range(3):
        lists = [t[tier] for t in tiers]
        for i in range(max((len(x) for x in lists), default=0)):
            for x in lists:
                if i < len(x):
                    number = _numbered(x[i][0])
                    if number and number not in seen:
                        seen.add(number)
                        out.append((release, number, x[i][1], tier))
    return out


def _card_tiers(row, keywords: list[tuple[str, str]]) -> tuple[list, list, list]:
    """One card's (number, why) lists: what it is and does; what questions about it turn on; weak signs."""
    _name, type_line, text, faces_text, power, toughness, layout, mana_cost = row
    own: list[tuple[str, str]] = []
    # 1. What the card is: its layout (an Adventure, a split card) and type line (an Aura, legendary).
    if layout in LAYOUT_RULES:
        own.append(LAYOUT_RULES[layout])
    for regex, rule in _COMPILED:
        if rule.pattern.startswith("type:") and not rule.last and regex.search(type_line or ""):
            own.append((rule.number, rule.title))
    if "*" in f"{power or ''}{toughness or ''}":
        own.append(CDA)
    # 2. Its keyword abilities (702), in the order the text has them.
    own += [(number, f"keyword {keyword}") for number, keyword in keywords if number.startswith("702.")]
    # 3. What its text does; 4. its first keyword actions (701: exile, sacrifice, search), the least
    # telling: a question that names one finds its rule by the word anyway.
    body = _REMINDER.sub("", (text or "") + "\n" + (faces_text or ""))
    own += [(r.number, r.title) for regex, r in _COMPILED
            if not r.also and not r.last and not r.pattern.startswith("type:")
            and regex.search(mana_cost or "" if r.pattern.startswith("cost:") else body)]
    # (the first actions, not the first keywords: Dimir Spybug's flying and menace left its surveil out)
    own += [(number, f"keyword action {keyword}") for number, keyword in
            [k for k in keywords if not k[0].startswith("702.")][:KEYWORD_ACTIONS]]
    # Then what questions about such text turn on.
    also = [(r.number, r.title) for regex, r in _COMPILED
            if r.also and not r.last and not r.pattern.startswith("type:") and regex.search(body)]
    also += [KEYWORD_ALSO[_numbered(number)] for number, _ in keywords if _numbered(number) in KEYWORD_ALSO]
    # 5. Weak signs: being legendary says little of what is asked about a card.
    weak = [(r.number, r.title) for regex, r in _COMPILED
            if r.last and regex.search((type_line or "") if r.pattern.startswith("type:") else body)]
    return own, also, weak


# Reminder text restates a keyword, whose own rule the card's keywords already give: "(You may cast this
# card from your graveyard …)" is flashback's, not a permission to cast (601.3); "(They can't be the
# targets …)" is shroud's, not a "can't" of the card (101.2).
_REMINDER = re.compile(r"\s*\([^()]*\)")


def _numbered(number: str | None) -> str | None:
    if not number:
        return None
    return number[:-1] if re.fullmatch(r"\d{3}\.\d+[a-z]", number) else number


_TABLES: dict = {}


def _tables_key(conn):
    return next((r[2] for r in conn.execute("pragma database_list") if r[1] == "main"), "") or id(conn)


def _tables(conn) -> set[str]:
    key = _tables_key(conn)
    if key not in _TABLES:
        _TABLES[key] = {r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")}
    return _TABLES[key]



# The question's words against the rules of the card only (their subrules and examples too), by the
# bm25 of the search index: a word rare in the CR counts for more than one every rule has.
_ASKED_SQL = """
select (case when s.number glob '*[0-9][a-z]' then substr(s.number, 1, length(s.number) - 1) else s.number end),
       bm25({fts}) as rank
from {fts} join search_current s on s.id = {fts}.rowid
where {fts} match :query and s.lang = :lang and s.release = :release
  and s.kind in ('rule', 'example')
  and (case when s.number glob '*[0-9][a-z]' then substr(s.number, 1, length(s.number) - 1) else s.number end)
      in (select value from json_each(:numbers))
order by rank
"""


def asked_ranks(conn, plan, numbers: list[str], *, release: str) -> dict[str, int]:
    """{number: rank}: :func:`asked_strengths`' ranks."""
    return asked_strengths(conn, plan, numbers, release=release)[0]


_BEST_SQL = """
select bm25({fts}) as rank from {fts} join search_current s on s.id = {fts}.rowid
where {fts} match :query and s.lang = :lang and s.release = :release and s.kind in ('rule', 'example')
order by rank limit 1
"""


def asked_strengths(conn, plan, numbers: list[str], *, release: str
                    ) -> tuple[dict[str, int], dict[str, float] | None]:
    """{number: rank} of the rules ``numbers`` (numbered rules of the English ``release``) by how
    well the question's own words (``plan.terms``, the card names' words already dropped) match
    their text and their subrules' and examples', in English and in Japanese (through the rule
    lineage): the question's words, read only against what the card touches, say which of its rules
    the question is about ("in what order do the two triggers go on the stack" → 603.3)."""
    import json

    from .lexical import match_expression

    if not numbers or "search_current" not in _tables(conn):
        return {}, None
    best: dict[str, int] = {}
    strength: dict[str, float] | None = None
    for lang in ("en", "ja"):
        expression = match_expression(plan, lang)
        if not expression:
            continue
        if lang == "en":
            target, mapping = release, {n: n for n in numbers}
        else:
            target, mapping = _counterparts(conn, numbers, release, lang)
        if not mapping:
            continue
        back = {v: k for k, v in mapping.items()}
        # The CR rows' own index where the build made it (rarity among rules), else the index of every row.
        fts = "search_rules_fts" if "search_rules_fts" in _tables(conn) else "search_current_fts"
        rows = conn.execute(_ASKED_SQL.format(fts=fts), {"query": expression, "lang": lang, "release": target,
                                         "numbers": json.dumps(list(mapping.values()))}).fetchall()
        for rank, number in enumerate(dict.fromkeys(n for n, _ in rows), 1):
            en = back.get(number)
            if en and rank < best.get(en, 10 ** 6):
                best[en] = rank
        # The share of the CR's best match, in the language whose words the question has most of.
        top = (conn.execute(_BEST_SQL.format(fts=fts), {"query": expression, "lang": lang, "release": target}
                            ).fetchone() or [None])[0]
        if top and top < 0:
            shares: dict[str, float] = {}
            for number, score in rows:
                en = back.get(number)
                if en:
                    shares[en] = max(shares.get(en, 0.0), score / top)
            if strength is None or lang in plan.languages:
                strength = shares
    return best, strength


def _counterparts(conn, numbers: list[str], release: str, lang: str) -> tuple[str | None, dict[str, str]]:
    """The newest whole ``lang`` release and {English number: its number there} (the same lineage)."""
    row = conn.execute("select max(release) from releases where lang = ? and completeness = 'whole'", [lang]).fetchone()
    if not row or not row[0] or "rule_lineage" not in _tables(conn):
        return None, {}
    marks = ",".join("?" * len(numbers))
    lineages = dict(conn.execute(f"select lineage_id, number from rule_lineage where lang = 'en' and release = ?"
                                 f" and number in ({marks})", [release, *numbers]))
    if not lineages:
        return row[0], {}
    marks = ",".join("?" * len(lineages))
    # By (lang, release), the primary key's first columns: rule_lineage has no index on lineage_id.
    pairs = conn.execute(f"select lineage_id, number from rule_lineage where lang = ? and release = ?"
                         f" and lineage_id in ({marks})", [lang, row[0], *lineages]).fetchall()
    return row[0], {lineages[lineage]: number for lineage, number in pairs}
