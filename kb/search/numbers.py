"""Rule numbers in a query, however they are typed.

``701.23``, ``701.23a``, ``rule 704.5a``, ``CR 613.1``, ``§702.11b``, ``ルール510.1c``,
``総合ルール 509.1a``, full-width ``７０４．５ａ`` and a trailing period all name a
rule; a bare three-digit number (``613``) only does with a word before it
(``rule 613``, ``§ 613``), since "3 damage" or "20 life" are not rules.

>>> find_rule_number("rule 704.5a")
RuleNumber(number='704.5a', start=0, end=11)
>>> find_rule_number("７０４．５ａ").number, find_rule_number("CR701.57").number
('704.5a', '701.57')
>>> find_rule_number("§ 613").number, find_rule_number("704.5g.").number
('613', '704.5g')
>>> find_rule_number("deal 3 damage to any target") is None
True
>>> only_rule_number("ルール 117.3b"), only_rule_number("what does 702.11b say")
('117.3b', None)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_PREFIX = r"(?:(?:comprehensive\s+rules?|総合ルール|ルール|rules?|cr|r\.|§)\s*)"
_NUMBER = r"(?P<number>[1-9]\d{2}(?:\.\d{1,3}[a-z]?)?)"
_RULE = re.compile(rf"(?<![\w.])(?P<prefix>{_PREFIX})?{_NUMBER}(?![\w])\.?", re.IGNORECASE)
# What may stand around a number in a query that asks for nothing else.
_FILLER = re.compile(r"^[\s.,:;?!？。、「」()（）-]*(?:show|see|read|what is|what's|とは|を見せて|参照)?[\s.,:;?!？。、「」()（）-]*$",
                     re.IGNORECASE)


@dataclass(frozen=True)
class RuleNumber:
    number: str
    start: int  # where it is in the normalised query
    end: int


def normalize_query(query: str) -> str:
    """NFKC (full-width digits and letters, half-width katakana), one space between words."""
    return " ".join(unicodedata.normalize("NFKC", query).split())


def find_rule_number(query: str) -> RuleNumber | None:
    """The first rule number in ``query`` (normalised first), or None."""
    text = normalize_query(query)
    for m in _RULE.finditer(text):
        number = m.group("number").lower()
        if "." not in number and not m.group("prefix"):
            continue  # a bare 613 is a number, not a rule
        return RuleNumber(number, m.start(), m.end())
    return None


def only_rule_number(query: str) -> str | None:
    """The rule number when the query is a rule number and nothing else."""
    found = find_rule_number(query)
    if found is None:
        return None
    text = normalize_query(query)
    rest = text[:found.start] + " " + text[found.end:]
    return found.number if _FILLER.match(rest) else None
