"""Parse an MTG Wiki page in any form it comes in: ``parse_wiki_page``.

Stages: :func:`~ingest.decoding.read_source` decodes the file; :func:`detect_form`
says which form it is (saved HTML, a diff or edit view, wikitext, rendered
text); the form's module reads it into one or more :class:`WikiDocument`\\ s
(:mod:`ingest.wiki_html`, :mod:`ingest.wiki_diff` — two revisions and possibly
a rendered one —, :mod:`ingest.wiki_wikitext`, :mod:`ingest.wiki_rendered`);
:func:`records_from_document` turns each document into records, the same way
for every form. No page title, section position or file name is special: a
page never seen before parses by the same rules.

What the records say, and the wiki's quirks we follow:

- **Name and kind** come from the lead sentence (``発見/Discoverはキーワード処理の一種``;
  ``探検（たんけん）/Explore``) or an infobox; kind is ``keyword action`` for
  キーワード処理 and ``keyword ability`` for キーワード能力.
- **Rulings** are the bullets of a ルール section and its sub-sections, each
  with its depth, its parent and whether it is an example (``例：``); the text
  is as printed minus the bullet mark, so other parts of the project can find
  a ruling by its exact text.
- **The quoted CR** (``引用：総合ルール 20260807.0`` and the rule lines after
  it) becomes Japanese :class:`~ingest.records.Rule`\\ s of release 20260807
  with completeness ``excerpt``. Pages sometimes quote the rule under the
  number a keyword had when it arrived, which now belongs to another keyword
  (the 発見 page quotes 701.55, now Face a Villainous Choice): the quote is kept
  exactly as printed, and when no quoted numbered rule has the page's keyword
  as its title a warning says so and the page's rulings are not linked to it.
- **Card mentions** are wiki links to card pages (``[[魔性の教示者/Diabolic Tutor]]``),
  the same pairs in flattened text (the card data decides where the Japanese
  name starts, and whether the English name is a card), and ``《name》``.
- **Partial pages**: a page whose file is an excerpt (``excerpt=True``), whose
  text visibly stops part-way, or a diff revision the diff does not show in
  full, is stored with ``partial`` True and the reason, never as whole.

>>> records = list(records_from_document(__import__("ingest.wiki_rendered", fromlist=["x"]).parse_rendered(
...     "発見\\n\\n発見/Discoverはキーワード処理の一種。\\n\\nルール\\n\\n• rule 701.57a を参照。\\n", "x.txt")))
>>> page = records[0]
>>> page.title, page.name_en, page.kind, page.partial
('発見', 'Discover', 'keyword action', False)
>>> [(r.text, r.cited) for r in records if type(r).__name__ == "Ruling"]
[('rule 701.57a を参照。', ('701.57a',))]
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Iterator, Union

from .card_costs import mana_cost_from_japanese, mana_value
from .cards import CardNameIndex
from .decoding import lost_characters, read_source
from .cr_ja import split_title
from .records import Example, IngestProblem, Release, Rule, RuleRef, Section, SourceError
from .rule_refs import find_citations, parent_number, rule_kind
from .wiki_diff import is_diff_view, read_rows, rebuild_revisions
from .wiki_records import (
    CardBlock, CardBox, CardMention, Heading, Infobox, ListItem, Note, Paragraph, QuotedRule,
    QuoteLine, QuoteStart, Ruling, WikiDocument, WikiPage, WikiSection,
)
from .wiki_rendered import TOP_LEVEL_SECTIONS, is_ruling_heading, parse_rendered, split_rendered_sets
from . import wiki_en
from .wiki_wikitext import is_wikitext, parse_wikitext

WikiRecord = Union[WikiPage, WikiSection, Ruling, CardBlock, CardMention, QuotedRule,
                   Release, Section, Rule, Example, RuleRef, IngestProblem]

KINDS = {"キーワード処理": "keyword action", "キーワード能力": "keyword ability",
         "keyword action": "keyword action", "keyword ability": "keyword ability"}
QUOTE_SECTION = "引用：総合ルール"

# ---------------------------------------------------------------- front door


def detect_form(text: str, path: str = "") -> str:
    """``html``, ``diff``, ``wikitext`` or ``rendered``, from the file name and the text.

    >>> detect_form("<!DOCTYPE html><html>…"), detect_form("| 1行： |\\n1行： |\\n"), detect_form("発見\\n\\n本文。")
    ('html', 'diff', 'rendered')
    """
    suffix = Path(path).suffix.lower()
    head = text.lstrip()[:200].lower()
    if suffix in {".html", ".htm"} or head.startswith(("<!doctype html", "<html")):
        return "html"
    if is_diff_view(text):
        return "diff"
    if suffix in {".wiki", ".mediawiki", ".wikitext"} or is_wikitext(text):
        return "wikitext"
    return "rendered"


def documents_from_text(text: str, source: str, form: str | None = None) -> list[WikiDocument]:
    """Read the text of one file into documents: one per revision it holds."""
    form = form or detect_form(text, source)
    if form == "html":
        from .wiki_html import parse_html

        return [parse_html(text, source)]
    if form == "wikitext":
        return [parse_wikitext(text, source)]
    if form == "rendered":
        return [parse_rendered(text, source)]
    lines = text.split("\n")
    _, view = read_rows(lines, source)
    documents = []
    left, right = rebuild_revisions(view)
    for revision in (left, right):
        if not revision.text.strip():
            continue
        doc = parse_wikitext(revision.text, source, line_map=revision.line_map, title=view.title,
                             revision=revision.label, form="diff")
        if not revision.whole:
            doc.truncated, doc.truncated_reason = True, revision.partial_reason
        _place_leading_list(doc, view)
        documents.append(doc)
    titles = {d.title for d in documents if d.title}
    if len(titles) == 1:  # one page: a revision whose lead gives no title takes the other's
        for doc in documents:
            doc.title = doc.title or next(iter(titles))
    if documents:
        documents[0].problems.extend(view.problems)
    if view.rendered_from is not None:
        rest = "\n".join(lines[view.rendered_from:])
        title = view.title or next(iter(titles), None)
        documents.append(parse_rendered(rest, source, first_line=view.rendered_from + 1,
                                        revision=view.rendered_label, title=title))
    return documents


def _place_leading_list(doc: WikiDocument, view) -> None:
    """A diff view's hunk that starts part-way through a page (``21行:``) may begin inside a section with
    its heading above the hunk: the list items before the first heading the view shows are in a section
    the view does not name. The edit summary may name it (``(ルール)``, ``(→Rulings)``, MediaWiki's
    section autocomment): a ruling section so named is their heading. Otherwise each such item is a
    warning naming its line (round 8: 諜報's ``diff=next`` view lost its four rulings without one).
    """
    if not view.hunk_starts or min(view.hunk_starts[0]) <= 1:
        return
    leading = []
    for block in doc.blocks:
        if isinstance(block, Heading):
            break
        if isinstance(block, ListItem) and block.text:
            leading.append(block)
    if not leading:
        return
    named = next(((name.lstrip("→←\u200e "), line) for name, line in view.summary_sections
                  if is_ruling_heading(name.lstrip("→←\u200e "))), None)
    if named:
        doc.blocks.insert(0, Heading(named[0], 2, named[1]))
        return
    for block in leading:
        doc.problems.append(IngestProblem(
            doc.source, block.line, "warning", "wiki-list-no-section",
            f"a list item before the first heading this view shows (it starts at line {view.hunk_starts[0][0]} of"
            " the page): its section is not known, so it is stored as no ruling"))


def parse_wiki_page(path: str | Path, display_path: str | None = None, *,
                    card_names: CardNameIndex | None = None, excerpt: bool | None = None,
                    form: str | None = None) -> Iterator[WikiRecord]:
    """Yield the records of the page (or pages, for a diff view) in the file at ``path``.

    ``display_path`` is the name used in records and errors (a path relative
    to the corpus). ``card_names`` lets mentions in flattened text be
    recognised (without it, every ``日本語/English`` pair is yielded with
    ``known=None``). ``excerpt`` says the file is known to hold only part of
    the page (the corpus's SOURCES.md says which); ``form`` overrides
    :func:`detect_form`. An unreadable file raises :class:`SourceError`.
    """
    shown = display_path or str(path)
    decoded = read_source(path, shown)
    if shown.startswith(("wiki/ja/", "seeds/")) and not _JAPANESE.search(decoded.text):
        # Saved in an encoding without Japanese (Windows-1252 writes "?" for each character), or not a page.
        where = decoded.text[: max(decoded.text.find("?"), 0)].count("\n") + 1
        raise SourceError(shown, where, "a page of the Japanese wiki with no Japanese character: saved in an "
                          "encoding without Japanese, or not a wiki page; save the page as UTF-8")
    yield from filter(None, [lost_characters(decoded)])
    documents = documents_from_text(decoded.text, shown, form)
    if not documents:
        raise SourceError(shown, None, "no wiki page found in the file (no title, no text)")
    for doc in documents:
        yield from records_from_document(doc, card_names=card_names, excerpt=excerpt)


# ---------------------------------------------------------------- building records

_LEAD_NAME = re.compile(
    r"^(?P<ja>[^/（(、。「」]+?)\s*(?:[（(](?P<reading>[ぁ-ゖー・\s]+)[）)])?\s*/\s*"
    r"(?P<en>[A-Za-z][A-Za-z0-9 '’\-,]*?)\s*(?=とは|は|キーワード|の|$|[（(、。])"
)
_LEAD_NAME_PARENS = re.compile(r"^(?P<ja>[^/（(、。]+?)[（(](?P<en>[A-Za-z][A-Za-z0-9 '\-]*)[）)]")
_QUOTED_NUMBER = re.compile(r"^(?P<number>\d(?:\d\d(?:\.\d+[a-z]?)?)?)\.?\s+(?P<text>.+)$")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_EXAMPLE = re.compile(r"^(?:例|Example)\s*[：:]\s*")
_PAIR = re.compile(r"/(?P<en>[A-Z0-9\"'][A-Za-z0-9 ,'’\-.:!?&]*)")
_GUILLEMETS = re.compile(r"《(?P<name>[^《》]+)》")
_JA_NAME_CHAR = re.compile(r"[\u4e00-\u9fff\u3005\u3041-\u3096\u30a0-\u30ffー・\uff10-\uff19\uff21-\uff5a]")
# Where a card name may start inside flattened text: after a particle or a sentence-opening word.
_PARTICLES = ("によって", "について", "では", "には", "から", "まで", "より", "を", "に", "が", "は", "で", "と",
              "や", "も", "へ", "ただし", "なお", "および", "または", "あるいは", "例えば", "特に")


def _lead_name(text: str) -> tuple[str, str | None, str] | None:
    """(Japanese name, reading, English name) from a lead sentence, or None."""
    m = _LEAD_NAME.match(text)
    if m and _JAPANESE.search(m.group("ja")):
        return m.group("ja").strip(), m.group("reading"), m.group("en").strip(" ,")
    m = _LEAD_NAME_PARENS.match(text)
    if m and _JAPANESE.search(m.group("ja")):  # "Introduced | Antiquities (mechanic)" is no Japanese name
        return m.group("ja").strip(), None, m.group("en").strip()
    return None


def _kind_after(text: str, start: int) -> str | None:
    found = [(text.find(word, start), word) for word in KINDS if text.find(word, start) >= 0]
    return min(found)[1] if found else None


def _ja_before(before: str, name_en: str, card_names: CardNameIndex | None) -> str | None:
    """The Japanese half of a ``日本語/English`` pair: as the card data spells it, else by characters."""
    known = card_names.ja_for(name_en) if card_names else None
    if known and before.endswith(known):
        return known
    reading = re.search(r"[（(][ぁ-ゖー・\s]+[）)]$", before)
    if reading:
        before = before[: reading.start()]
    k = len(before)
    while k > 0 and _JA_NAME_CHAR.match(before[k - 1]):
        k -= 1
    span = before[k:]
    # the name starts after the last particle of the sentence before it (…対戦相手が|未来予知)
    cut = max((span.rfind(p) + len(p) for p in _PARTICLES if span.rfind(p) >= 0), default=0)
    name = span[cut:].lstrip("の")
    return name or None


def _is_self_name(name_en: str, name_ja: str | None, self_names: set[tuple[str, str | None]],
                  before: str = "") -> bool:
    """The page's own ``日本語/English`` name (``発見/Discover``, ``発掘 Ｎ/Dredge N``), not a card."""
    for own_en, own_ja in self_names:
        if not name_en.startswith(own_en):
            continue
        if name_ja is None or own_ja is None or name_ja.startswith(own_ja):
            return True
        if own_ja in before[-(len(own_ja) + 4):]:  # 発掘 Ｎ/Dredge N: the name, then a variable
            return True
    return False


def _mentions_in_text(text: str, card_names: CardNameIndex | None, self_names: set[str]):
    """``(name_en, name_ja, printed, how)`` for each card pair and ``《》`` name in flattened text."""
    for m in _PAIR.finditer(text):
        raw = m.group("en").rstrip(" ,.:")
        name_en = raw
        if card_names is not None:
            words = raw.split(" ")
            name_en = None
            for n in range(len(words), 0, -1):
                candidate = card_names.canonical_en(" ".join(words[:n]).rstrip(" ,.:"))
                if candidate:
                    name_en = candidate
                    raw = " ".join(words[:n]).rstrip(" ,.:")
                    break
            if name_en is None:
                continue
        if not re.match(r"^[A-Z0-9\"']", name_en):
            continue
        name_ja = _ja_before(text[: m.start()], name_en, card_names)
        if _is_self_name(name_en, name_ja, self_names, text[: m.start()]):
            continue
        if name_ja is None and card_names is None:
            continue
        printed = f"{name_ja or ''}/{raw}"
        yield name_en, name_ja, printed, "name pair"
    for m in _GUILLEMETS.finditer(text):
        inner = m.group("name").strip()
        ja, _, en = inner.partition("/")
        name_en = en.strip() or (card_names.en_for(ja.strip()) if card_names else None)
        if card_names is not None and name_en is None:
            continue
        yield name_en, ja.strip(), m.group(0), "《》"


def _mentions_in_links(links, card_names: CardNameIndex | None, self_names: set[str]):
    for target, label in links:
        target = target.split("#")[0].strip()
        ja, slash, en = target.rpartition("/")
        if not slash or not re.match(r"^[A-Za-z0-9\"']", en.strip()) or not ja.strip():
            continue
        name_en = en.strip()
        if card_names is not None:
            name_en = card_names.canonical_en(name_en)
            if name_en is None:
                continue
        if _is_self_name(name_en, ja.strip(), self_names):
            continue
        yield name_en, ja.strip(), f"[[{target}{'|' + label if label != target else ''}]]", "link"


def _quoted_rules(doc: WikiDocument, start: QuoteStart, lines: list[QuoteLine], title: str) -> Iterator:
    """Release, Section, Rule, Example, RuleRef and QuotedRule records of one quoted CR block."""
    m = re.fullmatch(r"(?P<date>\d{8})(?:\.\d+)?", start.version_label)
    if not m:
        yield IngestProblem(doc.source, start.line, "error", "quote-version-unreadable",
                            f"quoted CR version {start.version_label!r} is not YYYYMMDD.N; its rules are not kept")
        return
    release = m.group("date")
    lang = start.lang
    try:
        effective = dt.datetime.strptime(release, "%Y%m%d").date().isoformat()
    except ValueError:
        yield IngestProblem(doc.source, start.line, "error", "quote-version-unreadable",
                            f"quoted CR version {start.version_label!r} is not a date; its rules are not kept")
        return
    yield Release(release, lang, effective, doc.source, completeness="excerpt", version_label=start.version_label)
    items: dict[str, dict] = {}  # number -> its text, line, examples and continuation lines
    for line in lines:
        number_match = _QUOTED_NUMBER.match(line.text)
        if number_match:
            number, text = number_match.group("number"), number_match.group("text").strip()
            if number in items:
                # a repeated line (the 探検 page closes its quote with its headings again)
                if items[number]["text"] != text:
                    yield IngestProblem(doc.source, line.line, "warning", "quote-repeated-differently",
                                        f"rule {number} is quoted twice on the page with different text; "
                                        "the first is kept")
                continue
            items[number] = {"number": number, "text": text, "line": line.line, "examples": [], "extra": []}
            last = items[number]
        elif _EXAMPLE.match(line.text) and items:
            last["examples"].append((line.line, _EXAMPLE.sub("", line.text)))
        elif items:
            last["extra"].append(line.text)
        else:
            yield IngestProblem(doc.source, line.line, "warning", "quote-stray-text",
                                f"text before the first quoted rule skipped: {line.text[:60]!r}")
    for position, item in enumerate(items.values(), 1):
        number = item["number"]
        kind = rule_kind(number)
        text = "\n".join([item["text"], *item["extra"]])
        yield QuotedRule(title, doc.revision, release, start.version_label, number, doc.source, item["line"], lang)
        if kind == "section":
            yield Section(release, lang, number, text, position, doc.source, item["line"])
            continue
        heading = kind == "rule" or (kind == "numbered" and "。" not in text and len(text) <= 60)
        rule_title, title_en = split_title(text) if heading else (None, None)
        if title_en and not re.match(r"^[A-Za-z]", title_en):
            rule_title, title_en = text, None
        if lang == "en" and heading:
            rule_title, title_en = text.rstrip("."), None
        # As in the Japanese CR (ingest.cr_ja): title in Japanese, title_en in English.
        yield Rule(release, lang, number, kind, parent_number(number), rule_title,
                   "" if heading else text, position, doc.source, item["line"], title_en=title_en)
        if not heading:
            for cite in find_citations(text):
                yield RuleRef(release, lang, number, "rule", cite.number, cite.kind, cite.cited,
                              doc.source, item["line"])
        for seq, (ex_line, ex_text) in enumerate(item["examples"], 1):
            yield Example(release, lang, number, seq, ex_text, doc.source, ex_line)
            for cite in find_citations(ex_text):
                yield RuleRef(release, lang, number, "example", cite.number, cite.kind, cite.cited,
                              doc.source, ex_line)


def _section_paths(doc: WikiDocument, english: bool = False) -> list[tuple[Heading, ...]]:
    """The heading path of every block: by level where the form has levels, else by known section names.

    Rendered Japanese pages nest an unknown heading under the known one before it
    (ルール › カードの追放について); the English wiki's sub-sections are rare and its
    unknown headings (Cards that interact with …) are sections of their own.
    """
    paths: list[tuple[Heading, ...]] = []
    path: list[Heading] = []
    for block in doc.blocks:
        if isinstance(block, Heading):
            if doc.levelled and block.level is not None:
                while path and (path[-1].level or 0) >= block.level:
                    path.pop()
                path.append(block)
            elif block.text in TOP_LEVEL_SECTIONS or not path or english:
                path = [block]
            else:
                path = path[:1] + [block]  # rendered text: an unknown heading is a sub-section
        paths.append(tuple(path))
    return paths


def _lead(blocks: list, paths: list) -> tuple[str | None, str | None, str | None, str | None]:
    """(Japanese name, reading, English name, kind word) from the lead, before the first section."""
    for block in blocks:
        if isinstance(block, Heading) and block.level == 1:
            found = _lead_name(block.text)  # =探す/Search=: a page-name heading
            if found:
                return (*found, None)
            continue
        if isinstance(block, Heading) and block.text != "登場セット":
            if block.text not in TOP_LEVEL_SECTIONS and wiki_en.is_english(block.text):
                continue  # an English infobox's lines (Keyword Ability, Type Static) read as headings
            break  # the lead ends at the first section (an infobox heading is not one)
        if isinstance(block, Paragraph):
            found = _lead_name(block.text)
            if found:
                return (*found, _kind_after(block.text, len(found[0]) + len(found[2])))
            english = wiki_en.english_lead(block.text)
            if english:
                kind = english[1] or next((wiki_en.infobox_kind(b.text) for b in blocks
                                           if isinstance(b, Paragraph) and wiki_en.infobox_kind(b.text)), None)
                return None, None, english[0], kind
    return None, None, None, None


_SETS_LINE = re.compile(r"^登場セット[ \u3000]+(?P<sets>[^|。]+?)[ |]*$")


def _sets(blocks: list, paths: list) -> tuple[tuple[str, ...], str | None, bool]:
    """(sets, as printed, exact?) from an infobox, else from everything in the 登場セット section.

    The section may hold one flattened line (names split on spaces: not exact), a list
    (one set per item), a table (the first cell of each row) or one set per line.
    """
    for box in (b for b in blocks if isinstance(b, Infobox)):
        if box.sets:
            return box.sets, box.sets_printed, box.sets_exact
    found: list[str] = []
    printed: list[str] = []
    exact = True
    ended = False  # rendered text: the infobox's 登場セット has no end but the lead sentence after it
    for block, path in zip(blocks, paths):
        if not path or path[-1].text != "登場セット":
            ended = False
            continue
        if ended or (isinstance(block, Paragraph) and re.search(r"[。．]", block.text)):
            ended = True
            continue
        if isinstance(block, ListItem) and block.text:
            found.append(block.text)
            printed.append(block.text)
        elif isinstance(block, Infobox) and block.rows:
            found += [row[0] for row in block.rows if row and row[0]]
            printed += [" | ".join(row) for row in block.rows]
        elif isinstance(block, Paragraph) and block.text:
            names = split_rendered_sets(block.text)
            exact = exact and len(names) == 1
            found += names
            printed.append(block.text)
    if found:
        return tuple(dict.fromkeys(found)), "\n".join(printed), exact
    for block in blocks:  # an infobox flattened to "登場セット 多数" on one line of the lead
        if isinstance(block, Heading) and block.text in TOP_LEVEL_SECTIONS:
            break
        m = isinstance(block, Paragraph) and _SETS_LINE.match(block.text)
        if m:
            names = split_rendered_sets(m["sets"])
            return tuple(dict.fromkeys(names)), m["sets"], len(names) == 1
    return (), None, True


def _keyword_rule(quoted_rules: list[Rule], name_ja: str | None, name_en: str | None) -> str | None:
    """The quoted numbered rule whose title is the page's keyword (探す／Search on the 探す page)."""
    for rule in quoted_rules:
        if rule.kind == "numbered" and rule.title:
            title_ja = rule.title.split("／")[0].strip()
            if (name_en and rule.title_en and rule.title_en.lower() == name_en.lower()) or (
                    name_en and rule.lang == "en" and rule.title.lower() == name_en.lower()) or (
                    name_ja and title_ja in {name_ja, f"{name_ja}を行う", f"{name_ja}する"}):
                return rule.number
    return None


def _sections(doc: WikiDocument, title: str, paths: list) -> Iterator[WikiSection]:
    """Every section's printed text (the lead as heading ""), so nothing the page says is dropped."""
    sections: list[tuple[Heading | None, tuple, list]] = [(None, (), [])]
    for block, path in zip(doc.blocks, paths):
        if isinstance(block, Heading):
            sections.append((block, path, []))
        elif not isinstance(block, (Note, QuoteStart, QuoteLine)):
            sections[-1][2].append(block)
    for position, (heading, path, members) in enumerate(sections):
        printed = []
        for b in members:
            if isinstance(b, Paragraph):
                printed.append(b.text)
            elif isinstance(b, ListItem):
                printed.append("  " * b.depth + ("# " if b.ordered else "• ") + b.text)
            elif isinstance(b, CardBox):
                printed.append(" / ".join(filter(None, [b.name_en, b.name_ja])) + (f" {b.cost}" if b.cost else ""))
        if heading is None and not printed:
            continue
        yield WikiSection(title, doc.revision, position, heading.text if heading else "",
                          heading.level if heading else 0, tuple(h.text for h in path),
                          "\n".join(printed), doc.source, heading.line if heading else doc.line)


def _card_block(doc: WikiDocument, title: str, block: CardBox, position: int, truncated: bool) -> Iterator:
    cost = None
    if block.cost:
        try:
            cost = mana_cost_from_japanese(block.cost)
        except ValueError as e:
            yield IngestProblem(doc.source, block.line, "warning", "card-cost-unreadable",
                                f"{e}; the cost is kept as printed only")
    yield CardBlock(
        title=title, revision=doc.revision, position=position, name_en=block.name_en, name_ja=block.name_ja,
        cost_printed=block.cost, mana_cost=cost, mana_value=mana_value(cost), type_line=block.type_line,
        text=block.text, pt=block.pt, how=block.how, truncated=truncated, source=doc.source, line=block.line,
    )


def _mentions(block, card_names: CardNameIndex | None, self_names: set) -> list[tuple]:
    """Card mentions in a paragraph or bullet: its links where the form kept them, else its text; always 《》."""
    if block.links is None:
        return list(_mentions_in_text(block.text, card_names, self_names))
    found = list(_mentions_in_links(block.links, card_names, self_names))
    return found + [m for m in _mentions_in_text(block.text, card_names, self_names) if m[3] == "《》"]


def _english_subject(blocks: list) -> str | None:
    """The subject of the first English paragraph that reads ``X is …`` (before any section)."""
    for block in blocks:
        if isinstance(block, Heading) and block.text not in {"登場セット"} and not wiki_en.is_english(block.text):
            break
        if isinstance(block, Paragraph) and wiki_en.is_english(block.text):
            m = wiki_en.LEAD.match(block.text.strip())
            if m:
                return m.group("name").strip()
    return None


def _as_ruling_item(block):
    """A paragraph of a ruling section without bullets, as the bullet it lost."""
    if not isinstance(block, Paragraph) or not block.text:
        return block
    return ListItem(block.text, 0, block.line, markup=getattr(block, "markup", None),
                    links=getattr(block, "links", None), mark_lost=True)


def _unmarked_ruling_sections(blocks: list, paths: list) -> set[int]:
    """The ruling sections (``id`` of their heading) that hold paragraphs and no bullet."""
    paragraphs: dict[int, int] = {}
    bulleted: set[int] = set()
    for block, path in zip(blocks, paths):
        if not path or not is_ruling_heading(path[-1].text):
            continue
        key = id(path[-1])
        if isinstance(block, ListItem):
            bulleted.add(key)
        elif isinstance(block, Paragraph) and block.text:
            paragraphs[key] = paragraphs.get(key, 0) + 1
    return {k for k in paragraphs if k not in bulleted}


def records_from_document(doc: WikiDocument, *, card_names: CardNameIndex | None = None,
                          excerpt: bool | None = None) -> Iterator[WikiRecord]:
    """The records of one page revision, whatever form it was read from (see the module docstring)."""
    yield from doc.problems
    title = doc.title
    if not title:
        title = Path(doc.source).stem
        yield IngestProblem(doc.source, doc.line, "warning", "wiki-no-title",
                            f"no page title found; the file name {title!r} is used")
    reasons = (["the file is an excerpt of the page"] if excerpt else []) + (
        [doc.truncated_reason] if doc.truncated and doc.truncated_reason else [])
    blocks = doc.blocks
    content_blocks = [b for b in blocks if not isinstance(b, Note)]
    last_block = content_blocks[-1] if content_blocks and doc.truncated else None
    paths = _section_paths(doc, english=wiki_en.is_english(" ".join(
        b.text for b in blocks[:40] if isinstance(b, (Paragraph, ListItem, Heading)))))

    name_ja, reading, name_en, kind_ja = _lead(blocks, paths)
    for box in (b for b in blocks if isinstance(b, Infobox)):
        if name_ja or not wiki_en.is_english(box.name_en or ""):  # 続唱/Cascade: a Japanese infobox's pair
            name_en = name_en or box.name_en
        kind_ja = kind_ja or (box.kind_ja if box.kind_ja in KINDS else None)
        for row in box.rows:
            kind_ja = kind_ja or (wiki_en.infobox_kind(row[0]) if row else None)
    lead_en = next((b for b in blocks if isinstance(b, Paragraph) and wiki_en.english_lead(b.text)), None)
    lang = "en" if name_ja is None and wiki_en.is_english(" ".join(
        b.text for b in blocks[:40] if isinstance(b, (Paragraph, ListItem, Heading)))) else "ja"
    if lang == "en":
        if name_en and lead_en is not None and wiki_en.title_agrees(doc.title, name_en):
            # an English wiki page: its title is the name its lead gives (not the site's chrome)
            if title.lower() != name_en.lower():
                title = name_en[:1].upper() + name_en[1:]
        elif wiki_en.CHROME_TITLES.match(title or "") and (named := _english_subject(blocks)):
            # the copy starts with the site's name (MTG Wiki / Advertisement): the page is its lead's
            # subject ("Mill is an informal term …"), even when the lead calls it no keyword
            title = name_en = named
            kind_ja = None
        else:
            name_en = kind_ja = None  # the lead names another page (a list page), or there is none
    sets, sets_printed, sets_exact = _sets(blocks, paths)
    definition = "\n".join(b.text for b, p in zip(blocks, paths)
                           if isinstance(b, Paragraph) and p and p[-1].text == "定義") or None
    if lang == "en" and definition is None and lead_en is not None and name_en:
        definition = lead_en.text  # the English wiki defines a keyword in its lead
    note = next((b.text for b in blocks if isinstance(b, Note) and b.kind == "disambiguation"), None)
    redirected = next((b.text or None for b in blocks if isinstance(b, Note) and b.kind == "redirect"), None)
    self_names = {(name_en, name_ja)} if name_en else set()

    quote_start = next((b for b in blocks if isinstance(b, QuoteStart)), None)
    quote_lines = [b for b in blocks if isinstance(b, QuoteLine)]
    quoted = list(_quoted_rules(doc, quote_start, quote_lines, title)) if quote_start else []
    if sum(isinstance(b, QuoteStart) for b in blocks) > 1:
        yield IngestProblem(doc.source, quote_start.line, "warning", "quote-several",
                            "the page quotes the CR more than once; only the first quote is read")
    quoted_rules = [r for r in quoted if isinstance(r, Rule)]
    quoted_release = next((r.release for r in quoted if isinstance(r, Release)), None)
    keyword_rule = _keyword_rule(quoted_rules, name_ja, name_en)
    if quoted_rules and keyword_rule is None and name_en:
        numbered = [r for r in quoted_rules if r.kind == "numbered" and r.title]
        shown = ", ".join(f"{r.number} {r.title}" for r in numbered) or "no numbered rule"
        yield IngestProblem(
            doc.source, quote_start.line, "warning", "quote-other-keyword",
            f"the {title} page ({name_en}) quotes {shown} of 総合ルール {quote_start.version_label}, "
            f"not a rule titled {name_en}; the quote is kept as printed and the page's rulings are not linked to it",
            quoted_release, quote_start.lang)

    yield WikiPage(
        title=title, name_ja=name_ja, reading=reading, name_en=name_en, kind=KINDS.get(kind_ja) if kind_ja else None,
        kind_ja=kind_ja, sets=sets, sets_printed=sets_printed, sets_exact=sets_exact, definition=definition,
        note=note, redirected_from=redirected, quoted_release=quoted_release,
        quoted_version=quote_start.version_label if quote_start else None, quoted_keyword_rule=keyword_rule,
        form=doc.form, revision=doc.revision, partial=bool(reasons), partial_reason="; ".join(reasons) or None,
        source=doc.source, line=doc.line, lang=lang,
    )
    yield from _sections(doc, title, paths)

    position = card_position = 0
    stack: list[tuple[int, int]] = []  # (depth, position) of the open rulings
    seen_mentions: set = set()
    closed = False  # an English Rulings section ends at a line that is no bullet (rendered text loses headings)
    # A Japanese ルール section with no bullet at all lost its marks in rendering (宝物's old revision):
    # its paragraphs are its rulings.
    # a ruling section whose bullets were all lost (a rendered copy that kept no list marks): its paragraphs are
    # its rulings, in English as in Japanese (round 7: an English one was dropped without a warning)
    unmarked = _unmarked_ruling_sections(blocks, paths)
    for block, path in zip(blocks, paths):
        section = path[-1].text if path else None
        ruling_position = None
        if block is last_block:
            block = last_block = _as_ruling_item(block) if path and id(path[-1]) in unmarked else block
        elif path and id(path[-1]) in unmarked:
            block = _as_ruling_item(block)
        if isinstance(block, Heading):
            stack = []
            closed = False
        elif lang == "en" and isinstance(block, Paragraph) and position and any(is_ruling_heading(h.text) for h in path):
            closed = True
        elif isinstance(block, ListItem) and not block.text and any(is_ruling_heading(h.text) for h in path):
            yield IngestProblem(doc.source, block.line, "warning", "wiki-empty-ruling",
                                "a ruling bullet with no text" + (" (the page is cut here)" if block is last_block
                                                                  else "") + "; no ruling is stored for it")
        elif isinstance(block, ListItem) and block.text and not closed and any(is_ruling_heading(h.text) for h in path):
            position += 1
            while stack and stack[-1][0] >= block.depth:
                stack.pop()
            parent = stack[-1][1] if stack else None
            stack.append((block.depth, position))
            ruling_position = position
            yield Ruling(
                title=title, revision=doc.revision, position=position, depth=block.depth, parent=parent,
                section=section, section_path=tuple(h.text for h in path), text=block.text,
                is_example=bool(_EXAMPLE.match(block.text)),
                cited=tuple(dict.fromkeys(c.number for c in find_citations(block.text))),
                markup=block.markup, truncated=block is last_block, source=doc.source, line=block.line,
            )
        elif isinstance(block, CardBox):
            card_position += 1
            yield from _card_block(doc, title, block, card_position, block is last_block)
        if isinstance(block, (Paragraph, ListItem)):
            for name_en_m, name_ja_m, printed, how in _mentions(block, card_names, self_names):
                if (block.line, name_en_m, name_ja_m) not in seen_mentions:
                    seen_mentions.add((block.line, name_en_m, name_ja_m))
                    yield CardMention(title, doc.revision, name_en_m, name_ja_m, printed, how, ruling_position,
                                      section, None if card_names is None else True, doc.source, block.line)
    for line in quote_lines:
        for name_en_m, name_ja_m, printed, how in _mentions_in_text(line.text, card_names, self_names):
            if how == "《》" and (line.line, name_en_m, name_ja_m) not in seen_mentions:
                seen_mentions.add((line.line, name_en_m, name_ja_m))
                yield CardMention(title, doc.revision, name_en_m, name_ja_m, printed, how, None, QUOTE_SECTION,
                                  None if card_names is None else True, doc.source, line.line)
    yield from quoted
