"""MediaWiki wikitext of an MTG Wiki page → a :class:`WikiDocument`, walking mwparserfromhell's tree.

The page is parsed once with :func:`mwparserfromhell.parse`; its top-level
nodes are walked in order and grouped into lines the way MediaWiki does:

- ``Heading`` nodes are headings, with their level;
- a line starting with ``*`` / ``#`` tags (``li``) is a list item whose depth
  is the number of marks; its text is ``strip_code()`` of the rest of the line,
  so ``[[公開する|公開され]]ている`` reads ``公開されている`` as the rendered page
  does, and its links are kept for card mentions;
- block templates: ``{{#card:Name}}`` (a card box known only by English name),
  ``{{カードテキスト|カード名=…|コスト=…|タイプ=…|カードテキスト=…|PT=…}}`` (a full
  card box), ``{{情報ボックス/…}}`` (name, kind, sets), ``{{Otheruses|…}}``
  (disambiguation) and ``{{#cr:…}}`` (the CR quote, whose rules the wikitext
  does not contain);
- a ``{| … |}`` table with a ``登場セット`` header cell gives the sets;
- comments are skipped: a card template commented out is not on the page.

Every block carries the line it starts on; ``line_map`` maps lines of the
wikitext to lines of the file it was rebuilt from (a diff view).

>>> doc = parse_wikitext("'''発見'''/''Discover''は[[キーワード処理]]の一種。\\n==ルール==\\n*A [[X|y]]。\\n**例：B。\\n", "x.wiki")
>>> doc.title, [(type(b).__name__, b.text) for b in doc.blocks]
('発見', [('Paragraph', '発見/Discoverはキーワード処理の一種。'), ('Heading', 'ルール'), ('ListItem', 'A y。'), ('ListItem', '例：B。')])
>>> [b.depth for b in doc.blocks if type(b).__name__ == "ListItem"]
[0, 1]
"""

from __future__ import annotations

import re

import mwparserfromhell
from mwparserfromhell.nodes import Comment, Heading as HeadingNode, Tag, Template, Text
from mwparserfromhell.wikicode import Wikicode

from .records import IngestProblem
from .wiki_records import CardBox, Heading, Infobox, ListItem, Note, Paragraph, WikiDocument

_LIST_MARKS = {"*", "#"}
_KNOWN_TEMPLATES = ("#card:", "カードテキスト", "情報ボックス", "Otheruses", "#cr:")


def _plain(code) -> str:
    """What a reader sees of a piece of wikitext: links as labels, no templates, no bold marks."""
    if not isinstance(code, Wikicode):
        code = mwparserfromhell.parse(code) if isinstance(code, str) else Wikicode(list(code))
    return code.strip_code(normalize=True, collapse=True).strip()


def _links(nodes: list) -> tuple[tuple[str, str], ...]:
    found = []
    for node in Wikicode(nodes).filter_wikilinks():
        target = str(node.title).strip()
        label = _plain(node.text) if node.text is not None else target
        found.append((target, label))
    return tuple(found)


def _split_on_br(value: Wikicode) -> list[str]:
    """The items of a ``[[A]]<br>[[B]]`` list, split on the ``<br>`` tag nodes."""
    items: list[list] = [[]]
    for node in value.nodes:
        if isinstance(node, Tag) and str(node.tag).lower() == "br":
            items.append([])
        else:
            items[-1].append(node)
    return [t for t in (_plain(Wikicode(nodes)) for nodes in items) if t]


def _template_name(template: Template) -> str:
    return str(template.name).strip()


def _param(template: Template, name: str) -> Wikicode | None:
    return template.get(name).value if template.has(name) else None


def _card_box(template: Template, line: int) -> CardBox:
    name = _template_name(template)
    if name.startswith("#card:"):
        return CardBox(name[len("#card:"):].strip(), None, None, None, None, None, line, "#card")
    printed_name = _plain(_param(template, "カード名") or "")
    en, _, ja = printed_name.partition(" / ")
    if not ja and (en.startswith("《") or re.search(r"[\u3040-\u30ff\u3400-\u9fff]", en)):
        en, ja = "", en.strip().strip("《》")  # named only in Japanese: the card list finds the English name
    cost = str(_param(template, "コスト") or "").strip() or None
    type_line = _plain(_param(template, "タイプ") or "") or None
    text_value = _param(template, "カードテキスト")
    text = None
    if text_value is not None:
        text = "\n".join(t for t in (_plain(Wikicode(n)) for n in _split_lines(text_value)) if t) or None
    pt = _plain(_param(template, "PT") or "") or None
    return CardBox(en.strip() or None, ja.strip() or None, cost, type_line, text, pt, line, "カードテキスト")


def _split_lines(value: Wikicode) -> list[list]:
    """Nodes of a multi-line value, one list per line (``<br>`` counts as a line break)."""
    lines: list[list] = [[]]
    for node in value.nodes:
        if isinstance(node, Tag) and str(node.tag).lower() == "br":
            lines.append([])
        elif isinstance(node, Text) and "\n" in node.value:
            parts = node.value.split("\n")
            for k, part in enumerate(parts):
                if k:
                    lines.append([])
                if part:
                    lines[-1].append(Text(part))
        else:
            lines[-1].append(node)
    return lines


def _infobox(template: Template, line: int) -> Infobox:
    kind = _template_name(template).partition("/")[2].strip() or None
    name_en = _plain(_param(template, "英名") or "") or None
    sets_value = _param(template, "登場セット")
    sets = tuple(_split_on_br(sets_value)) if sets_value is not None else ()
    printed = str(sets_value).strip() if sets_value is not None else None
    return Infobox(line, name_en=name_en, kind_ja=kind, sets=sets, sets_printed=printed)


def _table_infobox(table: Tag, line: int) -> Infobox | None:
    """A wiki table whose header cell says 登場セット (the next data cell lists the sets), else its data rows."""
    cells = table.contents.filter_tags(matches=lambda n: str(n.tag) in {"th", "td"})
    for k, cell in enumerate(cells):
        if str(cell.tag) == "th" and "登場セット" in _plain(cell.contents):
            data = next((c for c in cells[k + 1:] if str(c.tag) == "td"), None)
            if data is None:
                return None
            sets = tuple(_split_on_br(data.contents))
            return Infobox(line, sets=sets, sets_printed=str(data.contents).strip())
    rows: list[tuple[str, ...]] = []
    for row in table.contents.filter_tags(recursive=False, matches=lambda n: str(n.tag) == "tr"):
        data = [_plain(c.contents) for c in row.contents.filter_tags(recursive=False, matches=lambda n: str(n.tag) == "td")]
        if data:
            rows.append(tuple(data))
    if not rows:  # a table without row tags: its cells, one row
        data = [_plain(c.contents) for c in cells if str(c.tag) == "td"]
        rows = [tuple(data)] if data else []
    return Infobox(line, rows=tuple(rows)) if rows else None


class _LineBuilder:
    """Collects the nodes of one wikitext line and turns it into a block."""

    def __init__(self):
        self.nodes: list = []
        self.marks = ""
        self.line = 0

    def is_empty(self) -> bool:
        return not self.nodes and not self.marks

    def flush(self, blocks: list) -> None:
        if self.is_empty():
            return
        markup = self.marks + "".join(str(n) for n in self.nodes)
        text = _plain(Wikicode(self.nodes)) if self.nodes else ""
        links = _links(self.nodes) if self.nodes else ()
        if self.marks:
            blocks.append(ListItem(text, len(self.marks) - 1, self.line, ordered=self.marks[-1] == "#",
                                   markup=markup.strip(), links=links))
        elif text:
            blocks.append(Paragraph(text, self.line, markup=markup.strip(), links=links))
        self.nodes, self.marks = [], ""


def _title_from_lead(code: Wikicode) -> str | None:
    """The page title as the lead prints it in bold (``'''発見'''``), else a level-1 heading ``探す/Search``."""
    for node in code.nodes:
        if isinstance(node, HeadingNode):
            if node.level == 1:
                return _plain(node.title).split("/")[0].strip() or None
            return None
        if isinstance(node, Tag) and node.wiki_markup == "'''":
            return _plain(node.contents) or None
    return None


def _truncation(text: str) -> str | None:
    """Why the wikitext looks cut off at its end, or None."""
    for opening, closing, what in (("{{", "}}", "template"), ("[[", "]]", "link"), ("<!--", "-->", "comment")):
        if text.count(opening) > text.count(closing):
            return f"an unclosed {what} ({opening}) at the end"
    return None


_PARAM_LINE = re.compile(r"^\|\s*(?P<name>[^|=\[\]{}<>]+?)\s*=")


def _reopen_cut_template(text: str) -> tuple[str, str | None]:
    """A fragment that starts inside a template (a diff shown from line 3 of a page: ``|英名=Disguise``
    … ``}}``) gets its opening back, on its first line so that line numbers stay: the infobox
    (情報ボックス), or the card box (カードテキスト) when a parameter is カード名. Returns the text and
    the template name reopened, or None."""
    lines = text.split("\n")
    names = []
    for k, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped == "}}":
            if not names:
                return text, None
            template = "カードテキスト" if "カード名" in names else "情報ボックス"
            first = next(j for j, line in enumerate(lines) if line.strip())
            lines[first] = "{{" + template + lines[first]
            return "\n".join(lines), template
        m = _PARAM_LINE.match(stripped)
        if m is None:
            if names and not stripped.startswith(("{{", "|")):
                continue  # a parameter's value going on over lines
            return text, None
        names.append(m["name"])
    return text, None


def parse_wikitext(text: str, source: str, *, first_line: int = 1, line_map: list[int] | None = None,
                   title: str | None = None, revision: str | None = None, form: str = "wikitext") -> WikiDocument:
    """Read wikitext into a :class:`WikiDocument` (see the module docstring)."""
    text, reopened = _reopen_cut_template(text)
    code = mwparserfromhell.parse(text)
    doc = WikiDocument(title=title or _title_from_lead(code), form=form, source=source, line=first_line,
                       revision=revision, levelled=True)

    def line_of(offset: int) -> int:
        index = text.count("\n", 0, offset)
        if line_map is not None:
            return line_map[min(index, len(line_map) - 1)] if line_map else first_line
        return first_line + index

    blocks: list = []
    current = _LineBuilder()
    offset = 0
    nodes = code.nodes
    for k, node in enumerate(nodes):
        raw = str(node)
        at = offset
        offset += len(raw)
        if isinstance(node, Text):
            pieces = node.value.split("\n")
            cursor = at
            for k, piece in enumerate(pieces):
                if k:
                    current.flush(blocks)
                if piece:
                    if current.is_empty():
                        current.line = line_of(cursor)
                        stripped = piece.strip()
                        if stripped.startswith("__") and stripped.endswith("__"):
                            cursor += len(piece) + 1
                            continue  # a magic word such as __NOTOC__
                    current.nodes.append(Text(piece))
                cursor += len(piece) + 1
            continue
        if isinstance(node, Comment):
            continue
        if isinstance(node, HeadingNode):
            current.flush(blocks)
            blocks.append(Heading(_plain(node.title), node.level, line_of(at)))
            continue
        if isinstance(node, Tag) and node.wiki_markup in _LIST_MARKS and not current.nodes:
            if current.is_empty():
                current.line = line_of(at)
            current.marks += node.wiki_markup
            continue
        if isinstance(node, Tag) and node.wiki_markup in {";", ":"} and not current.nodes:
            if current.is_empty():
                current.line = line_of(at)
            continue  # definition-list indentation: the text is a paragraph
        if isinstance(node, Tag) and str(node.tag) == "table":
            current.flush(blocks)
            box = _table_infobox(node, line_of(at))
            if box:
                blocks.append(box)
            else:
                doc.problems.append(IngestProblem(source, line_of(at), "warning", "wiki-table-unread",
                                                  "a table with no data rows; its text is kept as a paragraph"))
                text_of = _plain(node.contents)
                if text_of:
                    blocks.append(Paragraph(text_of, line_of(at), markup=raw, links=()))
            continue
        if isinstance(node, Template) and current.is_empty() or (
                isinstance(node, Template) and _template_name(node).startswith(_KNOWN_TEMPLATES)):
            name = _template_name(node)
            line = line_of(at)
            if name.startswith(("#card:", "カードテキスト")):
                current.flush(blocks)
                blocks.append(_card_box(node, line))
                continue
            if name.startswith("情報ボックス"):
                current.flush(blocks)
                blocks.append(_infobox(node, line))
                continue
            if name.startswith("Otheruses"):
                current.flush(blocks)
                blocks.append(Note("disambiguation", "|".join(_plain(p.value) for p in node.params), line))
                continue
            if name.startswith("#cr:"):
                current.flush(blocks)
                blocks.append(Note("cr-template", raw, line))
                continue
            alone = k + 1 == len(nodes) or (isinstance(nodes[k + 1], Text) and nodes[k + 1].value.startswith("\n"))
            if current.is_empty() and alone:
                doc.problems.append(IngestProblem(
                    source, line, "warning", "wiki-unknown-template",
                    f"template {{{{{name}}}}} on a line of its own is not one we read; it is kept as its markup"))
                blocks.append(Paragraph(raw, line, markup=raw, links=()))
                continue
        if current.is_empty():
            current.line = line_of(at)
        current.nodes.append(node)
    current.flush(blocks)
    doc.blocks = blocks
    reason = _truncation(text)
    if reason:
        doc.truncated, doc.truncated_reason = True, reason
    elif form == "wikitext":
        from .wiki_rendered import check_truncation

        check_truncation(doc)  # a page cut off mid-sentence, templates all closed
    return doc


def is_wikitext(text: str) -> bool:
    """True when ``text`` looks like wikitext rather than rendered text.

    >>> is_wikitext("'''発見'''/''Discover''は[[キーワード処理]]の一種。\\n==定義==\\n")
    True
    >>> is_wikitext("発見\\n\\n発見/Discoverはキーワード処理の一種。\\n")
    False
    """
    head = text[:4000]
    signals = (
        len(re.findall(r"^=+[^=\n]+=+\s*$", head, re.M)) >= 1,
        "[[" in head and "]]" in head,
        "'''" in head,
        bool(re.search(r"\{\{[^{}\n]*(?:\||\}\})", head)),
        bool(re.search(r"^\*+\S", head, re.M)),
    )
    return sum(signals) >= 2
