"""Search that answers questions, in English and Japanese.

The package, one job a module:

- :mod:`.segmenters` — a segmenter per language (Japanese: :mod:`kb.japanese`);
- :mod:`.numbers` — rule numbers in any spelling;
- :mod:`.query` — a question read into words to look for: content words
  (English stopwords dropped, Japanese function words dropped by part of
  speech), keyword names as phrases in both languages, player slang from the
  alias table (``data/aliases.toml``), typos corrected (:mod:`.typos`);
- :mod:`.lexical` — FTS5 bm25 over the OR of those words;
- :mod:`.dense` — multilingual sentence embeddings, vectors in sqlite-vec;
- :mod:`.fusion` — reciprocal rank fusion;
- `.engine` — all of it together, hits grouped by numbered rule with
  both languages side by side, bounded in work and time;
- :mod:`.fts` — the strict FTS5 expression (every word required) of the table
  search box and the flat :func:`search` of one release.

:func:`answer` is what ``kb search``, ``/-/search`` and the bench call.
"""

from __future__ import annotations

from .fts import (  # noqa: F401
    KINDS,
    MARK_END,
    MARK_START,
    Hit,
    KeywordNames,
    ParsedQuery,
    current_sql,
    english_key,
    english_stems,
    fts_query,
    has_japanese,
    parse_query,
    query_terms,
    scope_tokens,
    scoped,
    search,
    search_sql,
)


def __getattr__(name):
    # The engine imports lazily, so that `kb rule` or the table search box never pay for it.
    if name in ("answer", "Answer", "RuleGroup", "SearchError"):
        from . import engine as module

        return getattr(module, name)
    raise AttributeError(name)
