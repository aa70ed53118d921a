"""The pure functions of a text the linker calls, passed as one value.

:class:`TextFunctions` holds the functions of a text alone (English stems, a ruling's template and
topics, a card text's topics) that :class:`~kb.ruling_links.index.RuleIndex`,
:class:`~kb.ruling_links.similarity.LexicalSimilarity` and :class:`~kb.ruling_links.linker.Linker`
call. By default they are the functions themselves; the build passes ones that remember their
answers across builds (:mod:`kb.load.text_memo`), so the linker need not be patched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import text, topics


@dataclass(frozen=True)
class TextFunctions:
    english_terms: Callable[[str], list[str]] = text.english_terms
    template_rule: Callable[[str], str | None] = topics.template_rule
    template_rule_ja: Callable[[str], str | None] = topics.template_rule_ja
    ruling_topics: Callable[[str], tuple[topics.Topic, ...]] = topics.ruling_topics
    card_topics: Callable[[str | None], frozenset[str]] = topics.card_topics
