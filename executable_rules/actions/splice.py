"""Splice — CR 702.47 (702.47a–d)

"Splice onto [quality] [cost]" is a static ability that works while its card
is in your hand: "You may reveal this card from your hand as you cast a
[quality] spell. If you do, that spell gains the text of this card's rules text
and you pay [cost] as an additional cost to cast that spell." (Splice — CR 702.47a).
The spliced card stays in its owner's hand, so it can later be cast, or
spliced onto another spell.

A card can't be spliced if the choices its text needs (targets) can't be made,
nor onto the same spell twice; cards spliced together are revealed at once and
their effects follow the main spell's, in the order chosen (702.47b). The
spell keeps the characteristics of the main spell — name, mana cost, colour,
types — and gains only the rules text; text that names the spliced card refers
to the spell (702.47c). Targets for the added text are chosen normally, and a
spell all of whose targets are illegal on resolution doesn't resolve (702.47d).

:func:`splice_onto` is asked by :func:`~executable_rules.engine.stack.cast_spell`
before targets are chosen (Casting Spells — CR 601.2b–c): it offers each card
in the caster's hand with a splice ability that fits the spell, and returns
the face the spell will have, with the added text, and the splice costs to add
to the total cost (601.2f).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["you"])
>>> mists = OracleCard.simple("Reach Through Mists", "{U}", "Instant", subtypes=("Arcane",), text="Draw a card.")
>>> ray = OracleCard.simple("Glacial Ray", "{1}{R}", "Instant", subtypes=("Arcane",),
...                         text="Glacial Ray deals 2 damage to any target.\\nSplice onto Arcane {1}{R}")
>>> spell = state.add_card(mists, "you", ZoneKind.STACK)
>>> _ = state.add_card(ray, "you", ZoneKind.HAND)
>>> face, costs, cards = splice_onto(state, "you", spell, mists.main, choose=Scripted(["splice Glacial Ray"]))
>>> print(face.text)
Draw a card.
Reach Through Mists deals 2 damage to any target.
Splice onto Arcane {1}{R}
>>> [str(c) for c in costs], state.names(state.player("you").hand)
(['{1}{R}'], ['Glacial Ray'])
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, Face, GameState, ManaCost

KEYWORD = "Splice"
KIND = "keyword ability"
JAPANESE = ("連繋",)
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Reveal a card from your hand as you cast a spell of its quality and pay its splice cost: the spell gains its rules text."
OUT_OF_REACH = {
    "e": "the spliced text is kept on the spell's record on the stack, which goes when the spell leaves it; "
         "nothing in the model reads a spell's text after it left the stack (copies, returning it) to show the loss",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""

_SPLICE = re.compile(r"^onto (?P<quality>.+?)\s+(?P<cost>(\{[^}]+\}\s*)+)$")


def splice_ability(face: Face) -> tuple[str, ManaCost] | None:
    """(quality, cost) of the face's "Splice onto [quality] [cost]", read from its text by the grammar."""
    from ..oracle import parse_card
    argument = parse_card(face.name, face.text).keyword_argument(KEYWORD)
    m = _SPLICE.match(argument.strip()) if argument else None
    if m is None:
        return None
    return m["quality"], ManaCost.parse(m["cost"].replace(" ", ""))


def _fits(quality: str, spell: Face) -> bool:
    """"Arcane" is a subtype of the spell; a card type ("instant") one of its types."""
    return quality in spell.subtypes or quality.capitalize() in spell.types


def splice_onto(state: GameState, player: str, spell: int, face: Face, *, choose: Chooser = first_legal,
                ) -> tuple[Face, list[ManaCost], list[int]]:
    """``player`` casting ``spell`` (with ``face``) may reveal splice cards from their hand (702.47a); return the
    face with their rules text added after the main spell's, the splice costs, and the cards spliced."""
    from ..engine.effects import legal_targets, target_specs
    from ..engine.stack import spell_body
    hand = state.player(player).hand
    added: list[str] = []
    costs: list[ManaCost] = []
    spliced: list[int] = []
    for card in list(hand.cards):
        c = state.cards[card]
        ability = splice_ability(c.oracle.main)
        if ability is None or not _fits(ability[0], face):
            continue
        name = c.oracle.name
        # Text naming the spliced card refers to the spell (702.47c): a text-changing effect.
        text = re.sub(rf"(?<![A-Za-z]){re.escape(name)}(?![a-z])", face.name, c.oracle.main.text)
        gained = replace(face, text=text)
        specs = [s for body in spell_body(gained) for s in target_specs(body)]
        possible = all(legal_targets(state, player, s, spell) for s in specs)
        options = [Option(f"don't splice {name}", False),
                   Option(f"splice {name}", True, possible,
                          "" if possible else f"{name}'s text has a target that can't be chosen",
                          Citation(KEYWORD, "702.47b"))]
        answer = decide(state, Decision.of(player, f"splice {name} onto {face.name}?", Citation(KEYWORD, "702.47a"),
                                           options), choose)
        if not answer.value:
            continue
        added.append(text)
        costs.append(ability[1])
        spliced.append(card)
    if not spliced:
        return face, [], []
    state.emit(EventKind.REVEAL, player, tuple(spliced), source=hand.label,
               detail=f"spliced onto {face.name}: it gains their rules text, in this order, after its own; "
               f"they stay in {hand.label}", citation=Citation(KEYWORD, "702.47a"))
    state.emit(EventKind.NOTHING, player, names=(face.name,),
               detail=f"{face.name} keeps its own name, mana cost, colour and types (Splice — CR 702.47c)",
               citation=Citation(KEYWORD, "702.47c"))
    return replace(face, text="\n".join([face.text, *added])), costs, spliced


def splice(state: GameState, player: str, spell: int, face: Face, *, choose: Chooser = first_legal) -> Face:
    """The face ``spell`` is cast with once the player's splice choices are made (see :func:`splice_onto`)."""
    return splice_onto(state, player, spell, face, choose=choose)[0]
