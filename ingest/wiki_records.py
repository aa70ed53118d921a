"""What the MTG Wiki parsers yield: pages, sections, rulings, card blocks, card mentions, quoted rules.

Every page form (rendered text, wikitext, diff view, HTML) is first read into a
:class:`WikiDocument`, a flat list of blocks (:class:`Heading`,
:class:`Paragraph`, :class:`ListItem`, :class:`CardBox`, :class:`Infobox`,
:class:`QuoteStart`, :class:`QuoteLine`); :func:`ingest.wiki.records_from_document`
turns any document into the records below, so every form yields the same
records for the same page.

A page is identified by its ``source`` file and ``revision`` (a diff view holds
two revisions of one page). The quoted Comprehensive Rules become ordinary
:class:`ingest.records.Rule` records of their release (Japanese, completeness
``excerpt``) plus a :class:`QuotedRule` saying which page quoted them.

>>> Ruling(title="探す", revision=None, position=1, depth=0, parent=None, section="ルール",
...        section_path=("ルール",), text="…", is_example=False, cited=(), markup=None,
...        truncated=False, source="seeds/002.txt", line=17)  # doctest: +ELLIPSIS
Ruling(title='探す', revision=None, position=1, depth=0, parent=None, section='ルール', ...)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class WikiPage:
    """One revision of one wiki page as found in one file.

    ``kind`` is ``"keyword action"`` (キーワード処理) or ``"keyword ability"``
    (キーワード能力) when the page says so. ``sets_exact`` is False when the set
    list was split from flattened text (a rendered page joins set names with
    spaces, and a few names contain one). ``partial`` is True when the file
    holds only part of the page; ``partial_reason`` says how we know.
    """

    title: str
    name_ja: str | None
    reading: str | None
    name_en: str | None
    kind: str | None
    kind_ja: str | None
    sets: tuple[str, ...]
    sets_printed: str | None
    sets_exact: bool
    definition: str | None
    note: str | None  # disambiguation line (この項目では… / {{Otheruses}})
    redirected_from: str | None
    quoted_release: str | None  # YYYYMMDD of the CR the page quotes
    quoted_version: str | None  # as printed: 20260807.0
    quoted_keyword_rule: str | None  # the quoted numbered rule whose title is this page's keyword
    form: str  # rendered, wikitext, diff, html
    revision: str | None
    partial: bool
    partial_reason: str | None
    source: str
    line: int
    lang: str = "ja"  # the wiki's language: ja (mtgwiki.com) or en (mtg.wiki and its mirrors)


@dataclass(frozen=True)
class WikiSection:
    """A section of a page with its printed text (paragraphs and bullets, one per line)."""

    title: str
    revision: str | None
    position: int
    heading: str
    level: int | None  # None where the form does not say (rendered text)
    path: tuple[str, ...]
    text: str
    source: str
    line: int


@dataclass(frozen=True)
class Ruling:
    """One bullet of a ルール section (or a sub-section of it), as printed minus the bullet mark.

    ``position`` counts rulings from 1 in page order; ``parent`` is the
    position of the ruling this one is nested under; ``cited`` are the rule
    numbers its text cites (``rule 608.2d``, bare ``701.23a``).
    """

    title: str
    revision: str | None
    position: int
    depth: int
    parent: int | None
    section: str
    section_path: tuple[str, ...]
    text: str
    is_example: bool
    cited: tuple[str, ...]
    markup: str | None  # the wikitext of the bullet, where the form has it
    truncated: bool  # the file ends inside this ruling
    source: str
    line: int


@dataclass(frozen=True)
class CardBlock:
    """A card shown on a page: a rendered card box, ``{{カードテキスト}}`` or ``{{#card:Name}}``.

    ``how`` says which: ``rendered``, ``html``, ``カードテキスト`` or ``#card``
    (the last gives only the English name). ``cost_printed`` is as printed,
    ``mana_cost`` in Oracle symbols.
    """

    title: str
    revision: str | None
    position: int
    name_en: str | None
    name_ja: str | None
    cost_printed: str | None
    mana_cost: str | None
    mana_value: int | None
    type_line: str | None
    text: str | None
    pt: str | None
    how: str
    truncated: bool
    source: str
    line: int


@dataclass(frozen=True)
class CardMention:
    """A card named in the page's prose or rulings: ``魔性の教示者/Diabolic Tutor``, ``《ロボトミー》``.

    ``how`` is ``link`` (a wiki link to the card's page), ``name pair``
    (``Japanese/English`` in flattened text), ``《》`` (Japanese name in
    guillemets, as the CR prints card names); ``ruling`` is the position of
    the ruling it is in, if any; ``known`` says whether the card data has the
    name (None when no card data was given to the parser).
    """

    title: str
    revision: str | None
    name_en: str | None
    name_ja: str | None
    printed: str
    how: str
    ruling: int | None
    section: str | None
    known: bool | None
    source: str
    line: int


@dataclass(frozen=True)
class QuotedRule:
    """A page quotes rule ``number`` of ``release`` (the rule itself is a :class:`~ingest.records.Rule`)."""

    title: str
    revision: str | None
    release: str
    version_label: str
    number: str
    source: str
    line: int
    lang: str = "ja"


# ---------------------------------------------------------------- document blocks


@dataclass(frozen=True)
class Heading:
    text: str
    level: int | None
    line: int


@dataclass(frozen=True)
class Paragraph:
    text: str
    line: int
    markup: str | None = None
    links: tuple[tuple[str, str], ...] | None = None  # (target, label); None: the form lost links


@dataclass(frozen=True)
class ListItem:
    text: str
    depth: int
    line: int
    ordered: bool = False
    markup: str | None = None
    links: tuple[tuple[str, str], ...] | None = None
    mark_lost: bool = False  # rendered text dropped this item's bullet mark


@dataclass(frozen=True)
class CardBox:
    name_en: str | None
    name_ja: str | None
    cost: str | None
    type_line: str | None
    text: str | None
    pt: str | None
    line: int
    how: str


@dataclass(frozen=True)
class Infobox:
    """What an infobox says: ``name_en`` (英名), ``kind_ja`` (template kind), ``sets``."""

    line: int
    name_en: str | None = None
    kind_ja: str | None = None
    sets: tuple[str, ...] = ()
    sets_printed: str | None = None
    sets_exact: bool = True
    # a table's data rows, cell by cell (a 登場セット table: set name, code, date…)
    rows: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class QuoteStart:
    """``引用：総合ルール 20260807.0``: the CR lines that follow are quoted from that version."""

    version_label: str
    line: int
    lang: str = "ja"  # the English wiki quotes the English CR ("From the Comprehensive Rules (…)")


@dataclass(frozen=True)
class QuoteLine:
    """One line of a quoted CR block, bullet mark removed."""

    text: str
    line: int


@dataclass(frozen=True)
class Note:
    """Page chrome worth keeping: ``kind`` is disambiguation, redirect, revision or cr-template."""

    kind: str
    text: str
    line: int


Block = Union[Heading, Paragraph, ListItem, CardBox, Infobox, QuoteStart, QuoteLine, Note]


@dataclass
class WikiDocument:
    """One revision of a page in one form, as blocks in page order.

    ``levelled`` is True when headings carry their level (wikitext, HTML);
    rendered text loses levels and the builder nests by known section names.
    ``truncated`` is True when the parser saw the text end part-way (an
    unclosed template, a sentence cut off); ``excerpt`` when the caller knows
    the file is an excerpt.
    """

    title: str | None
    form: str
    source: str
    line: int = 1
    revision: str | None = None
    levelled: bool = False
    blocks: list = field(default_factory=list)
    truncated: bool = False
    truncated_reason: str | None = None
    problems: list = field(default_factory=list)
