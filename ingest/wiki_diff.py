"""MediaWiki diff and edit views (two columns of wikitext, flattened to text) → two revisions.

A diff view is a table of rows: a context row shows one line on both sides,
a deleted row only on the left (the older revision, or 最新版 in an edit view),
an added row only on the right (the newer revision, or 編集中の文章), a changed
row one line on each side. Copied as text, the table comes out in one of
three shapes, all handled here:

- **marked cells** (``| − | old``, ``| + | new |``, ``| | + | new |``,
  ``| | same | | same |``); a changed row may be split over two lines, and a
  deleted row ends with a line ``| |`` (the empty right cell);
- **trailing pipes** (``old | new | ||`` context, ``− | old | + | new |``,
  ``+ | new | ||``);
- **interleaved** (one cell per line: an added line follows a ``+`` line, a
  context line comes twice after a lone space, a deleted line has no mark).

Rows are read into :class:`DiffRow`\\ s; each side's lines, in order, rebuild
that revision's wikitext (:func:`rebuild_revisions`), which
:mod:`ingest.wiki_wikitext` then parses like any page.

A revision is **whole** only when the table shows all of it: one hunk
starting at line 1 (``1行：``), and fewer than two context rows after the last
change (MediaWiki shows two lines of context after a change, so fewer means
the text ended there). Anything else is stored as partial, with the reason.

A diff view may be followed by the rendered newer revision
(``…時点における最新版``); that part is read as rendered text.

>>> rows, _ = read_rows(["| 1行： |", "1行： |", "| − | ==定義==", "| + | ==意味== |", "| | a | | a |"], "x.txt")
>>> [(r.kind, r.old, r.new) for r in rows]
[('changed', '==定義==', '==意味=='), ('context', 'a', 'a')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .records import IngestProblem

# Hunk headers: "| 1行： |" + "1行： |", "1行: | 1行: | ||", "1行: 1行:"
_HUNK_MARKED = re.compile(r"^\|\s*(?P<n>\d+)行[：:]\s*\|\s*$")
_HUNK_MARKED_RIGHT = re.compile(r"^(?P<n>\d+)行[：:]\s*\|\s*$")
# the two-column table flattened with "|" after each cell: "21行: | 21行: |", and the English wiki's
# "Line 37: | Line 37: | ||" (round 8: an English view in this form was read as no diff at all)
_HUNK_PIPES = re.compile(r"^(?:(?P<l>\d+)行[：:]\s*\|\s*(?P<r>\d+)行[：:]|Line (?P<le>\d+):\s*\|\s*Line (?P<re>\d+):)"
                         r"\s*\|[\s|]*$")
_HUNK_PLAIN = re.compile(r"^(?:(?P<l>\d+)行[：:]\s*(?P<r>\d+)行[：:]|Line (?P<le>\d+):\s*Line (?P<re>\d+):)\s*$")
# an edit summary that is a section autocomment, as views print it: "(ルール)", "(→ルール)", "(→Rulings: typo)",
# "/* ルール */"; only a short name counts (a sentence in parentheses is a summary, no section). MediaWiki prints
# a minor or bot edit's mark before it: "m (→Ruling: added a bullet)" (mtg.wiki's Ward, diff=next&oldid=362331)
_SUMMARY_SECTION = re.compile(r"^(?:(?:m|b|細|ボ)\s*)?(?:[(（]\s*(?:→|←)?\u200e?\s*(?P<s>[^()（）→:：]{1,12}?)\s*(?:[:：][^()（）]*)?[)）]"
                              r"|/\*\s*(?P<s2>[^*]{1,12}?)\s*\*/)[\s|]*$")
_RENDERED_START = re.compile(r"^(?:\S.*時点における(?:最新)?版|(?:Latest revision|Revision) as of .+)\s*$")


@dataclass(frozen=True)
class DiffRow:
    """One row of the diff table: ``kind`` is context, added, deleted or changed."""

    kind: str
    old: str | None
    new: str | None
    line: int
    hunk: int


@dataclass
class DiffView:
    """What a diff view holds: title, column labels, rows, and where a rendered revision follows."""

    title: str | None
    left_label: str
    right_label: str
    rows: list[DiffRow]
    hunk_starts: list[tuple[int, int]]  # (left line, right line) of each hunk
    flavour: str
    rendered_from: int | None  # index (0-based) of the first line of a rendered revision after the table
    rendered_label: str | None
    truncated: bool  # the last row is cut (no closing pipe)
    problems: list = field(default_factory=list)
    # what the header holds in parentheses ("(版間での差分)", an edit summary: "(ルール)", "(→Rulings)",
    # "/* ルール */", MediaWiki's section autocomment) and its line: the section a hunk part-way through is in
    summary_sections: list[tuple[str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Revision:
    """One side of a diff, rebuilt: its wikitext, the file line of each of its lines, and completeness."""

    label: str
    text: str
    line_map: list[int]
    whole: bool
    partial_reason: str | None


def is_diff_view(text: str) -> bool:
    """True when ``text`` is a flattened diff or edit view (it has ``N行:`` hunk headers).

    >>> is_diff_view("| 1行： |\\n1行： |\\n| | a | | a |\\n"), is_diff_view("発見\\n\\n本文\\n")
    (True, False)
    """
    for line in text.split("\n")[:60]:
        line = line.strip()
        if _HUNK_MARKED.match(line) or _HUNK_PIPES.match(line) or _HUNK_PLAIN.match(line):
            return True
    return False


def _split_context(body: str, separator: str = " | ") -> tuple[str, str] | None:
    """``L | R`` where L == R (a context row), split in the middle; None if the halves differ.

    The sides may themselves contain ``|`` (``|名前=発掘 | |名前=発掘``), so the
    split is where both halves are equal, not at the first separator.

    >>> _split_context("|名前=発掘 | |名前=発掘")
    ('|名前=発掘', '|名前=発掘')
    """
    if body.strip() == "":
        return "", ""
    n, width = len(body), len(separator)
    if (n - width) % 2 == 0:
        half = (n - width) // 2
        if body[half: half + width] == separator and body[:half] == body[half + width:]:
            return body[:half], body[half + width:]
    return None


def _rows_marked(lines: list[tuple[int, str]], hunk: int, problems: list, source: str) -> list[DiffRow]:
    rows: list[DiffRow] = []
    i = 0
    while i < len(lines):
        number, raw = lines[i]
        line = raw.rstrip()
        i += 1
        if not line.strip():
            continue
        if re.match(r"^\|\s*[−\-–]\s*\|", line):
            body = re.sub(r"^\|\s*[−\-–]\s*\|\s?", "", line, count=1)
            if " | + | " not in body and not body.endswith(" |") and i < len(lines):
                following = lines[i][1].rstrip()
                if following.strip() == "| |" or following.strip() == "|":
                    i += 1
                    rows.append(DiffRow("deleted", body, None, number, hunk))
                    continue
                if following.startswith("| + |"):
                    i += 1
                    new = re.sub(r"^\|\s*\+\s*\|\s?", "", following)
                    rows.append(DiffRow("changed", body, re.sub(r"\s?\|$", "", new), number, hunk))
                    continue
            if " | + | " in body:
                old, new = body.split(" | + | ", 1)
                rows.append(DiffRow("changed", old, re.sub(r"\s?\|$", "", new), number, hunk))
            elif body.strip() in {"", "|"}:
                rows.append(DiffRow("deleted", "", None, number, hunk))
            else:
                rows.append(DiffRow("deleted", re.sub(r"\s?\|\s*\|?$", "", body), None, number, hunk))
            continue
        if re.match(r"^\|\s*\|\s*\+\s*\|", line):
            body = re.sub(r"^\|\s*\|\s*\+\s*\|\s?", "", line)
            rows.append(DiffRow("added", None, re.sub(r"\s?\|$", "", body) if body.strip() != "|" else "", number, hunk))
            continue
        if line.strip() in {"| | | | |", "| | |"}:
            rows.append(DiffRow("context", "", "", number, hunk))
            continue
        if line.startswith("| | ") and line.endswith(" |"):
            pair = _split_context(line[4:-2], " | | ")
            if pair is None:
                problems.append(IngestProblem(source, number, "warning", "diff-context-sides-differ",
                                              "a context row whose two sides differ; the left side is used for both"))
                left = line[4:-2].split(" | | ")[0]
                pair = (left, left)
            rows.append(DiffRow("context", pair[0], pair[1], number, hunk))
            continue
        problems.append(IngestProblem(source, number, "warning", "diff-row-unreadable",
                                      f"diff row not understood, skipped: {line[:60]!r}"))
    return rows


def _rows_pipes(lines: list[tuple[int, str]], hunk: int, problems: list, source: str) -> tuple[list[DiffRow], bool]:
    rows: list[DiffRow] = []
    truncated = False
    for k, (number, raw) in enumerate(lines):
        line = raw.rstrip()
        if not line.strip() or re.fullmatch(r"[\s|]+", line):
            continue
        last = k == len(lines) - 1
        m = re.match(r"^[−\-–]\s*\|\s?(?P<body>.*)$", line)
        if m:
            body = m.group("body")
            if body.startswith("+ | ") or body.strip() == "+ |":
                new = re.sub(r"\s*\|\s*\|?\s*$", "", body[4:])
                rows.append(DiffRow("changed", "", new, number, hunk))
            elif " | + | " in body:
                old, new = body.split(" | + | ", 1)
                rows.append(DiffRow("changed", old, re.sub(r"\s?\|[\s|]*$", "", new), number, hunk))
            else:
                rows.append(DiffRow("deleted", re.sub(r"\s?\|[\s|]*$", "", body), None, number, hunk))
            truncated = last and not line.endswith("|")
            continue
        m = re.match(r"^\+\s*\|\s?(?P<body>.*)$", line)
        if m:
            body = m.group("body")
            rows.append(DiffRow("added", None, "" if re.fullmatch(r"[\s|]*", body) else re.sub(r"\s?\|[\s|]*$", "", body),
                                number, hunk))
            truncated = last and not line.endswith("|")
            continue
        body = re.sub(r"\s?\|\s*\|\|$", "", line)
        pair = _split_context(body)
        if pair is None:
            if last:
                truncated = True
                rows.append(DiffRow("context", body, body, number, hunk))
                continue
            problems.append(IngestProblem(source, number, "warning", "diff-row-unreadable",
                                          f"diff row not understood, skipped: {line[:60]!r}"))
            continue
        rows.append(DiffRow("context", pair[0], pair[1], number, hunk))
    return rows, truncated


# The lone cell before a context line: a space, or a no-break space where the browser copied &nbsp;.
_LONE_SPACE = frozenset({" ", "\u00a0"})


def _rows_interleaved(lines: list[tuple[int, str]], hunk: int) -> list[DiffRow]:
    rows: list[DiffRow] = []
    i = 0
    while i < len(lines):
        number, raw = lines[i]
        if raw.strip() == "+":
            if i + 1 < len(lines):
                added = lines[i + 1][1]
                rows.append(DiffRow("added", None, added if added.strip() else "", lines[i + 1][0], hunk))
            i += 2
        elif raw in _LONE_SPACE and i + 1 < len(lines) and lines[i + 1][1].strip() not in {"+", ""}:
            content = lines[i + 1][1]
            rows.append(DiffRow("context", content, content, lines[i + 1][0], hunk))
            twice = i + 3 < len(lines) and lines[i + 2][1] in _LONE_SPACE and lines[i + 3][1] == content
            i += 4 if twice else 2
        elif not raw.strip():
            rows.append(DiffRow("context", "", "", number, hunk))
            i += 1
        else:
            rows.append(DiffRow("deleted", raw, None, number, hunk))
            i += 1
    return rows


def read_rows(lines: list[str], source: str, first_line: int = 1) -> tuple[list[DiffRow], DiffView]:
    """Read the rows of a flattened diff view (the whole file's lines)."""
    lines = list(lines)
    while lines and not lines[-1].strip():
        lines.pop()  # the file's final newline is not an empty row
    numbered = [(first_line + k, raw) for k, raw in enumerate(lines)]
    problems: list = []
    title = None
    left_label, right_label = "left", "right"
    flavour = None
    hunk_starts: list[tuple[int, int]] = []
    segments: list[list[tuple[int, str]]] = []
    rendered_from = rendered_label = None
    summary_sections: list[tuple[str, int]] = []
    k = 0
    while k < len(numbered):
        number, raw = numbered[k]
        line = raw.strip()
        if flavour is None:
            m_marked = _HUNK_MARKED.match(line)
            if m_marked and k + 1 < len(numbered) and _HUNK_MARKED_RIGHT.match(numbered[k + 1][1].strip()):
                flavour = "marked cells"
                hunk_starts.append((int(m_marked["n"]), int(_HUNK_MARKED_RIGHT.match(numbered[k + 1][1].strip())["n"])))
                segments.append([])
                k += 2
                continue
            m = _HUNK_PIPES.match(line) or _HUNK_PLAIN.match(line)
            if m:
                flavour = "trailing pipes" if _HUNK_PIPES.match(line) else "interleaved"
                hunk_starts.append((int(m["l"] or m["le"]), int(m["r"] or m["re"])))
                segments.append([])
                k += 1
                continue
            # the header: title, column labels
            labels = re.match(r"^\|?\s*(最新版)\s*\|?\s*(編集中の文章)?\s*\|?$", line)
            if labels:
                left_label = labels.group(1)
                if labels.group(2):
                    right_label = labels.group(2)
                elif k + 1 < len(numbered) and numbered[k + 1][1].strip().strip("| ") == "編集中の文章":
                    right_label = "編集中の文章"
                    k += 1
            elif line.startswith("最新版") and "編集中の文章" in line:
                left_label, right_label = "最新版", "編集中の文章"
            elif title is not None and (m_sum := _SUMMARY_SECTION.match(line)):
                summary_sections.append(((m_sum["s"] or m_sum["s2"]).strip(), number))
            elif title is None and line and not line.startswith(("(", "（", "提供", "移動", "|")):
                m_edit = re.match(r"^「(?P<t>.+)」を編集中$", line)
                title = m_edit.group("t") if m_edit else re.sub(r": Difference between revisions$", "", line)
            k += 1
            continue
        if flavour == "marked cells" and _HUNK_MARKED.match(line) and k + 1 < len(numbered) \
                and _HUNK_MARKED_RIGHT.match(numbered[k + 1][1].strip()):
            hunk_starts.append((int(_HUNK_MARKED.match(line)["n"]),
                                int(_HUNK_MARKED_RIGHT.match(numbered[k + 1][1].strip())["n"])))
            segments.append([])
            k += 2
            continue
        m = (_HUNK_PIPES if flavour == "trailing pipes" else _HUNK_PLAIN).match(line)
        if flavour != "marked cells" and m:
            hunk_starts.append((int(m["l"] or m["le"]) if "le" in m.groupdict() else int(m["l"]),
                                int(m["r"] or m["re"]) if "re" in m.groupdict() else int(m["r"])))
            segments.append([])
            k += 1
            continue
        if _RENDERED_START.match(line):
            rendered_from, rendered_label = k, line
            break
        segments[-1].append((number, raw))
        k += 1
    rows: list[DiffRow] = []
    truncated = False
    for hunk, segment in enumerate(segments):
        if flavour == "marked cells":
            rows += _rows_marked(segment, hunk, problems, source)
        elif flavour == "trailing pipes":
            found, cut = _rows_pipes(segment, hunk, problems, source)
            rows += found
            truncated = truncated or (cut and hunk == len(segments) - 1)
        else:
            rows += _rows_interleaved(segment, hunk)
    view = DiffView(title, left_label, right_label, rows, hunk_starts, flavour or "none",
                    rendered_from, rendered_label, truncated, problems, summary_sections)
    return rows, view


def rebuild_revisions(view: DiffView) -> tuple[Revision, Revision]:
    """The left and right revisions' wikitext, with line maps and completeness (see the module docstring)."""
    sides = []
    for side, label in (("old", view.left_label), ("new", view.right_label)):
        lines: list[str] = []
        line_map: list[int] = []
        for row in view.rows:
            value = getattr(row, side)
            if value is not None:
                lines.append(value)
                line_map.append(row.line)
        reasons = []
        if not view.hunk_starts:
            reasons.append("no diff rows")
        else:
            first = view.hunk_starts[0][0 if side == "old" else 1]
            if first != 1:
                reasons.append(f"the diff starts at line {first}; lines before it are not shown")
            if len(view.hunk_starts) > 1:
                reasons.append(f"the diff shows {len(view.hunk_starts)} separate parts; lines between them are not shown")
        trailing = 0
        for row in reversed(view.rows):
            if row.kind != "context":
                break
            trailing += 1
        if trailing >= 2:
            reasons.append(f"{trailing} unchanged lines end the diff; the page may go on after them")
        if view.truncated:
            reasons.append("the last row is cut off")
        sides.append(Revision(label, "\n".join(lines), line_map, not reasons, "; ".join(reasons) or None))
    return sides[0], sides[1]
