"""Parse the Simplified Chinese Comprehensive Rules (万智牌完整规则) into records: ``parse_cr_zh``.

The files (``cr/zh/MagicCompRules_zh-Hans_<date>.txt``, a community
translation by the 大中华区裁判社群) follow the English layout, so they go
through the shared :mod:`ingest.cr_translation` parser with :data:`CHINESE`:

- the release is the effective date printed under the title
  (「此规则于2026年4月17日起生效。」), as in English;
- 目录 (contents), the rules from the section heading above ``100.1.``,
  词汇表 (glossary), 版权信息 (credits);
- examples begin 例如：; a numbered rule whose text is short and has no
  sentence punctuation is a heading (``701.57. 倾探``, ``205.2. 牌张类别``);
  headings print the Chinese name only (``title_en`` stays empty: the English
  name comes from the English rule of the same release and number);
- cross-references: 规则717, 规则601.2b与规则601.2f-h, 规则903.6-11, 第8章;
- glossary entries: a term line, then its definition; 「（已废止）」 marks an
  obsolete term.

>>> records = list(parse_cr_zh_text(SAMPLE, "zh.txt"))
>>> [(r.number, r.kind, r.title) for r in records if type(r).__name__ == "Rule"]
[('100', 'rule', '总则'), ('100.1', 'numbered', None), ('701', 'rule', '关键字动作'), ('701.57', 'numbered', '倾探'), ('701.57a', 'subrule', None)]
>>> [(e.rule_number, e.text) for e in records if type(e).__name__ == "Example"]
[('701.57a', '你倾探4。')]
>>> [(g.term, g.obsolete, g.rule_refs) for g in records if type(g).__name__ == "GlossaryEntry"]
[('倾探', False, ('701.57',)), ('单一神器', True, ())]
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from .cr_translation import Record, TranslationFormat, parse_translation_text
from .decoding import lost_characters, read_source

SAMPLE = """万智牌完整规则

此规则于2026年4月17日起生效。

目录

1. 游戏概念
100. 总则

词汇表

版权信息

1. 游戏概念

100. 总则

100.1. 这些万智牌规则适用于任何两位或是更多牌手的万智牌游戏。参见第8章，“多人游戏规则”。

7. 附加规则

701. 关键字动作

701.57. 倾探

701.57a 倾探N是指从你的牌库顶开始放逐牌。参见规则601.2a-d。

例如：你倾探4。

词汇表

倾探
一个关键字动作。参见规则701.57，“倾探”。

单一神器（已废止）
一个已废止的用词。

版权信息

此规则于2026年4月17日起生效。
"""

_NUMBER = r"\d{1,3}(?:\.\d+[a-z]?)?"
_RANGE_END = r"(?:\d{3}(?:\.\d+[a-z]?)?|[a-z](?![A-Za-z])|\d{1,2}(?![\d.]))"
_ITEM = rf"{_NUMBER}(?:\s*[-–—~～至]\s*{_RANGE_END})?"
_SEPARATOR = r"\s*(?:、|和|与|及|以及|或|，)\s*(?:规则\s*)?"
# 规则717 / 规则601.2b与规则601.2f-h / 规则903.6-11: the list after 规则.
_RULE_LIST = re.compile(rf"规则\s*(?P<list>{_ITEM}(?:{_SEPARATOR}{_ITEM})*)")
_ITEM_RE = re.compile(_ITEM)
_CHAPTER = re.compile(r"第\s*(?P<num>\d)\s*章")


def _english_rule_list(m: re.Match) -> str:
    return "rule " + ", ".join(i.group(0) for i in _ITEM_RE.finditer(m.group("list")))


def _english_chapter(m: re.Match) -> str:
    return f"section {m.group('num')}"


def is_title_zh(text: str) -> bool:
    """A numbered rule's text is its heading when short and without sentence punctuation.

    >>> is_title_zh("倾探"), is_title_zh("牌张类别"), is_title_zh("异能为以下三者之一：")
    (True, True, False)
    """
    return bool(text) and len(text) <= 30 and not re.search(r"[。：:；;，,？！]", text)


def split_title_zh(text: str) -> tuple[str, str | None]:
    """The heading is the Chinese name; the Chinese CR prints no English one."""
    return text.strip(), None


CHINESE = TranslationFormat(
    lang="zh",
    name="Chinese",
    effective_date=re.compile(r"此规则于\s*(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日起生效"),
    contents="目录",
    glossary="词汇表",
    credits="版权信息",
    example=re.compile(r"^例如?(?:[：:]|(?P<odd>[，,]))\s*(?P<text>.*)$"),
    is_title=is_title_zh,
    split_title=split_title_zh,
    citation_words=((_RULE_LIST, _english_rule_list), (_CHAPTER, _english_chapter)),
    obsolete=re.compile(r"\s*[（(]已废止[）)]\s*$"),
)


def parse_cr_zh_text(text: str, source: str) -> Iterator[Record]:
    """Parse decoded Chinese CR text (LF line endings); see the module docstring."""
    return parse_translation_text(text, source, CHINESE)


def parse_cr_zh(path: str | Path, display_path: str | None = None) -> Iterator[Record]:
    """Parse one Chinese CR file into records (``lang='zh'``).

    Raises :class:`~ingest.records.SourceError` when the file cannot be read as
    text; a readable file that is not a Chinese CR yields one error problem.
    """
    shown = display_path or str(path)
    decoded = read_source(path, shown)
    yield from parse_cr_zh_text(decoded.text, shown)
    yield from filter(None, [lost_characters(decoded)])
