"""Rendered MTG Wiki page text (what a browser shows, copied as text) → a :class:`WikiDocument`.

Rendered text has lost the markup: links are flattened to their labels,
templates are expanded, heading levels are gone and, depending on the view
(desktop, mobile, printable), bullets are ``• `` or ``- `` with two spaces per
nesting level, or have no mark at all. What we do, and why:

- **Headings** are recognised by their surroundings, never by title: a line
  followed by ``[編集]`` (or prefixed by it), or, in text with blank lines
  between blocks, a short line without sentence punctuation standing alone;
  in text without blank lines, a short unpunctuated line.
- **Card boxes** are a name line ``English / 日本語 (cost)``, a type line, text
  lines and an optional P/T line. A box whose name line is missing starts at
  its type line (recognised by the card-type words) and is kept without a name.
  A P/T glued to the next line (``2/2エンチャント``) is split off.
- **Bullets whose mark was lost**: some views drop the top-level bullet mark,
  so a run of lines (no blank line between) where an unmarked line is
  directly followed by a ``- `` bullet is a list whose unmarked lines are the
  top level (``mark_lost``) and whose marked lines are one level deeper.
- **The quoted CR block** starts at ``引用：総合ルール <version>``; every later
  line (bullet or not) is a :class:`QuoteLine` until a known section heading.
- **Page chrome** (``提供：MTG Wiki``, ``移動: 案内, 検索``, ``目次``) is skipped;
  the revision line (``…時点における版``), the redirect line (``(…から転送)``)
  and the disambiguation line (``この項目では…``) are kept as :class:`Note`\\ s.

>>> doc = parse_rendered("発見\\n\\n発見/Discoverはキーワード処理の一種。\\n\\nルール\\n\\n• A。\\n  • 例：B。\\n", "x.txt")
>>> [(type(b).__name__, b.text) for b in doc.blocks]
[('Paragraph', '発見/Discoverはキーワード処理の一種。'), ('Heading', 'ルール'), ('ListItem', 'A。'), ('ListItem', '例：B。')]
>>> [b.depth for b in doc.blocks if type(b).__name__ == "ListItem"]
[0, 1]
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from . import wiki_en
from .card_costs import is_japanese_cost
from .wiki_records import (
    CardBox, Heading, Infobox, ListItem, Note, Paragraph, QuoteLine, QuoteStart, WikiDocument,
)

# Section headings MTG Wiki pages use at the top level. Rendered text loses
# heading levels: a heading not in this list is taken as a sub-section of the
# top-level section before it (ルール › カードの追放について).
TOP_LEVEL_SECTIONS = frozenset({
    "定義", "解説", "ルール", "開発秘話", "その他", "参考", "脚注", "関連", "関連項目",
    "登場セット", "ストーリー", "歴史", "ルーリング", "概要", "主な用途", "関連カード",
    "利用", "デッキ", "ストーリー上の扱い", "用例",
}) | wiki_en.SECTIONS
# Sections whose bullets are rulings (and their sub-sections).
RULING_SECTIONS = frozenset({"ルール", "ルーリング", "裁定"}) | wiki_en.RULING_SECTIONS
# ... and the longer names some pages give them (主なルール, ルール上の注意, ルールについて, Rulings notes)
# (a colon after the name, in either language: ルール：, Rulings:)
_RULING_HEADING = re.compile(r"^(?:(?:主な|その他の|細かい)?(?:ルール|ルーリング|裁定)(?:上の(?:注意|扱い)|解説|について|・裁定|の詳細)?"
                             r"|Rulings?|Rulings notes|Notable rulings)\s*[：:]?$")


def is_ruling_heading(text: str) -> bool:
    """Whether a section heading's bullets are rulings.

    >>> is_ruling_heading("ルール"), is_ruling_heading("ルール上の注意"), is_ruling_heading("総合ルール"), is_ruling_heading("解説")
    (True, True, False, False)
    """
    return text in RULING_SECTIONS or bool(_RULING_HEADING.match(text))

# A known section's heading printed with decoration around it: a colon after it (ルール：, Rulings:), brackets
# (【ルール】, ［ルール］, [ルール]), a mark before it (■ルール, ◆ルール), "=" signs (== ルール ==, as a rendered copy of
# the wikitext may keep them) or a short parenthesis after it (ルール（2024年）). Read as that heading only when
# what is inside is a section the site uses (TOP_LEVEL_SECTIONS) or a ruling section's name, so a sentence
# ending in a colon stays a paragraph.
_DECORATED_HEADING = re.compile(
    r"^(?:=+\s*(?P<eq>[^=]{1,30}?)\s*=+"
    r"|[【［\[]\s*(?P<bracket>[^】］\]]{1,30}?)\s*[】］\]]"
    r"|[■□◆◇▼▽★☆●◎]\s*(?P<marked>[^\s].{0,29}?)"
    r"|(?P<plain>[^\s：:（(][^：:（(]{0,29}?))"
    r"\s*(?:[（(](?P<paren>[^（）()]{1,20})[）)])?\s*[：:]?$"
)


def decorated_heading(text: str) -> str | None:
    """The section a decorated heading line names (``ルール：`` → ``ルール``), or None.

    >>> decorated_heading("ルール："), decorated_heading("【ルール】"), decorated_heading("== 解説 =="), decorated_heading("Rulings:")
    ('ルール', 'ルール', '解説', 'Rulings')
    >>> decorated_heading("ルール"), decorated_heading("以下のとおり："), decorated_heading("■注意")
    (None, None, None)
    """
    m = _DECORATED_HEADING.match(text.strip())
    if not m:
        return None
    name = (m.group("eq") or m.group("bracket") or m.group("marked") or m.group("plain") or "").strip()
    if name == text.strip():
        return None  # no decoration: the ordinary heading rules decide
    if m.group("paren") and not is_ruling_heading(name):
        return None
    if name in TOP_LEVEL_SECTIONS or is_ruling_heading(name):
        return name
    return None


_EDIT_MARK = "[編集]"
# "ルール[編集]", "ルール [編集 | ソースを編集]": a Japanese heading with its edit link after it
_JA_EDIT_LINK = re.compile(r"^(?P<heading>[^\[\]]{1,60}?)\s*\[編集(?:\s*\|\s*ソースを編集)?\]$")
_CHROME = re.compile(
    r"^(?:提供[：:]\s*MTG Wiki|From MTG Wiki|移動[：:]\s*案内[,、]\s*検索|Jump to navigation.*"
    r"|\(版間での差分\)|目次(?:\s*\|)?|MOBILE)$"
)
_REDIRECT = re.compile(r"^[(（]?(?P<source>[^()（）]*?)\s*から転送[)）]$")
_REVISION = re.compile(r"^(?:.+時点における.*版|Revision as of .+)$")
_DISAMBIGUATION = re.compile(r"^この項目では.+")
_QUOTE_START = re.compile(r"^引用[：:]\s*総合ルール\s*(?P<version>\S+)\s*$")
# A list item: "•", "-", "*", "1." and a space; the marks browsers print for nested lists ("◦", "▪", …),
# and the Japanese "・", which needs no space after it; an en dash "–" as some copies print a list's mark.
_BULLET = re.compile(r"^(?P<indent>[ \u3000]*)(?:(?P<mark>[•\-\*◦○●▪■‣∙–]|\d+[.．])(?:[ \u3000]+(?P<text>.*))?"
                     r"|(?P<dot>・)[ \u3000]*(?P<dot_text>.+))$")
# a nested list's mark says its level when the text lost its indentation
_MARK_LEVEL = {"◦": 1, "○": 1, "▪": 2, "■": 2, "‣": 2, "∙": 2}


def _bullet(raw: str) -> tuple[int, str, str] | None:
    """(indentation width, mark, text) of a list item line, or None."""
    b = _BULLET.match(raw)
    if not b:
        return None
    mark = b.group("mark") or b.group("dot")
    text = b.group("text") if b.group("mark") else b.group("dot_text")
    indent = len(b.group("indent")) or 2 * _MARK_LEVEL.get(mark, 0)
    return indent, mark, (text or "")

# A flattened infobox: "続唱/Cascade | |", "---|---|", "種別 | 誘発型能力 |", "登場セット | … |"
_TABLE_ROW = re.compile(r"^(?P<key>[^|]+?)\s*\|\s*(?P<value>[^|]*?)\s*\|$")
# A flattened table row of more than two cells: "未来予知 | FUT | 2007年5月 |"
_TABLE_CELLS = re.compile(r"^[^|]+(?:\|[^|]*){2,}\|$")
# A flattened one-column table: its header ("登場セット |"), "---|", then one cell a row.
_ONE_CELL = re.compile(r"^(?P<cell>[^|]+?)\s*\|$")
_SEPARATOR = re.compile(r"^-{3,}\|(?:-{3,}\|)*$")
_PT = re.compile(r"^(?P<pt>[0-9XＸ*＊+\-]{1,4}/[0-9XＸ*＊+\-]{1,4})(?P<rest>.*)$")

_TYPE_WORDS = (
    "アーティファクト", "クリーチャー", "エンチャント", "インスタント", "ソーサリー", "土地",
    "プレインズウォーカー", "バトル", "部族", "キンドレッド", "次元", "現象", "策略",
    "ヴァンガード", "ダンジョン", "計略",
)
_SUPERTYPES = ("伝説の", "伝説", "基本", "氷雪の", "氷雪", "ワールド", "持続")
_TYPE_LINE = re.compile(
    r"^(?:(?:" + "|".join(_SUPERTYPES) + r")[ ・]?)*(?:" + "|".join(_TYPE_WORDS) + r")"
    r"(?:[ ・]?(?:" + "|".join(_TYPE_WORDS) + r"))*(?:\s*[—―–\-]\s*[^。、]{1,80})?$"
)
_EN_NAME = re.compile(r"^[A-Za-z0-9\"'][A-Za-z0-9 ,'’\-.:!?&\"+]*$")
_SENTENCE_END = tuple("。．.!?！？」』)）]】>")
_OPENING = tuple("「『（([【")


def is_type_line(text: str) -> bool:
    """True for a printed Japanese type line.

    >>> is_type_line("クリーチャー — 人間(Human) 工匠(Artificer)"), is_type_line("土地")
    (True, True)
    >>> is_type_line("土地でないカード1枚が追放されるまで")
    False
    """
    return bool(_TYPE_LINE.match(text.strip())) or wiki_en.is_type_line(text)


@dataclass(frozen=True)
class CardNameLine:
    name_en: str
    name_ja: str
    cost: str | None
    rest: str


def parse_card_name_line(text: str) -> CardNameLine | None:
    """``Hit the Mother Lode / 金脈発見 (４)(赤)(赤)(赤)`` → names and cost; None if not a name line.

    Whatever follows the cost on the same line (a type line glued to it) is ``rest``.

    >>> parse_card_name_line("Hit the Mother Lode / 金脈発見 (４)(赤)(赤)(赤)")
    CardNameLine(name_en='Hit the Mother Lode', name_ja='金脈発見', cost='(４)(赤)(赤)(赤)', rest='')
    >>> parse_card_name_line("This Is How It Ends / こうして終わりを迎える (3)(黒)インスタント").rest
    'インスタント'
    >>> parse_card_name_line("Evolving Wilds / 進化する未開地").cost is None
    True
    """
    m = re.match(r"^(?P<en>.+?(?: // .+?)?) / (?P<ja>.+)$", text.strip())
    if not m or not _EN_NAME.match(m.group("en")):
        return None
    ja_part = m.group("ja")
    for start in [i for i, c in enumerate(ja_part) if c in "(（"]:
        run = re.match(r"(?:[(（][^()（）]{1,6}[)）])+", ja_part[start:])
        if run and is_japanese_cost(run.group(0)):
            name_ja = ja_part[:start].strip()
            if not name_ja:
                return None
            return CardNameLine(m.group("en").strip(), name_ja, run.group(0), ja_part[start + run.end():].strip())
    if re.search(r"[。、]", ja_part):
        return None
    return CardNameLine(m.group("en").strip(), ja_part.strip(), None, "")


# A card box named only in Japanese, as the CR prints card names: 《金脈発見》 (４)(赤)(赤)(赤)
_JA_NAME_LINE = re.compile(r"^《(?P<ja>[^《》]{1,40})》\s*(?P<rest>.*)$")


def parse_japanese_name_line(text: str) -> CardNameLine | None:
    """``《金脈発見》 (４)(赤)(赤)(赤)`` → the Japanese name and cost (no English name); None otherwise.

    >>> parse_japanese_name_line("《金脈発見》 (４)(赤)(赤)(赤)")
    CardNameLine(name_en='', name_ja='金脈発見', cost='(４)(赤)(赤)(赤)', rest='')
    >>> parse_japanese_name_line("《金脈発見》を唱える。") is None
    True
    """
    m = _JA_NAME_LINE.match(text.strip())
    if not m:
        return None
    rest = m.group("rest").strip()
    run = re.match(r"(?:[(（][^()（）]{1,6}[)）])+", rest)
    if run and is_japanese_cost(run.group(0)):
        return CardNameLine("", m.group("ja").strip(), run.group(0), rest[run.end():].strip())
    if not rest:
        return CardNameLine("", m.group("ja").strip(), None, "")
    return None


def _looks_like_heading(text: str) -> bool:
    if not text or len(text) > 30 or text in {"*", "-"}:
        return False
    if re.search(r"[。、「」：:|]", text):
        return False
    if text.endswith(("）", ")")) and "(" not in text and "（" not in text:
        return False  # the end of a parenthesis that began on the line before
    if _PT.match(text) or re.match(r"^\d", text):
        return False
    return True


def _is_chrome(text: str) -> bool:
    return bool(_CHROME.match(text)) or bool(wiki_en.CHROME.match(text))


def _is_stop(text: str) -> bool:
    """Lines that end a card box's text."""
    return (
        not text or _is_chrome(text) or text in TOP_LEVEL_SECTIONS or text.startswith(("※", _EDIT_MARK))
        or text == "*" or bool(_QUOTE_START.match(text)) or _bullet(text) is not None
        or parse_card_name_line(text) is not None or is_type_line(text)
    )


class _Lines:
    """The page's lines with their numbers; a line can be replaced by what is left of it."""

    def __init__(self, text: str, first_line: int):
        self.items = [[first_line + i, raw.rstrip()] for i, raw in enumerate(text.split("\n"))]
        self.i = 0

    def peek(self, k: int = 0):
        j = self.i + k
        return self.items[j] if j < len(self.items) else None

    def next_nonblank(self, k: int = 0):
        j = self.i + k
        while j < len(self.items) and not self.items[j][1].strip():
            j += 1
        return j


def _read_card_box(lines: _Lines, blank_separated: bool) -> CardBox:
    """Read a card box starting at the current line (a name line or a type line)."""
    number, raw = lines.peek()
    name = parse_card_name_line(raw.strip()) or parse_japanese_name_line(raw.strip())
    name_en = name_ja = cost = None
    if name:
        name_en, name_ja, cost = name.name_en or None, name.name_ja, name.cost
        if name.rest:
            lines.items[lines.i][1] = name.rest  # the type line glued to the cost
        else:
            lines.i += 1
    # the type line (repeated in some mobile views), possibly after blank lines
    type_line = None
    j = lines.next_nonblank()
    if j < len(lines.items) and is_type_line(lines.items[j][1]):
        type_line = lines.items[j][1].strip()
        lines.i = j + 1
        while lines.peek() and lines.peek()[1].strip() == type_line:
            lines.i += 1
    text_lines: list[str] = []
    pt = None
    if blank_separated and type_line:
        lines.i = lines.next_nonblank()  # desktop views put a blank line between type line and text
    while lines.peek() is not None:
        current = lines.peek()[1].strip()
        if not current:
            break
        m = _PT.match(current)
        if m and text_lines:
            pt = m.group("pt")
            if m.group("rest").strip():
                lines.items[lines.i][1] = m.group("rest").strip()
            else:
                lines.i += 1
            break
        if _is_stop(current):
            break
        text_lines.append(current)
        lines.i += 1
    if pt is None and blank_separated:
        j = lines.next_nonblank()
        if j < len(lines.items):
            m = _PT.match(lines.items[j][1].strip())
            if m and not m.group("rest").strip():
                pt = m.group("pt")
                lines.i = j + 1
    return CardBox(name_en, name_ja, cost, type_line, "\n".join(text_lines) or None, pt, number, "rendered")


def parse_rendered(text: str, source: str, *, first_line: int = 1, revision: str | None = None,
                   title: str | None = None) -> WikiDocument:
    """Read rendered page text into a :class:`WikiDocument` (see the module docstring)."""
    lines = _Lines(text, first_line)
    raw_lines = [item[1] for item in lines.items]
    blank_count = sum(1 for r in raw_lines if not r.strip())
    blank_separated = blank_count >= 3 and blank_count >= 0.15 * len(raw_lines)
    doc = WikiDocument(title=title, form="rendered", source=source, line=first_line, revision=revision)
    # The title is the first non-empty line (an edit view says 「発見」を編集中).
    while lines.peek() is not None and not lines.peek()[1].strip():
        lines.i += 1
    if lines.peek() is not None and doc.title is None:
        number, raw = lines.peek()
        m = re.match(r"^「(?P<t>.+)」を編集中$", raw.strip())
        lead = wiki_en.english_lead(raw.strip())
        if lead:  # an English page copied from its lead sentence on: the name is its title
            doc.title, doc.line = lead[0], number
        else:
            doc.title = m.group("t") if m else raw.strip()
            doc.line = number
            lines.i += 1
    blocks: list = []
    in_quote = False
    in_sets = False  # inside 登場セット: short lines there are set names, not headings
    previous_blank = True
    while lines.peek() is not None:
        number, raw = lines.peek()
        stripped = raw.strip()
        if not stripped:
            blocks.append(None)  # run separator, removed below
            lines.i += 1
            previous_blank = True
            continue
        if stripped.startswith(_EDIT_MARK):
            rest = stripped[len(_EDIT_MARK):].strip()
            if stripped.startswith(_EDIT_MARK + " ") and rest and len(rest) <= 60:
                # "[編集] 定義": the edit link printed before its heading
                blocks.append(Heading(rest, None, number))
                in_quote = False
                in_sets = rest == "登場セット"
                lines.i += 1
                previous_blank = False
                continue
            # "[編集]本文…": the edit link of the heading on the line before
            last_at = next((k for k in range(len(blocks) - 1, -1, -1) if blocks[k] is not None), None)
            if last_at is not None and isinstance(blocks[last_at], Paragraph) and _looks_like_heading(blocks[last_at].text):
                blocks[last_at] = Heading(blocks[last_at].text, None, blocks[last_at].line)
                in_quote = False
                in_sets = blocks[last_at].text == "登場セット"
            lines.items[lines.i][1] = rest
            if not rest:
                lines.i += 1
            continue
        if _is_chrome(stripped):
            lines.i += 1
            continue
        ja_edited = _JA_EDIT_LINK.match(stripped)
        edited = wiki_en.heading_with_edit_link(stripped) or (ja_edited.group("heading").strip() if ja_edited else None)
        if edited:  # "Rules[edit | edit source]": an English heading with its edit link
            blocks.append(Heading(edited, None, number))
            in_quote = False
            in_sets = edited == "登場セット"
            lines.i += 1
            previous_blank = False
            continue
        decorated = None if in_quote else decorated_heading(stripped)
        if decorated:  # "ルール：", "【ルール】", "== ルール ==": a known section's heading, decorated
            blocks.append(Heading(decorated, None, number))
            in_sets = decorated == "登場セット"
            lines.i += 1
            previous_blank = False
            continue
        if wiki_en.is_quote_start(stripped):
            blocks.append(QuoteStart(wiki_en.quote_release(stripped) or "unknown", number, lang="en"))
            in_quote = True
            lines.i += 1
            continue
        m = _REDIRECT.match(stripped)
        if m:
            blocks.append(Note("redirect", m.group("source").strip(), number))
            lines.i += 1
            continue
        if _REVISION.match(stripped):
            blocks.append(Note("revision", stripped, number))
            if doc.revision is None:
                doc.revision = stripped
            lines.i += 1
            continue
        if _DISAMBIGUATION.match(stripped):
            blocks.append(Note("disambiguation", stripped, number))
            lines.i += 1
            continue
        m = _QUOTE_START.match(stripped)
        if m:
            blocks.append(QuoteStart(m.group("version"), number))
            in_quote = True
            lines.i += 1
            continue
        if in_quote:
            if stripped in TOP_LEVEL_SECTIONS:
                in_quote = False
            else:
                b = _bullet(raw)
                quoted = b[2] if b else stripped
                if quoted.strip():
                    blocks.append(QuoteLine(quoted.strip(), number))
                lines.i += 1
                continue
        if stripped in {"*"}:
            lines.i += 1
            continue
        following = lines.peek(1)
        if _ONE_CELL.match(stripped) and following is not None and _SEPARATOR.match(following[1].strip()):
            blocks.append(_read_one_column_table(lines))
            continue
        if _TABLE_ROW.match(stripped) or _TABLE_CELLS.match(stripped):
            blocks.append(_read_infobox_table(lines))
            continue
        if parse_card_name_line(stripped) or (is_type_line(stripped) and _has_text_after(lines, blank_separated)) or (
                parse_japanese_name_line(stripped) and _type_line_follows(lines, blank_separated)):
            box = _read_card_box(lines, blank_separated)
            last_at = next((k for k in range(len(blocks) - 1, -1, -1) if blocks[k] is not None), None)
            if box.name_en is None and box.name_ja is None and wiki_en.is_type_line(box.type_line or "") \
                    and last_at is not None and isinstance(blocks[last_at], (Paragraph, Heading)) \
                    and _EN_NAME.match(blocks[last_at].text) and len(blocks[last_at].text) <= 40:
                # an English card box: the card's name is the line above its type line
                box = replace(box, name_en=blocks[last_at].text, line=blocks[last_at].line)
                del blocks[last_at]
            blocks.append(box)
            previous_blank = False
            continue
        b = _bullet(raw)
        if b:
            # the depth is the indentation for now; _settle_lists makes it relative to the list
            blocks.append(ListItem(b[2].strip(), b[0], number, ordered=b[1][0].isdigit()))
            lines.i += 1
            previous_blank = False
            continue
        next_item = lines.peek(1)
        next_blank = next_item is None or not next_item[1].strip()
        standalone = previous_blank and next_blank
        if _looks_like_heading(stripped) and (
            stripped in TOP_LEVEL_SECTIONS
            or (not in_sets and blank_separated and standalone and len(stripped) <= 22)
            or (not in_sets and not blank_separated and len(stripped) <= 20)
        ):
            blocks.append(Heading(stripped, None, number))
            in_sets = stripped == "登場セット"
        else:
            blocks.append(Paragraph(stripped, number))
        lines.i += 1
        previous_blank = False
    doc.blocks = _settle_lists(blocks)
    check_unread_headings(doc)
    check_truncation(doc)
    return doc


def check_unread_headings(doc: WikiDocument) -> None:
    """Warn of a short line ending in a colon right before a list (``注意点：``, ``Notes:``) that no
    heading rule read: its list is kept as the section's text, not as rulings, so a warning names
    the line (a form of heading not seen before, or a sentence introducing a list: either way
    someone should look).
    """
    from .records import IngestProblem

    kept = [b for b in doc.blocks if b is not None]
    for block, after in itertools.pairwise(kept):
        if isinstance(block, Paragraph) and isinstance(after, ListItem) and len(block.text) <= 30 \
                and block.text.endswith(("：", ":")):
            doc.problems.append(IngestProblem(
                doc.source, block.line, "warning", "wiki-heading-unread",
                f"{block.text!r} before a list is read as a paragraph, not as a heading: the list under it"
                " is the section's text, not rulings"))


def _read_one_column_table(lines: _Lines) -> Infobox:
    """``登場セット |`` / ``---|`` / ``A B C |``: a one-column table, its header a field, its rows the value.

    An infobox printed this way holds only its 登場セット (the sets run together on one row,
    split as a flattened line is: not exact); another header keeps its rows as the table's rows.
    """
    start, header = lines.peek()
    header = _ONE_CELL.match(header.strip())["cell"].strip()
    lines.i += 2
    cells: list[str] = []
    while lines.peek() is not None:
        m = _ONE_CELL.match(lines.peek()[1].strip())
        if not m:
            break
        cells.append(m["cell"].strip())
        lines.i += 1
    if header == "登場セット":
        printed = " ".join(cells)
        sets = tuple(name for cell in cells for name in split_rendered_sets(cell))
        return Infobox(start, sets=sets, sets_printed=printed or None, sets_exact=False,
                       rows=tuple((header, c) for c in cells))
    return Infobox(start, rows=tuple((c,) for c in cells))


def _read_infobox_table(lines: _Lines) -> Infobox:
    """Consecutive ``key | value |`` rows of a flattened infobox."""
    start = lines.peek()[0]
    fields: dict[str, str] = {}
    rows: list[tuple[str, ...]] = []
    while lines.peek() is not None:
        row = lines.peek()[1].strip()
        if re.match(r"^-{3,}\|(?:-{3,}\|)*$", row):
            if len(rows) == 1:
                rows = []  # the row above the separator is the header
            lines.i += 1
            continue
        m = _TABLE_ROW.match(row) or _TABLE_CELLS.match(row)
        if not m:
            break
        cells = tuple(c.strip() for c in row.rstrip("|").split("|"))
        rows.append(cells)
        fields.setdefault(cells[0], cells[1] if len(cells) > 1 else "")
        lines.i += 1
    name_en = None
    for key, value in fields.items():
        pair = re.match(r"^[^/]+/(?P<en>[A-Za-z].*)$", key)
        if not value and pair:
            name_en = pair.group("en").strip()
    sets = fields.get("登場セット")
    return Infobox(start, name_en=name_en, sets=split_rendered_sets(sets) if sets else (),
                   sets_printed=sets, sets_exact=False, rows=tuple(rows))


def _type_line_follows(lines: _Lines, blank_separated: bool) -> bool:
    """A 《name》 line starts a card box only when a type line comes next."""
    j = lines.next_nonblank(1) if blank_separated else lines.i + 1
    return j < len(lines.items) and is_type_line(lines.items[j][1])


def _has_text_after(lines: _Lines, blank_separated: bool) -> bool:
    """A type line starts a (nameless) card box only when card text follows it."""
    j = lines.i + 1
    if blank_separated:
        j = lines.next_nonblank(1)
    if j >= len(lines.items):
        return False
    following = lines.items[j][1].strip()
    return bool(following) and not _is_stop(following) or is_type_line(following)


def split_rendered_sets(printed: str) -> tuple[str, ...]:
    """Split a flattened set list (names joined by spaces) into names, best effort.

    English names keep their spaces (consecutive Latin words are one name);
    a Japanese name that itself contains a space is split wrongly, which is
    why rendered set lists are stored with ``sets_exact`` False.

    >>> split_rendered_sets("モダンホライゾン3 Secret Lair x Horizon: Into the Forbidden West 未来予知")
    ('モダンホライゾン3', 'Secret Lair x Horizon: Into the Forbidden West', '未来予知')
    """
    out: list[str] = []
    for token in printed.split():
        latin = bool(re.match(r"^[A-Za-z0-9:'&\-.,!]+$", token))
        if latin and out and re.match(r"^[A-Za-z0-9:'&\-.,! ]+$", out[-1]):
            out[-1] += " " + token
        else:
            out.append(token)
    return tuple(out)


def _settle_lists(blocks: list) -> list:
    """Depths relative to each bullet run; lists whose top-level marks were lost; drop separators."""
    runs: list[list] = [[]]
    for block in blocks:
        if block is None:
            runs.append([])
        else:
            runs[-1].append(block)
    out: list = []
    for run in runs:
        items = [b for b in run if isinstance(b, ListItem)]
        if items:
            base = min(b.depth for b in items)
            step = 2
            run = [replace(b, depth=(b.depth - base) // step) if isinstance(b, ListItem) else b for b in run]
            first_item = next(i for i, b in enumerate(run) if isinstance(b, ListItem))
            if (first_item > 0 and isinstance(run[first_item - 1], Paragraph)
                    and all(isinstance(b, (Paragraph, ListItem)) for b in run[first_item - 1:])):
                start = first_item - 1
                while start > 0 and isinstance(run[start - 1], Paragraph):
                    start -= 1
                run = run[:start] + [
                    ListItem(b.text, 0, b.line, mark_lost=True) if isinstance(b, Paragraph)
                    else replace(b, depth=b.depth + 1)
                    for b in run[start:]
                ]
        out.extend(run)
    return out


def check_truncation(doc: WikiDocument) -> None:
    """Say when the text visibly stops part-way: a final heading with nothing under it, a cut sentence.

    A sentence is cut when the last paragraph or ruling (8 characters or more),
    other bullet, quoted rule line or card text (20 or more: short list items
    such as 常磐木 have no punctuation) does not
    end with sentence-final punctuation, or ends with an opening bracket.
    """
    last = next((b for b in reversed(doc.blocks) if not isinstance(b, Note)), None)
    reason = None
    if last is None:
        reason = "no content after the title"
    elif isinstance(last, Heading):
        reason = f"ends with the heading {last.text!r} and nothing under it"
    elif isinstance(last, (Paragraph, ListItem, QuoteLine, CardBox)):
        text = (last.text or "") if not isinstance(last, CardBox) else (last.text or last.type_line or "")
        heading = next((b.text for b in reversed(doc.blocks) if isinstance(b, Heading)), None)
        # a ruling is a sentence however short; other list items (set names, 常磐木) need not be
        in_rulings = isinstance(last, ListItem) and heading is not None and is_ruling_heading(heading)
        long_enough = len(text) >= (8 if isinstance(last, Paragraph) or in_rulings else 20)
        if not text:
            reason = "ends with an empty bullet"
        elif text.endswith(_OPENING) or (long_enough and not text.endswith(_SENTENCE_END)):
            reason = f"ends mid-sentence: …{text[-12:]!r}"
    if reason:
        doc.truncated, doc.truncated_reason = True, reason
