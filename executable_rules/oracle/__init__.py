"""Oracle text → abilities: a template grammar (``oracle.lark``), its parser, and coverage over every card.

>>> from executable_rules.oracle import parse_card
>>> parse_card("Stinkweed Imp", "Flying\\nWhenever Stinkweed Imp deals combat damage to a creature, destroy that creature.\\nDredge 5").keywords
(('Flying', ''), ('Dredge', '5'))
"""

from .parser import Ability, ParsedCard, normalise, parse_card, parse_line, template_of

__all__ = ["Ability", "ParsedCard", "normalise", "parse_card", "parse_line", "template_of"]
