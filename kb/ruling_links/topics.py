"""The general rules a card ruling may apply, narrowed by the card's abilities and the ruling's words.

Most dated card rulings are not about a keyword: they apply a general rule the
card's own text points to ("If the target is illegal …" → 608.2b; "The token is
…" → 111; "It's a new object" → 400.7). A :class:`Topic` names such a family of
rules (by number prefixes of the newest release: ``608.2b``, ``111``), what in a
card's Oracle text says the card can meet it (``card``: a triggered ability, a
target, a token, X in its cost …) and what in a ruling's text says the ruling is
about it (``ruling``). :func:`card_topics` reads a card's text (its Oracle lines,
classified as the CR classifies abilities: "When/Whenever/At" opens a triggered
ability, 603.1; "[cost]: [effect]" is an activated one, 602.1; "instead" marks a
replacement effect, 614.1a); :func:`ruling_topics` reads a ruling.

A topic narrows a ruling's candidates only when the ruling's words name it; the
card's abilities make that surer (``confirmed``): the linker asks less
similarity of a rule whose topic both the card and the ruling have.

>>> sorted(card_topics("Flying\\nWhen this creature enters, create a 1/1 white Soldier creature token."))
['enters', 'tokens', 'triggered']
>>> [t.name for t in ruling_topics("If the target creature is an illegal target by the time it tries to resolve, "
...                                "the spell doesn't resolve.")]
['targets', 'resolution']
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Topic:
    name: str
    rules: tuple[str, ...]  # number prefixes: "608.2b" is that subrule, "111" every rule of 111
    ruling: re.Pattern  # a ruling about it says this
    card: re.Pattern | None = None  # a card that can meet it says this (None: no card cue)
    min_similarity: float | None = None  # the similarity its rules need (None: the linker's TOPIC_MIN)


def _re(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE | re.MULTILINE)


# The CR sections about one kind of card or one game concept that no keyword (701.x, 702.x) covers: a card
# ruling that names the concept (a dungeon, a double-faced card, a die roll, the monarch …) is about that
# section's rules; the card cue is the same words in its Oracle text.
SECTION_MIN = 0.40  # a section's rules share its concept's words with many rulings: more similarity asked


def _section(name: str, rules: tuple[str, ...], words: str) -> Topic:
    return Topic(name, rules, _re(words), _re(words), SECTION_MIN)


SECTION_TOPICS: tuple[Topic, ...] = (
    _section("dungeons", ("309",), r"\bdungeons?\b"),  # Dungeons — CR 309
    _section("battles", ("310",), r"\bbattles?\b(?! ?field)|\bdefense counters?\b|\bprotector\b"),  # Battles — CR 310
    _section("planes", ("311", "312", "901"), r"\bplanes?\b|\bplanar (?:die|deck)\b|\bphenomen(?:on|a)\b|\bplaneswalk(?:s|ed|ing)?\b"),  # Planes — CR 311
    _section("loyalty", ("306", "606"), r"\bloyalty\b"),  # Planeswalkers — CR 306; Loyalty Abilities — CR 606
    _section("double-faced", ("712",), r"\bdouble-faced\b|\b(?:front|back) face\b"),  # Double-Faced Cards — CR 712
    _section("split cards", ("709",), r"\bsplit cards?\b|\b(?:both|each|either) halves?\b"),  # Split Cards — CR 709
    _section("flip cards", ("710",), r"\bflip cards?\b|\bflipped\b"),  # Flip Cards — CR 710
    _section("dice", ("706",), r"\broll(?:s|ed|ing)? (?:a |the |one or more |two |\w+ )?(?:d\d+|dice|die)\b|\bd20\b|\bresults? table\b|\broll again\b"),  # Rolling a Die — CR 706
    _section("sagas", ("714",), r"\bsagas?\b|\blore counters?\b|\bchapter abilit(?:y|ies)\b"),  # Saga Cards — CR 714
    _section("adventures", ("715",), r"\bon an adventure\b|\badventurer cards?\b|\bcast (?:it |\w+ )?as an adventure\b"),  # Adventurer Cards — CR 715
    _section("classes", ("716",), r"\bclass (?:cards?|enchantments?)\b|\blevel \d+\b"),  # Class Cards — CR 716
    _section("attractions", ("717",), r"\battractions?\b"),  # Attraction Cards — CR 717
    _section("cases", ("719",), r"\bsolved?\b|\bcase cards?\b"),  # Case Cards — CR 719
    _section("monarch", ("725",), r"\bmonarch\b"),  # The Monarch — CR 725
    _section("initiative", ("726",), r"\binitiative\b|\bundercity\b"),  # The Initiative — CR 726
    _section("day and night", ("731",), r"\bbecomes? (?:day|night)\b|\bday or night\b|\bneither day nor night\b"),  # Day and Night — CR 731
    _section("merging", ("730",), r"\bmerged\b"),  # Merging with Permanents — CR 730
    _section("subgames", ("729",), r"\bsubgames?\b"),  # Subgames — CR 729
    _section("controlling a player", ("723",), r"\bcontrols? (?:another|that|target|an opponent's|each) player\b|\bcontrol (?:of )?(?:his|her|their|your) (?:next )?turn\b"),  # Controlling Another Player — CR 723
    _section("ending the turn", ("724",), r"\bends? the turn\b|\bending the turn\b"),  # Ending Turns and Phases — CR 724
    _section("commander", ("903",), r"\bcommanders?\b|\bcommand zone\b"),  # Commander — CR 903
    _section("two-headed giant", ("810",), r"\btwo-headed giant\b|\bteammates?\b"),  # Two-Headed Giant Variant — CR 810
    _section("emblems", ("114",), r"\bemblems?\b"),  # Emblems — CR 114
    _section("turn steps", ("502", "503", "504", "505", "513", "514"), r"\b(?:untap step|upkeep|draw step|main phase|end step|cleanup step)\b"),  # Turn Structure — CR 500
)


# Ordered from the most specific wording to the most general; the rules of each are all candidates.
TOPICS: tuple[Topic, ...] = (
    Topic("targets", ("115", "601.2c", "608.2b", "707.10c"),
          _re(r"\b(?:illegal|legal) targets?\b|\btargets? (?:is|are|becomes?) illegal|\bnew targets?\b"
              r"|\bcan't target\b|\bchoos\w* (?:a |the |any )?targets?\b|\btarget (?:itself|it)\b"),
          _re(r"\btarget\b")),
    Topic("resolution", ("608.2",),
          _re(r"\bin (?:the )?(?:order|sequence)\b|\bdoesn't resolve\b|\bwon't resolve\b|\btries to resolve\b"
              r"|\bas (?:it|\w+(?: \w+)?'s (?:\w+ )?ability) resolves\b|\bperform the actions\b|\bsomething else\b")),
    Topic("last known information", ("608.2h", "113.7a", "603.10"),
          _re(r"\blast known\b|\bleaves? the battlefield before\b|\bleft the battlefield\b|\bisn't on the battlefield\b"
              r"|\bno longer on the battlefield\b")),
    Topic("new object", ("400.7",),
          _re(r"\bnew object\b|\bno memory\b|\breturns? (?:it )?to the battlefield\b|\bconsidered a new\b")),
    Topic("triggered", ("603",),
          _re(r"\btrigger(?:s|ed|ing)?\b"),
          _re(r"^(?:When|Whenever|At)\b|, (?:when|whenever) \w")),
    Topic("enters", ("603.6", "614.1c", "614.1d", "614.12"),
          _re(r"\benters?(?: the battlefield)?\b|\bentered\b"),
          _re(r"\benters?\b|\bas .{1,40} enters\b")),
    Topic("replacement", ("614", "615"),
          _re(r"\binstead\b|\breplace\w*\b|\bprevent\w*\b"),
          _re(r"\binstead\b|\bwould\b|\bprevent\b")),
    Topic("counters", ("122",),
          _re(r"\b(?:[+-]\d+/[+-]\d+|\w+) counters?\b(?! (?:target|that|it|the) spell)|\bcounters? on\b"),
          _re(r"\bcounters? on\b|\b[+-]\d/[+-]\d counter")),
    Topic("countered", ("701.6", "101.2"),
          _re(r"\bcountered\b|\bcan't be countered\b|\bcounters? (?:target |that |the )?(?:spell|ability)\b"),
          _re(r"\bcounter target\b|\bcan't be countered\b")),
    Topic("copy", ("707",),
          _re(r"\bcop(?:y|ies|ied)\b"),
          _re(r"\bcop(?:y|ies)\b")),
    Topic("layers", ("613", "208"),
          _re(r"\bbase power\b|\bpower and toughness\b|\blayers?\b|\btimestamp\b|\bgets? [+-]\d|\bloses? all abilities\b"
              r"|\b(?:power|toughness) (?:is|are|will be) (?:equal|set)\b"),
          _re(r"\bgets? [+-]|\bbase power\b|\bbecomes? an? \b|\bloses? all abilities\b|\bhas base\b")),
    Topic("face-down", ("708", "702.37"),
          _re(r"\bface[- ]down\b|\bturn\w* (?:it |.{1,30})?face up\b"),
          _re(r"\bface[- ]down\b|\bmorph\b|\bmanifest\b|\bdisguise\b|\bcloak\b")),
    Topic("tokens", ("111",),
          _re(r"\btokens?\b"),
          _re(r"\btokens?\b")),
    Topic("costs", ("601.2f", "601.2g", "601.2h", "118", "117.1"),
          _re(r"\b(?:total |additional |alternative )?costs?\b|\bpay(?:s|ing)?\b(?! attention)"),
          _re(r"^[^\"\n]*:|\badditional cost\b|\bwithout paying\b|\bcosts? \{")),
    Topic("x", ("107.3",),
          _re(r"\bX\b|\bvalue of X\b"),
          _re(r"\{X\}|\bX\b")),
    Topic("mana value", ("202.3", "202.1"),
          _re(r"\bmana value\b|\bconverted mana cost\b|\bmana costs?\b"),
          _re(r"\bmana value\b|\bconverted mana cost\b")),
    Topic("activated", ("602", "605"),
          _re(r"\bactivat\w*\b|\bmana abilit(?:y|ies)\b"),
          _re(r"^[^\"\n]*\}[^\"\n]*:")),
    Topic("draw", ("121",),
          _re(r"\bdraw(?:s|n|ing)?\b|\bdrew\b"),
          _re(r"\bdraws?\b")),
    Topic("land play", ("305",),
          _re(r"\bplay (?:a |an |that |the |additional )?lands?\b|\badditional lands?\b|\bland plays?\b")),
    Topic("combat", ("506", "507", "508", "509", "510", "511"),
          _re(r"\battack\w*\b|\bblock\w*\b|\bcombat damage\b"),
          _re(r"\battack\w*\b|\bblock\w*\b")),
    Topic("damage", ("120",),
          _re(r"\bdamage\b"),
          _re(r"\bdamage\b")),
    Topic("state-based", ("704",),
          _re(r"\bstate-based\b|\blegend rule\b|\b0 (?:or less )?toughness\b|\bput into (?:its|their) owners?'? graveyards?\b"
              r"|\bwill become unattached\b")),
    Topic("hand and library", ("401", "402"),
          _re(r"\bmaximum hand size\b|\bno cards in (?:their|your|its) library\b")),
    # the CR's sections on a kind of card or a game concept (3xx, 7xx, 9xx): a ruling naming one applies it
    *SECTION_TOPICS,
)

BY_NAME = {t.name: t for t in TOPICS}


@functools.lru_cache(maxsize=65536)
def card_topics(text: str | None) -> frozenset[str]:
    """The names of the topics a card's Oracle text can meet (reminder text in parentheses left out)."""
    if not text:
        return frozenset()
    body = re.sub(r"\([^()]*\)", "", text)
    return frozenset(t.name for t in TOPICS if t.card is not None and t.card.search(body))


def ruling_topics(text: str) -> tuple[Topic, ...]:
    """The topics an English ruling's words name, in :data:`TOPICS` order (kept for texts seen lately:
    one text is the ruling of many cards)."""
    return _ruling_topics(text)


@functools.lru_cache(maxsize=65536)
def _ruling_topics(text: str) -> tuple[Topic, ...]:
    return tuple(t for t in TOPICS if t.ruling.search(text))


def matches(number: str, prefixes: tuple[str, ...]) -> bool:
    """Whether a rule number is one of the prefixes or under one (``608.2b`` under ``608.2``, not ``608.20``).

    >>> matches("608.2b", ("608.2",)), matches("603.10a", ("603",)), matches("6030", ("603",)), matches("608.20", ("608.2",))
    (True, True, False, False)
    """
    for p in prefixes:
        if number == p:
            return True
        if number.startswith(p):
            rest = number[len(p):]
            if "." in p:  # 608.2 → 608.2a, not 608.20
                if rest[0].isalpha():
                    return True
            elif rest.startswith("."):
                return True
    return False


@dataclass(frozen=True)
class Template:
    """A wording card rulings use for one rule, again and again (Gatherer's rulings are written from
    templates: "If the target … is an illegal target by the time … tries to resolve, … doesn't resolve")."""

    rule: str  # its number in the newest release
    pattern: re.Pattern
    unless: re.Pattern | None = None  # a wording that shows the ruling is about another rule


# "If [it] leaves the battlefield before its (triggered|activated|enters-the-battlefield) ability resolves"
_LEFT_BEFORE = (r"\b(?:leaves|left) the battlefield before (?:its|the|that|this|his|her|their|either|\w+'s)?\s?"
                r"(?:[\w-]+ ){0,3}(?:ability |trigger |spell )?(?:resolves|has resolved|it resolves)\b")
_NOT_EXILED = (r"\b(?:won't be exiled|isn't exiled|nothing is exiled|nothing will be exiled"
               r"|no [\w -]{0,40}(?:will be|are|is) exiled|won't exile)\b")

# Each is the CR rule its wording restates; the first that matches is taken. Kept to wordings that
# say one rule's content outright (the rule's own terms), not a subject a ruling could take anywhere.
TEMPLATES: tuple[Template, ...] = (
    Template("608.2b", _re(r"\b(?:targets?|it) (?:is|are|has become|have become|becomes?) (?:an? )?illegal\b"
                           r"|\billegal targets? (?:by the time|when|as)\b|\bbecomes? an illegal target\b|\ball (?:of )?(?:its|the|those|their) targets"
                           r" (?:are|become|have become) illegal\b"),
             # a copy's new targets (707.10c) and a bestowed Aura spell with an illegal target (702.103e)
             # say "illegal" too, of another rule
             _re(r"\bnew (?:legal )?targets?\b|\bchoose new ones\b|\bbestow")),
    Template("608.2c", _re(r"\bperform the actions stated on (?:a|the) card in sequence\b"
                           r"|\b(?:perform|follow)\w* (?:the |its |the spell's |the ability's )?instructions in"
                           r" (?:the )?order\b")),
    Template("707.10c", _re(r"\bchoose new targets for (?:the |any of the |each )?cop(?:y|ies)\b")),
    Template("707.10", _re(r"\bcop(?:y|ies)\b[^.]{0,80}\b(?:isn't|aren't|wasn't|weren't|is not|are not) cast\b")),
    Template("111.7", _re(r"\btokens?\b[^.]{0,80}\bceases? to exist\b")),
    Template("400.7", _re(r"\b(?:becomes?|is|it's|will be|considered) (?:a |an )?new objects?\b")),
    Template("608.2h", _re(r"\blast known (?:information|tap|untap|power|toughness|characteristics|state)\b"
                           r"|\bas it last existed (?:on the battlefield|in)\b")),
    Template("603.3b", _re(r"\bput (?:those|these|the) (?:triggered )?abilities on the stack in any order\b"
                           r"|\btriggers? along with\b|\b(?:put|puts) them on(?:to)? the stack in any order\b"
                           r"|\babilities can be put on(?:to)? the stack in any order\b")),
    Template("603.2c", _re(r"\btriggers? only once (?:each time|for each|per spell)\b")),
    Template("603.4", _re(r"\bintervening[- ][\"'“”‘’]*if[\"'“”‘’]* clauses?\b")),
    Template("202.3e", _re(r"\bX is (?:treated as )?0\b[^.]{0,60}\bnot on the stack\b"
                           r"|\bmana value\b[^.]{0,80}\bX\b[^.]{0,40}\b(?:0|zero)\b")),
    Template("107.3b", _re(r"\bmust choose 0 as the value (?:of|for) X\b|\bX\b[^.]{0,40}\bmust (?:be|choose) 0\b"
                           r"|\bonly legal (?:choice|value) for X is 0\b")),
    Template("601.2f", _re(r"\bto determine the total cost of a spell\b|\bwhen calculating a spell's total cost\b"
                           r"|\bTo determine a spell's total cost\b"
                           r"|\bpay (?:that much )?more or less\b|\bcost increases? (?:and|or) (?:cost )?reductions?\b")),
    Template("613.7", _re(r"\btimestamp order\b|\b(?:override|overwrite)s?\b[^.]{0,60}\beffects that set\b[^.]{0,80}"
                          r"\b(?:if and only if|existed before)\b")),
    # a setting effect (layer 7b) overrides the setting effects before it; the modifying ones (7c) still apply
    Template("613.4b", _re(r"\b(?:override|overwrite)s? (?:any|all|other|previous|earlier)\b[^.]{0,30}\beffects that set\b")),
    Template("611.2c", _re(r"\b(?:enter\w*(?: the battlefield)?|you gain control of|(?:begin|start)s? to control|come under \w+ control)"
                           r"\b[^.]{0,40}\blater (?:in|that) (?:the )?turn\b"
                           r"|\bonly (?:creatures|permanents|lands|artifacts)\b[^.]{0,60}\b(?:when|as|at the time) [^.]{0,40}\bresolves\b"
                           r"|\b(?:affects?|grants?|gives?) (?:the ability to )?only (?:creatures|permanents)\b[^.]{0,60}"
                           r"\b(?:when|as|at the time) [^.]{0,40}\bresolves\b")),
    Template("616.1", _re(r"\bchooses which (?:replacement |prevention )?effects? (?:applies|to apply)\b"
                          r"|\bchooses (?:the )?order in which (?:to apply )?(?:the )?(?:replacement|prevention)\b")),
    Template("702.12b", _re(r"\bindestructible\b.{0,40}\b(?:destroy\w*|lethal damage)\b"
                            r"|\b(?:destroy|lethal damage)\b[^.]{0,80}\bindestructible\b")),
    Template("704.5f", _re(r"\btoughness (?:is )?0 or less\b|\b0 or less toughness\b"
                           r"|\bas a 0/0\b[^.]{0,120}\b(?:die|state-based)")),
    Template("107.4f", _re(r"\bPhyrexian mana\b")),
    Template("700.5", _re(r"\bdevotion to\b")),
    Template("508.1d", _re(r"\battacks? each (?:combat|turn) if able\b|\bdeclare attackers step\b[^.]{0,60}\bis tapped or\b")),
    Template("509.1c", _re(r"\bblocks? each (?:combat|turn) if able\b|\bdeclare blockers step\b[^.]{0,60}\bis tapped or\b")),
    Template("603.3a", _re(r"\bcontrols? (?:its|the|that) triggered ability\b|\bcontroller of (?:the|a|that) triggered ability\b")),
    Template("708.9", _re(r"\bface-down\b[^.]{0,80}\bleaves the battlefield\b[^.]{0,40}\breveal\b")),
    Template("708.5", _re(r"\blook at (?:a )?face-down (?:spells?|permanents?)\b")),
    Template("508.4", _re(r"\b(?:put onto|enters?) the battlefield (?:tapped and )?attacking\b[^.]{0,120}"
                          r"\b(?:never|weren't|wasn't|won't (?:count|be)) (?:declared|count)"
                          r"|\b(?:enter|enters|entered|put onto) the battlefield (?:tapped and )?attacking (?:won't|don't|doesn't|didn't)"
                          r" (?:count|trigger|cause)")),
    Template("704.5j", _re(r"\blegend rule\b")),
    Template("704.5m", _re(r"\bAuras? attached to\b[^.]{0,60}\b(?:put into (?:its|their) owners?'? graveyards?)\b")),
    Template("121.2", _re(r"\beach draw is performed one at a time\b|\bdraws? (?:them|the cards|cards) one at a time\b")),
    Template("305.2", _re(r"\badditional lands?\b|\bavailable land plays?\b")),
    Template("117.3c", _re(r"\bhold(?:s|ing)? priority\b")),
    Template("701.6a", _re(r"\bcountered\b[^.]{0,60}\bnone of its effects\b")),
    Template("115.5", _re(r"\bcan't target itself\b")),
    Template("602.1", _re(r"\bactivated abilities contain a colon\b|\bActivated abilities include a colon\b")),
    Template("702.29a", _re(r"\bCycling is an activated ability\b")),
    Template("107.14", _re(r"\{E\} is the energy symbol\b")),
    Template("122.1", _re(r"\benergy counters are a kind of counter\b")),
    Template("611.3a", _re(r"\bit will no longer be affected by its own ability\b")),
    Template("708.8", _re(r"\bturns? face up or face down changes characteristics\b")),
    Template("202.3", _re(r"\bmana value of (?:a|the) spell cast without paying its mana cost is determined by its mana cost\b")),
    Template("118.9a", _re(r"\bwithout paying its mana cost,?\"?[^.]{0,40}\bcan't (?:choose to )?cast it for any"
                           r" alternative costs?\b|\bcan't (?:pay|apply|use) any other alternative costs?\b"
                           r"|\bcan't choose to cast it for any other alternative costs?\b")),
    Template("302.6", _re(r"\bcontinuously controlled\b[^.]{0,60}\bmost recent turn\b")),
    Template("712.14", _re(r"\benters?(?: the battlefield)? with its front face up\b")),
    # round 6: recurring wordings of the general rules the round-5 tune half's unlinked rulings apply
    Template("702.26d", _re(r"\bphas\w* (?:in|out) (?:doesn't|won't|don't) cause\b"
                            r"|\b(?:won't|doesn't|don't) trigger when [^.]{0,60}\bphases? (?:in|out)\b")),
    Template("702.124e", _re(r"\b(?:one or both|either) of (?:your|their) (?:two )?commanders\b")),
    Template("702.124d", _re(r"\btwo commanders are tracked separately\b|\bcommanders function independently\b")),
    Template("702.124b", _re(r"\bboth commanders (?:start|begin) (?:the game )?in the command zone\b")),
    Template("101.4", _re(r"\b(?:the active player|the player whose turn it is)\b[^.]{0,140}\bthen each (?:other )?player"
                          r" in turn order\b"),
             _re(r"\btrigger")),  # the triggered abilities' APNAP order is 603.3b
    Template("603.10a", _re(r"\b(?:dies|die|leaves? the battlefield) at the same time as\b[^.]{0,120}\btrigger")),
    Template("603.6a", _re(r"\benters? the battlefield (?:under your control )?at the same time as\b[^.]{0,120}\btrigger"
                           r"|\band (?:another|one or more other) [^.]{0,60}\benter the battlefield (?:under your control )?at the same"
                           r" time\b[^.]{0,60}\btrigger")),
    Template("700.2d", _re(r"\bsame mode (?:more than once|multiple times|twice)\b|\bany one mode multiple times\b")),
    Template("707.10", _re(r"\bcop(?:y|ies)\b[^.]{0,60}\bsame value (?:of|for) X\b"
                           r"|\b(?:won't|doesn't|don't) trigger when a copy of (?:a|the|that) spell is created\b")),
    Template("707.2", _re(r"\bcop(?:y|ies)\b[^.]{0,40}\bexactly what (?:was|is) printed\b"
                          r"|\bcop(?:y|ies) only what(?:'s| is| was) (?:printed )?on the original\b")),
    Template("614.9", _re(r"\b(?:isn't|won't be|is not|wasn't) redirected\b")),
    Template("106.1a", _re(r"\bthe colors of mana are white, blue, black, red, and green\b|\bcolorless mana (?:is not|isn't) a colou?r\b")),
    Template("105.2c", _re(r"\bcolorless (?:is not|isn't) a colou?r\b")),
    Template("702.122a", _re(r"\bcrew(?:ed)? (?:a|the|that) Vehicle aren't attached\b|\btap more creatures than necessary\b[^.]{0,30}\bcrew\b"
                             r"|\btapped to pay (?:a|the) crew cost, even one that\b")),
    Template("707.5", _re(r"\benters(?: the battlefield)? with\"? abilities of the copied\b")),
    Template("404.3", _re(r"\bdecides? the order (?:in which )?(?:they're|they are|those cards are|the cards are) put into\b")),
    Template("514.3a", _re(r"\bdiscards? a card during (?:their|your) cleanup step\b[^.]{0,120}\btrigger")),
    Template("514.1", _re(r"\bdiscard\w*\b[^.]{0,60}\b(?:during|in) (?:the |their |your |its )?cleanup step\b"),
             _re(r"\bpriority\b")),  # abilities triggering during cleanup, and priority then, are 514.3a
    Template("603.3d", _re(r"\bchoose (?:the )?targets? (?:of|for) (?:the|that|this|its) (?:triggered )?ability as (?:it's|it is) put"
                           r" on(?:to)? the stack\b")),
    Template("113.7a", _re(r"\bthe ability on the stack won't be affected\b|\bindependently of (?:its|the) source\b")),
    Template("121.1", _re(r"\b(?:it is|it's|they are|they're|card is|cards are) not drawn\b|\bwithout (?:specifically )?using the word \W?draw\b")),
    Template("701.23a", _re(r"\b(?:contains|uses?|using) the word \W?search\b")),
    Template("701.17a", _re(r"\b(?:contains|uses?|using) the word \W?mill\b")),
    Template("601.2d", _re(r"\beach (?:chosen )?target must (?:receive|be assigned|be dealt|get) at least (?:1|one)\b")),
    Template("903.4d", _re(r"\bcolor identity is determined by\b[^.]{0,80}\bboth faces\b")),
    Template("712.11b", _re(r"\bmodal double-faced card with any face that fits\b")),
    # Sagas (714): the recurring wordings of their rulings
    Template("714.2b", _re(r"\bA chapter ability is a triggered ability\b|\bchapter ability doesn't trigger if a lore counter is put\b"
                           r"|\bRemoving lore counters won't cause a previous chapter ability to trigger\b")),
    Template("714.3a", _re(r"\bAs a Saga enters(?: the battlefield)?, its controller puts a lore counter on it\b")),
    Template("714.4", _re(r"\bOnce the number of lore counters on a Saga is greater than or equal to\b")),
    Template("700.6", _re(r"\bis historic if it has the legendary supertype\b")),
    Template("712.14a", _re(r"\bput a card that isn't a double-faced card onto the battlefield transformed\b")),
    Template("609.3", _re(r"\b(?:fewer|less) than \w+ cards in (?:your|their|his or her|that player's|the) library\b[^.]{0,80}"
                          r"\b(?:all (?:the )?(?:remaining )?cards|whatever|the rest|remain)\b"),
             _re(r"\bmill")),  # milling as many as possible is 701.17b
    Template("707.10c", _re(r"\bsame targets?\b[^.]{0,60}\bunless (?:you|its controller|that player) chooses? new\b"
                            r"|\bmay change any number of the targets\b")),
    Template("508.1h", _re(r"\bpays?\b[^.]{0,60}\bas attackers are (?:being )?declared\b")),
    Template("400.7", _re(r"\bleaves? that zone before\b")),
    Template("509.1h", _re(r"\bonce (?:a|an attacking|the) creature (?:has )?(?:become|becomes|is) blocked\b[^.]{0,60}\b(?:won't|doesn't)"
                           r" change\b|\bmust already have \w+ when the declare blockers step begins\b")),
    Template("508.2", _re(r"\b(?:ability|abilities|triggers and) resolves? before blockers are (?:chosen|declared)\b")),
    Template("302.6", _re(r"\b(?:haven't|hasn't|didn't) controll?ed (?:it |them )?continuously since\b")),
    Template("119.9", _re(r"\bseparate life[- ]gain(?:ing)? events?\b")),
    # round 6: the corpus's most frequent unlinked wordings, each restating one rule
    Template("601.2c", _re(r"\btargets are chosen when (?:the spell|it) is (?:finally )?cast\b"
                           r"|\brequire alternative or additional targets if they're kicked\b")),
    Template("702.62c", _re(r"\busing suspend any time you could cast that card\b")),
    Template("702.124a", _re(r"\bboth must have the partner ability as the game begins\b")),
    Template("603.6a", _re(r"\b(?:landfall|constellation|rally|alliance) ability triggers whenever an? \w+ enters the battlefield"
                           r" under your control for any reason\b|\bdoesn't trigger if a permanent already on the battlefield becomes\b")),
    Template("701.22a", _re(r"\border cards returned to your library after scrying\b")),
    Template("205.4a", _re(r"\bSnow is a supertype, not a card type\b")),
    Template("107.4h", _re(r"\bSnow isn't a type of mana\b|\bfor each \{S\} spent to cast\b")),
    Template("509.3g", _re(r"\btriggers when something \W?attacks and isn't blocked\W? triggers in the declare blockers step\b")),
    Template("702.33d", _re(r"\bA spell cast with that additional cost paid is \W?kicked\b|\bcan't pay a kicker cost more than once\b")),
    Template("702.33a", _re(r"\bonto the battlefield without casting it, you can't kick it\b")),
    Template("707.10", _re(r"\bIf you copy a kicked spell, the copy is also kicked\b")),
    Template("708.2a", _re(r"\benters the battlefield as a 2/2 creature with no name, mana cost, creature types, or abilities\b")),
    Template("702.103b", _re(r"\bOn the stack, a spell with bestow is either a creature spell or an Aura spell\b")),
    Template("702.103f", _re(r"\ban Aura with bestow isn't put into its owner's graveyard if it becomes unattached\b")),
    Template("702.22c", _re(r"\bmaximum of one nonbanding creature can join an attacking band\b")),
    Template("700.8b", _re(r"\bparty\b[^.]*\bhighest such number\b")),
    Template("700.8a", _re(r"\bnumber of creatures in your party\W? (?:check|gets a number from zero to four)\b"
                           r"|\bnumber of creatures in your party gets a number\b")),
    Template("406.3", _re(r"\bexile (?:the|that|those) cards? face up\b|\bcards are exiled face up\b")),
    Template("205.2a", _re(r"\bThe card types (?:in Magic )?are artifact\b")),
    Template("119.4", _re(r"\bat 1 life or less, you can't pay 2 life\b|\bcan't pay more life than you have\b")),
    Template("707.10", _re(r"\bcop(?:y|ies)\b[^.]{0,80}\bso it's not \W?cast\b|\bno mana was spent to cast the copy\b")),
    Template("506.4", _re(r"\bUntapping an attacking creature doesn't remove it from combat\b")),
    Template("107.6", _re(r"\bactivate an \{Q\} ability\b")),
    Template("708.2a", _re(r"\bface-down (?:creatures|permanents) don't have names\b"
                           r"|\bface-down (?:permanent|creature|spell) is a 2/2 creature with no name\b")),
    Template("701.9a", _re(r"\bCards are discarded in a Magic game only from a player's hand\b")),
    Template("301.5c", _re(r"\bEquipment (?:creature )?can never become attached to itself\b")),
    Template("702.61b", _re(r"\bPlayers still get priority while a card with split second is on the stack\b"
                            r"|\bturn face-down creatures face up while a spell with split second\b"
                            r"|\bSplit second doesn't stop triggered abilities from triggering\b")),
    # "the defending player" an attacking creature's ability means: Declare Attackers Step — CR 508.5
    Template("508.5", _re(r"\battacking a planeswalker, that planeswalker's controller is the defending player\b")),
    Template("707.10", _re(r"\bthe copy will have the same mode\b")),
    Template("302.6", _re(r"\bdoes not have the \{T\} symbol\b")),
    Template("709.3b", _re(r"\bOn the stack, a split spell that hasn't been fused has only that half's characteristics\b")),
    Template("305.6", _re(r"\bmana abilities associated with both of its basic land types\b")),
    Template("110.1", _re(r"\bA permanent is any object on the battlefield\b")),
    Template("303.4e", _re(r"\bGaining control of a creature doesn't cause you to gain control of any Auras\b")),
    Template("704.5q", _re(r"\bremoved in pairs as a state-based action\b")),
    Template("301.7", _re(r"\bVehicle is an artifact type, not a creature type\b")),
    Template("301.7b", _re(r"\boverwrites the Vehicle's printed power and toughness\b")),
    Template("508.1a", _re(r"\bmust be a creature as the declare attackers step begins\b")),
    Template("509.1h", _re(r"\battacking creatures are neither blocked nor unblocked\b")),
    Template("508.4", _re(r"\bwas never declared as an attacking creature\b")),
    Template("709.4", _re(r"\bcharacteristics of a split card are the combination of its two halves\b")),
    Template("712.8a", _re(r"\bIn every zone other than the battlefield, consider only the characteristics of its front face\b"
                           r"|\bconsider only the characteristics of (?:a|the) double-faced card's front face\b")),
    # round 7: "If [the source] leaves the battlefield before its ability resolves, …", Gatherer's template for
    # three rules, told apart by what the ruling says happens: nothing exiled "until" it leaves (the event has
    # already occurred: One-Shot Effects — CR 610.3a activated, 610.3b triggered), the last known information
    # used (608.2h), or the ability still doing its work without its source (113.7a)
    Template("610.3a", _re(_LEFT_BEFORE + r"[^.]*" + _NOT_EXILED),
             _re(r"(?s)\A(?!.*\bactivat)|\btrigger|\benters")),  # only a ruling that says the ability is activated
    Template("610.3b", _re(_LEFT_BEFORE + r"[^.]*" + _NOT_EXILED)),
    Template("608.2h", _re(_LEFT_BEFORE + r"[^.]*\b(?:last (?:enchanted|equipped|existed|controlled|known|on the battlefield)"
                           r"|(?:before|as) it (?:last )?(?:left|existed)|last controller)\b")),
    # the corpus's frequent unlinked wordings of three rules already templated in other words: "can't pay any
    # alternative costs" (without "other"), "the controller of the planeswalker is the defending player" (508.5), and a
    # trigger on an event with many occurrences (603.2c: once per occurrence, however many at once)
    Template("118.9a", _re(r"\bwithout paying (?:its|their) mana costs?,?\W*[^.]{0,40}\bcan't (?:pay|choose to pay) any (?:other )?"
                           r"alternative costs?\b")),
    Template("508.5", _re(r"\b(?:the )?controller of (?:that|the) planeswalker is the defending player\b")),
    Template("603.2c", _re(r"\btrigger\w* (?:just |only )?once\b[^.]{0,40}\bno matter how many\b"
                           r"|\btriggers? (?:once )?for each (?:card|creature)s? (?:drawn|dealt)\b"
                           r"|\beach time\b[^.]{0,80}\bno matter how many\b[^.]{0,60}\bat once\b")),
    # "As [it] resolves, first [a player] chooses …, then each other player in turn order …": the choices made
    # in APNAP order (101.4), also when the first to choose is "the next opponent in turn order" or "you"
    Template("101.4", _re(r"\bresolves, first (?:you|the|each|that|an?)\b[^.]{0,200}\b(?:then|followed by) (?:each|the|every)"
                          r" (?:other |next |remaining )?(?:players?|opponents?)\b[^.]{0,20}\bin turn order\b")),
    Template("113.7a", _re(_LEFT_BEFORE + r",[^.]*\b(?:still|will still)\b(?! be able)"),
             # another object leaving (a Dragon that entered, either of two), or what it enchanted last: the last
             # known information (608.2h); a control change that never starts: 611.2b
             _re(r"\b(?:If|when) (?:a|an|either|the enchanted) \w+\b[^.]{0,100}\bleaves the battlefield before\b|\bimmediately before\b"
                 r"|\bkeeps control\b|\bfor as long as\b")),
)


@functools.lru_cache(maxsize=65536)
def template_rule(text: str) -> str | None:
    """The rule whose template an English ruling's wording is, if any.

    >>> template_rule("If the target creature is an illegal target by the time Shock tries to resolve, it won't resolve.")
    '608.2b'
    >>> template_rule("Once you begin to cast the exiled card, it's considered a new object.")
    '400.7'
    >>> template_rule("Flying creatures can block.") is None
    True
    >>> template_rule("An Aura spell with bestow isn't countered if its target is illegal as it begins to resolve.") is None
    True
    """
    for t in TEMPLATES:
        if t.pattern.search(text) and not (t.unless and t.unless.search(text)):
            return t.rule
    return None


# The Japanese wiki's wordings for the general rules its rulings apply, read with the Japanese CR's
# own terms (対象が不正 608.2b, 書かれている順に 608.2c, 新しいオブジェクト 400.7, 表向きで追放 406.3):
# a ruling on a keyword's page that says one of these applies that rule, not the keyword's subrule.
JA_TEMPLATES: tuple[Template, ...] = (
    Template("608.2b", _re(r"対象(?:が|は)?(?:すべて|全て)?不正(?:な対象)?に?な|対象不適正|すべて不正な対象")),
    Template("608.2c", _re(r"(?:書かれている|書かれた|記載されている|記載された|記されている)(?:通りの|とおりの)?順(?:序|番)?(?:に|で)(?:従って)?"
                           r"(?:解決|処理|実行|行う|行われる)")),
    Template("400.7", _re(r"新しいオブジェクト")),
    Template("406.3", _re(r"(?:表|裏)向きで追放(?:され|する)")),
    Template("701.6a", _re(r"打ち消され(?:た|る)(?:場合|ならば|なら)")),
)


@functools.lru_cache(maxsize=65536)
def template_rule_ja(text: str) -> str | None:
    """The rule whose Japanese wording (:data:`JA_TEMPLATES`) a Japanese ruling uses, if any.

    >>> template_rule_ja("解決時にそれらの対象がすべて不正な対象になっていたならば、呪文は立ち消える。")
    '608.2b'
    >>> template_rule_ja("カードは表向きで追放される。"), template_rule_ja("発見されたカードは手札に加えられる。")
    ('406.3', None)
    """
    for t in JA_TEMPLATES:
        if t.pattern.search(text) and not (t.unless and t.unless.search(text)):
            return t.rule
    return None
