"""Parse the Korean Comprehensive Rules (매직: 더 개더링 종합 규칙서) into records: ``parse_cr_ko``.

The file (``cr/ko/MagicCompRules_KR_<date>.txt``, an unofficial translation
by B.F.M.) follows the English layout, so it goes through the shared
:mod:`ingest.cr_translation` parser with :data:`KOREAN`:

- the release is the effective date printed under the title
  (「이 규칙은 2021년 11월 19일부터 시행됩니다.」);
- 목차 (contents), the rules from the section heading above ``100.1.``, then
  용어사전 (glossary), which the source omits (``<생략>``): a warning says so,
  and the release has no glossary entries;
- examples begin with the English ``Example:``; keyword headings print the
  Korean name and the English one (``701.19. 찾기 Search``, once without a
  space: ``두 배로 하다Double``), some the English one only (``701.22. Fateseal``):
  ``title`` is the Korean name (the English one where there is no Korean),
  ``title_en`` the English name;
- cross-references are written in English (``See rule 504``) or in Korean
  (``규칙 702.19와 702.21``, ``규칙 601.2f-h``, ``8절``).

>>> records = list(parse_cr_ko_text(SAMPLE, "ko.txt"))
>>> [(r.number, r.title, r.title_en) for r in records if type(r).__name__ == "Rule" and r.kind == "numbered"]
[('100.1', None, None), ('701.19', '찾기', 'Search'), ('701.22', 'Fateseal', 'Fateseal')]
>>> [(r.from_number, r.to_number, r.cited) for r in records if type(r).__name__ == "RuleRef"]
[('701.19a', '504', 'rule 504'), ('701.19a', '8', '8절')]
>>> [p.code for p in records if type(p).__name__ == "IngestProblem"]
['glossary-omitted']
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from .cr_translation import Record, TranslationFormat, parse_translation_text
from .decoding import lost_characters, read_source

SAMPLE = """매직: 더 개더링 종합 규칙서

이 규칙은 2021년 11월 19일부터 시행됩니다.

목차

7. 추가 규칙 Additional Rules
701. 키워드 행동 Keyword Actions

용어사전

1. 게임의 컨셉

100. 일반

100.1. 이 Magic 규칙은 두 명 혹은 그 이상의 플레이어가 참여하는 모든 Magic 게임에 적용됩니다.

7. 추가적인 규칙

701. 키워드 행동

701.19. 찾기 Search

701.19a 카드를 찾을 때는 그 구역의 카드를 모두 봅니다. See rule 504. 8절을 보세요.
Example: 서고에서 카드를 찾습니다.

701.22. Fateseal

701.22a 운명봉인 N은 상대의 서고 맨 위 N장을 보는 것입니다.

용어사전

<생략>

유한회사 위자드 오브 더 코스트에 의해 발행됨.
"""

_HANGUL = "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f"
# "찾기 Search", "두 배로 하다Double", "절멸자/절멸 Annihilator": a Korean name, then the English one.
_TITLE = re.compile(rf"^(?P<ko>.*[{_HANGUL})）]\S*?)\s*(?P<en>[A-Z][A-Za-z0-9 ,'’\-/!]*)$")
_ENGLISH_ONLY = re.compile(r"^[A-Za-z][A-Za-z0-9 ,'’\-/!()]*$")

_NUMBER = r"\d{3}(?:\.\d+[a-z]?)?"
_RANGE_END = r"(?:\d{3}(?:\.\d+[a-z]?)?|[a-z](?![A-Za-z])|\d{1,2}(?![\d.]))"
_ITEM = rf"{_NUMBER}(?:\s*[-–—~]\s*{_RANGE_END})?"
_SEPARATOR = r"\s*(?:와|과|및|,|、|또는|그리고)\s*(?:규칙\s*)?"
_RULE_LIST = re.compile(rf"규칙\s*(?P<list>{_ITEM}(?:{_SEPARATOR}{_ITEM})*)")
_ITEM_RE = re.compile(_ITEM)
_SECTION = re.compile(r"(?<![\d.])(?P<num>\d)\s*절")


def _english_rule_list(m: re.Match) -> str:
    return "rule " + ", ".join(i.group(0) for i in _ITEM_RE.finditer(m.group("list")))


def _english_section(m: re.Match) -> str:
    return f"section {m.group('num')}"


def is_title_ko(text: str) -> bool:
    """A numbered rule's text is its heading when it is short and not a sentence.

    >>> is_title_ko("찾기 Search"), is_title_ko("카드 타입"), is_title_ko("능력은 다음 세 가지 중 하나입니다:")
    (True, True, False)
    """
    return bool(text) and len(text) <= 60 and not re.search(r"[.:;?!。]\s*$|다\s*$", text)


def split_title_ko(text: str) -> tuple[str, str | None]:
    """(Korean name, English name or None) of a heading.

    >>> split_title_ko("찾기 Search"), split_title_ko("두 배로 하다Double"), split_title_ko("Fateseal")
    (('찾기', 'Search'), ('두 배로 하다', 'Double'), ('Fateseal', 'Fateseal'))
    >>> split_title_ko("Magic의 황금률"), split_title_ko("탭과 언탭 Tap and Untap")
    (('Magic의 황금률', None), ('탭과 언탭', 'Tap and Untap'))
    """
    text = text.strip()
    if _ENGLISH_ONLY.match(text):
        return text, text
    m = _TITLE.match(text)
    if m:
        return m.group("ko").strip(), m.group("en").strip()
    return text, None


KOREAN = TranslationFormat(
    lang="ko",
    name="Korean",
    effective_date=re.compile(r"(?P<y>\d{4})\s*년\s*(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일(?:부터|에)?\s*시행"),
    contents="목차",
    glossary="용어사전",
    credits=None,
    example=re.compile(r"^(?:Examples?|예시?)\s*[:：]\s*(?P<text>.*)$"),
    is_title=is_title_ko,
    split_title=split_title_ko,
    citation_words=((_RULE_LIST, _english_rule_list), (_SECTION, _english_section)),
    omitted=re.compile(r"^<\s*생략\s*>$"),
)


def parse_cr_ko_text(text: str, source: str) -> Iterator[Record]:
    """Parse decoded Korean CR text (LF line endings); see the module docstring."""
    return parse_translation_text(text, source, KOREAN)


def parse_cr_ko(path: str | Path, display_path: str | None = None) -> Iterator[Record]:
    """Parse one Korean CR file into records (``lang='ko'``).

    Raises :class:`~ingest.records.SourceError` when the file cannot be read as
    text; a readable file that is not a Korean CR yields one error problem.
    """
    shown = display_path or str(path)
    decoded = read_source(path, shown)
    yield from parse_cr_ko_text(decoded.text, shown)
    yield from filter(None, [lost_characters(decoded)])
