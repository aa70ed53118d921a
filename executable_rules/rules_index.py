"""The newest Comprehensive Rules, read straight from the corpus, for checking citations by title.

:class:`RulesIndex` answers what the links need without a built database:
the number of a keyword in this release (``Discover`` → ``701.57``), whether a
citation ``Discover — CR 701.57a`` is right (the number exists and sits under
a rule of that title), and the examples under a rule. The build does the same
for every release from the database (:mod:`kb.load.checks`).

>>> index = newest_rules()
>>> index.keyword_number("Discover"), index.keyword_number("Drawing a Card")
('701.57', '121')
>>> index.check(Citation("Discover", "701.57a")) is None
True
>>> print(index.check(Citation("Discover", "701.55a")))   # stale on purpose: Discover's old number
Discover — CR 701.55a: 701.55a is under Face a Villainous Choice (701.55), not Discover (701.57)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ingest.cr import parse_cr, release_from_filename
from ingest.records import Example, Rule, Section

from .citation import Citation


@dataclass
class RulesIndex:
    """One release's rules, sections and examples, by number."""

    release: str
    source: str
    rules: dict[str, Rule]
    sections: dict[str, str]
    examples: list[Example]

    def ancestors(self, number: str) -> list[tuple[str, str | None]]:
        """``number``, its numbered rule, its rule and its section, with their titles (innermost first)."""
        chain: list[tuple[str, str | None]] = []
        current: str | None = number
        while current and current in self.rules:
            rule = self.rules[current]
            chain.append((current, rule.title))
            current = rule.parent if rule.kind != "rule" else None
        section = number[0]
        if section in self.sections:
            chain.append((section, self.sections[section]))
        return chain

    def keyword_number(self, keyword: str) -> str:
        """The number titled ``keyword``: a keyword action or ability (701.x, 702.x) first, else a rule."""
        found = [n for n, r in self.rules.items() if r.title == keyword and r.kind == "numbered"
                 and r.parent in ("701", "702")]
        found = found or [n for n, r in self.rules.items() if r.title == keyword and r.kind == "rule"]
        if len(found) != 1:
            raise LookupError(f"{len(found)} rules titled {keyword!r} in the {self.release} CR ({self.source})")
        return found[0]

    def check(self, citation: Citation) -> str | None:
        """What is wrong with ``citation`` in this release, or ``None``."""
        if citation.number not in self.rules:
            return f"{citation}: there is no rule {citation.number} in the {self.release} CR"
        titles = [t for _, t in self.ancestors(citation.number)]
        if citation.keyword in titles:
            return None
        try:
            right = self.keyword_number(citation.keyword)
        except LookupError:
            right = None
        titled = [(n, t) for n, t in self.ancestors(citation.number) if t]
        number, title = next(((n, t) for n, t in titled if "." in n), titled[0] if titled else ("?", None))
        where = f"{title} ({number})"
        if right:
            return f"{citation}: {citation.number} is under {where}, not {citation.keyword} ({right})"
        return f"{citation}: {citation.number} is under {where}; no rule is titled {citation.keyword!r}"

    def examples_under(self, number: str) -> list[Example]:
        """The examples of ``number`` and of every rule under it."""
        return [e for e in self.examples
                if e.rule_number == number or (e.rule_number.startswith(number) and not
                                               e.rule_number[len(number):len(number) + 1].isdigit())]


def newest_cr_file(corpus: Path) -> Path:
    """The English CR file with the latest effective date in ``cr/en/``."""
    files = [p for p in (corpus / "cr" / "en").glob("MagicCompRules_*.txt") if release_from_filename(p.name)]
    if not files:
        raise FileNotFoundError(f"no MagicCompRules_YYYYMMDD.txt in {corpus / 'cr' / 'en'}")
    return max(files, key=lambda p: release_from_filename(p.name) or "")


@functools.lru_cache(maxsize=2)
def load_rules(path: Path) -> RulesIndex:
    """Parse one English CR file into a :class:`RulesIndex`."""
    rules: dict[str, Rule] = {}
    sections: dict[str, str] = {}
    examples: list[Example] = []
    release = ""
    for record in parse_cr(path):
        if isinstance(record, Rule):
            rules[record.number] = record
            release = record.release
        elif isinstance(record, Section):
            sections[record.number] = record.title
        elif isinstance(record, Example):
            examples.append(record)
    return RulesIndex(release, path.name, rules, sections, examples)


def newest_rules(corpus: Path | None = None) -> RulesIndex:
    """The newest English CR in the corpus (:func:`~executable_rules.card_pool.default_corpus` when not given)."""
    if corpus is None:
        from .card_pool import default_corpus
        corpus = default_corpus()
    return load_rules(newest_cr_file(corpus))
