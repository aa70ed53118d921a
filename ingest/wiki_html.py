"""A saved MTG Wiki page (MediaWiki HTML) → a :class:`WikiDocument`, with BeautifulSoup CSS selectors.

MediaWiki's markup says what everything is, so nothing is guessed:

- the title is ``#firstHeading``; the page body is ``.mw-parser-output``
  (older skins: ``#mw-content-text``); the revision line is
  ``#mw-revision-info`` or ``#contentSub``; a redirect is ``.mw-redirectedfrom``;
- headings are ``h2``–``h6`` (their ``.mw-headline``), with their level; the
  edit links (``.mw-editsection``), the table of contents (``#toc``) and
  scripts are removed first;
- ``ul``/``ol`` nest: an ``li``'s depth is the number of lists around it, its
  text is its own text without the nested lists, its links are its ``a``
  elements (``title`` is the linked page, ``木苺の使い魔/Bramble Familiar``);
- a card box is the ``div.card`` that ``{{カードテキスト}}`` renders: ``b`` holds
  the name line, the text up to ``br`` the cost, then the type line, ``p`` the
  card text and what follows the P/T;
- a table whose header cell says 登場セット lists the sets, one per ``br``;
- a paragraph ``引用：総合ルール <version>`` starts the quoted CR, whose rules are
  the items of the lists that follow it.

A document that does not end with ``</html>`` was cut off and is marked truncated.

>>> doc = parse_html('<h1 id="firstHeading">発見</h1><div class="mw-parser-output"><h2><span class="mw-headline">ルール</span>'
...                  '<span class="mw-editsection">[編集]</span></h2><ul><li>A<ul><li>例：B</li></ul></li></ul></div></html>', "x.html")
>>> doc.title, [(type(b).__name__, b.text) for b in doc.blocks]
('発見', [('Heading', 'ルール'), ('ListItem', 'A'), ('ListItem', '例：B')])
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Comment, NavigableString, Tag

from .records import IngestProblem
from .wiki_records import CardBox, Heading, Infobox, ListItem, Note, Paragraph, QuoteLine, QuoteStart, WikiDocument

_QUOTE_START = re.compile(r"^引用[：:]\s*総合ルール\s*(?P<version>\S+)\s*$")
_DISAMBIGUATION = re.compile(r"^この項目では.+")
_REMOVE = ".mw-editsection, #toc, .toc, script, style, .mw-empty-elt, sup.reference, .printfooter, #catlinks"


def _pieces(node) -> list[str]:
    if isinstance(node, Comment):
        return []
    if isinstance(node, NavigableString):
        return [str(node)]
    out: list[str] = []
    for piece in node.descendants:
        if isinstance(piece, Tag):
            if piece.name == "br":
                out.append("\n")
        elif not isinstance(piece, Comment) and piece.parent.name not in {"script", "style"}:
            out.append(str(piece))
    return out


def _text(*nodes) -> str:
    """The text of nodes as a reader sees it: ``br`` as a line break, spaces collapsed within lines."""
    text = "".join(p for node in nodes for p in _pieces(node))
    return "\n".join(re.sub(r"[ \t\r\n]+", " ", line).strip() for line in text.split("\n")).strip()


def _own_nodes(item: Tag) -> list:
    """An ``li``'s children without its nested lists."""
    return [c for c in item.children if not (isinstance(c, Tag) and c.name in {"ul", "ol"})]


def _links(nodes) -> tuple[tuple[str, str], ...]:
    found = []
    for node in nodes:
        anchors = [node] if isinstance(node, Tag) and node.name == "a" else (
            node.select("a") if isinstance(node, Tag) else [])
        for a in anchors:
            target = a.get("title") or _text(a)
            found.append((target, _text(a)))
    return tuple(found)


def _card_box(div: Tag) -> CardBox:
    """A ``div.card``: name (``b``), cost, ``br``, type line, text (``p``), P/T."""
    name = cost = type_line = text = pt = None
    state = "name"
    tail: list[str] = []
    for child in div.children:
        if isinstance(child, Tag) and child.name == "p" and "float" in (child.get("style") or ""):
            continue  # the legality mark ("*") floated to the right
        if isinstance(child, Tag) and child.name == "b" and state == "name":
            name = _text(child)
            state = "cost"
            continue
        if isinstance(child, Tag) and child.name == "br":
            state = "type" if state in {"cost", "name"} else state
            continue
        if isinstance(child, Tag) and child.name == "p":
            text = _text(child) or None
            state = "pt"
            continue
        value = _text(child) if isinstance(child, Tag) else str(child).strip()
        if not value:
            continue
        if state == "cost":
            cost = (cost or "") + value
        elif state == "type":
            type_line = ((type_line or "") + " " + value).strip()
        elif state == "pt":
            tail.append(value)
    if tail:
        pt = " ".join(tail).strip() or None
    en, _, ja = (name or "").partition(" / ")
    if not ja and (en.startswith("《") or re.search(r"[\u3040-\u30ff\u3400-\u9fff]", en)):
        en, ja = "", en.strip().strip("《》")  # named only in Japanese
    return CardBox(en.strip() or None, ja.strip() or None, cost.strip() if cost else None, type_line, text, pt,
                   div.sourceline or 0, "html")


def _sets_table(table: Tag) -> Infobox | None:
    """A table whose header cell says 登場セット (its first data cell lists the sets), else its data rows."""
    for th in table.select("th"):
        if "登場セット" in _text(th):
            cells = table.select("td")
            if not cells:
                return None
            sets = [s.strip() for s in _text(cells[0]).split("\n") if s.strip()]
            return Infobox(table.sourceline or 0, sets=tuple(sets), sets_printed=" / ".join(sets))
    rows = tuple(tuple(_text(td) for td in tr.find_all("td", recursive=False)) for tr in table.select("tr"))
    rows = tuple(r for r in rows if r)
    return Infobox(table.sourceline or 0, rows=rows) if rows else None


class _Walker:
    def __init__(self, doc: WikiDocument):
        self.doc = doc
        self.blocks: list = []
        self.in_quote = False

    def walk(self, parent: Tag) -> None:
        for child in parent.children:
            if isinstance(child, Tag):
                self.element(child)
            elif isinstance(child, Comment):
                continue
            elif str(child).strip():
                text = re.sub(r"\s+", " ", str(child)).strip()
                self.paragraph(text, (), getattr(parent, "sourceline", 0) or 0)

    def paragraph(self, text: str, links, line: int) -> None:
        if not text:
            return
        m = _QUOTE_START.match(text)
        if m:
            self.blocks.append(QuoteStart(m.group("version"), line))
            self.in_quote = True
        elif _DISAMBIGUATION.match(text):
            self.blocks.append(Note("disambiguation", text, line))
        elif self.in_quote:
            self.blocks.append(QuoteLine(text, line))
        else:
            self.blocks.append(Paragraph(text, line, links=tuple(links)))

    def list_items(self, lst: Tag, depth: int) -> None:
        ordered = lst.name == "ol"
        for item in lst.find_all("li", recursive=False):
            own = _own_nodes(item)
            text = _text(*own)
            line = item.sourceline or 0
            if self.in_quote:
                if text:
                    self.blocks.append(QuoteLine(text, line))
            elif text:
                self.blocks.append(ListItem(text, depth, line, ordered=ordered, markup=None, links=_links(own)))
            for nested in item.find_all(["ul", "ol"], recursive=False):
                self.list_items(nested, depth + 1)

    def element(self, el: Tag) -> None:
        name = el.name
        if re.fullmatch(r"h[1-6]", name):
            headline = el.select_one(".mw-headline")
            self.blocks.append(Heading(_text(headline or el), int(name[1]), el.sourceline or 0))
            self.in_quote = False
        elif name == "p":
            self.paragraph(_text(el), _links(el.children), el.sourceline or 0)
        elif name in {"ul", "ol"}:
            self.list_items(el, 0)
        elif name == "dl":
            for item in el.find_all(["dt", "dd"]):
                self.paragraph(_text(item), _links(item.children), item.sourceline or 0)
        elif name == "div" and "card" in (el.get("class") or []):
            self.blocks.append(_card_box(el))
        elif name == "table":
            box = _sets_table(el)
            if box:
                self.blocks.append(box)
            elif _text(el):
                self.doc.problems.append(IngestProblem(
                    self.doc.source, el.sourceline, "warning", "wiki-table-unread",
                    "a table with no data rows; its text is kept as a paragraph"))
                self.paragraph(_text(el), _links([el]), el.sourceline or 0)
        elif name in {"div", "section", "center", "blockquote", "span"}:
            self.walk(el)
        elif name in {"hr", "br", "img", "a", "b", "i", "small"}:
            text = _text(el)
            if text and name in {"a", "b", "i", "small"}:
                self.paragraph(text, _links([el]), el.sourceline or 0)
        else:
            self.doc.problems.append(IngestProblem(
                self.doc.source, el.sourceline, "warning", "html-unknown-element",
                f"<{name}> in the page body is not one we read; its text is kept as a paragraph"))
            self.paragraph(_text(el), _links([el]), el.sourceline or 0)


def parse_html(text: str, source: str) -> WikiDocument:
    """Read a saved MediaWiki page into a :class:`WikiDocument` (see the module docstring)."""
    soup = BeautifulSoup(text, "html.parser")
    heading = soup.select_one("#firstHeading")
    title = _text(heading) if heading else None
    if title:
        m = re.match(r"^「(?P<t>.+)」を編集中$", title)
        title = m.group("t") if m else title
    doc = WikiDocument(title=title, form="html", source=source,
                       line=(heading.sourceline if heading else 1) or 1, levelled=True)
    revision = soup.select_one("#mw-revision-info") or soup.select_one("#contentSub")
    if revision and "時点における" in _text(revision):
        doc.revision = _text(revision)
    redirect = soup.select_one(".mw-redirectedfrom")
    body = soup.select_one(".mw-parser-output") or soup.select_one("#mw-content-text")
    if body is None:
        doc.problems.append(IngestProblem(source, None, "error", "html-no-body",
                                          "no .mw-parser-output or #mw-content-text: not a MediaWiki page"))
        doc.truncated, doc.truncated_reason = True, "no page body"
        return doc
    for junk in body.select(_REMOVE):
        junk.decompose()
    walker = _Walker(doc)
    if redirect:
        anchor = redirect.select_one("a")
        walker.blocks.append(Note("redirect", _text(anchor) if anchor else _text(redirect), redirect.sourceline or 0))
    walker.walk(body)
    doc.blocks = walker.blocks
    if not re.search(r"</html>\s*$", text, re.I):
        doc.truncated, doc.truncated_reason = True, "the HTML ends before </html>"
    return doc
