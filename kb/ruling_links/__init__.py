"""Link rulings (MTG Wiki rulings, dated card rulings) to the rules they apply.

- :mod:`.text`: the words compared (English stems, Japanese keys);
- :mod:`.index`: :class:`RuleIndex`, the newest release's rules in both languages, their
  TF-IDF vectors and the keywords (701.x, 702.x) with the rules under each;
- :mod:`.similarity`: the :class:`Similarity` seam and :class:`LexicalSimilarity`;
- :mod:`.topics`: the general rules a card ruling may apply (targets → 115/608.2b, tokens → 111 …)
  narrowed by the card's text and the ruling's words, and the rulings' recurring wordings (templates);
- :mod:`.linker`: :class:`Linker`, which weighs the evidence (cited, template, keyword+similarity,
  topic+similarity, similarity) and decides.

The build step is :mod:`kb.load.ruling_links`; ``kb rulings`` (:mod:`kb.cli.rulings`)
and the rule page read what it stored.
"""

from .index import Keyword, RuleDoc, RuleIndex
from .linker import Decision, Link, Linker, Ruling
from .similarity import Blend, LexicalSimilarity, Similarity

__all__ = ["Blend", "Decision", "Keyword", "LexicalSimilarity", "Link", "Linker", "RuleDoc", "RuleIndex", "Ruling",
           "Similarity"]
