"""Page forms of the MTG Wiki the corpus does not have (round 9), found in stored public copies of real pages.

Each case keeps the form of a real page's view (header lines, edit summary, hunk header, section names,
list marks) with short rulings written here in other words (the stored copies may not be copied). The
pages: mtg.wiki's Ward (702.21), a keyword the corpus has no English page of, in its ``diff=next`` and
``diff=prev`` views (https://mtg.wiki/index.php?diff=next&oldid=362331&title=Ward,
https://mtg.wiki/index.php?diff=next&oldid=362327&title=Ward) and the rendered revision they end with.

- A ``diff=next`` view whose hunk starts inside the Ruling section, named only by the edit summary of a
  minor edit, ``m (→Ruling: added … bullet)``: before round 9 the ``m`` (MediaWiki's minor-edit mark)
  hid the summary, and the section's rulings were three ``wiki-list-no-section`` warnings, no ruling.
- The singular ``==Ruling==`` heading, in the diff's wikitext and in the rendered revision: already read.
- A Japanese view flattened with pipes whose summary carries the minor-edit mark and a pipe after it,
  ``細 (→ルール) |`` (the form of http://mtgwiki.com/index.php?diff=next&oldid=86599&title=%E6%BF%80%E7%AA%81,
  激突/Clash, whose own summary names no section): the mark and the pipe hid the summary, so a hunk inside
  the ルール section gave warnings and no ruling.
- A Fandom copy's headings keep their edit link's brackets with the icons gone, ``Description[ | ]`` (as in
  the corpus's ``Connive__fandom-rendered`` excerpt, which has no rulings section): a ``Rulings[ | ]``
  heading was read as a paragraph, its rulings lost without a warning, and the ``Example[ | ]`` heading
  after a ``Ruling`` section was taken for a ruling.
"""

from __future__ import annotations

import pytest

from ingest.records import IngestProblem
from ingest.wiki import detect_form, documents_from_text, records_from_document
from ingest.wiki_records import Ruling

FIRST = "Each ward ability triggers on its own when one spell targets several permanents with ward."
ADDED = "A spell that can't be countered still makes ward trigger, but ward then does nothing."

EN_MID_SECTION = f"""Ward: Difference between revisions

From MTG Wiki
Jump to navigation Jump to search
>Editor One
No edit summary
>Editor Two
m (→Ruling: added a bullet)
Line 26: Line 26:
*{FIRST}
*{FIRST}
*{ADDED}


==Example==
==Example==
"""

EN_WITH_HEADING_AND_RENDER = f"""Ward: Difference between revisions

From MTG Wiki
Jump to navigation Jump to search
>Editor One
No edit summary
>Editor Two
No edit summary
Line 20: Line 20:
==Ruling==
==Ruling==
*{FIRST}
*{FIRST}
*{ADDED}


==Example==
==Example==

Revision as of 16:10, 15 May 2021

Ward
Keyword Ability
Type Triggered

Ward is an evergreen keyword ability.

Description

Whenever a permanent with ward becomes the target of a spell or ability an opponent controls, counter it unless that player pays an additional cost.

Ruling

    {FIRST}
    {ADDED}

Example
"""


def _records(text: str, source: str):
    return [r for d in documents_from_text(text, source) for r in records_from_document(d)]


@pytest.mark.parametrize("summary", ["m (→Ruling: added a bullet)", "m (→\u200eRuling: added a bullet)",
                                     "(→Ruling: added a bullet)", "b (→Rulings)"])
def test_a_minor_edits_summary_names_the_section_its_hunk_starts_in(summary):
    text = EN_MID_SECTION.replace("m (→Ruling: added a bullet)", summary)
    assert detect_form(text) == "diff"
    records = _records(text, "Ward__diff-next-wikitext__excerpt.txt")
    # the context row's two cells (old and new revision), then the added line
    assert [r.text for r in records if isinstance(r, Ruling)] == [FIRST, FIRST, ADDED]
    assert {r.section for r in records if isinstance(r, Ruling)} == {summary.split("→")[-1].strip("\u200e").split(":")[0].rstrip(")")}
    assert not [r for r in records if isinstance(r, IngestProblem) and r.code == "wiki-list-no-section"]


def test_a_summary_naming_no_ruling_section_still_warns_at_each_line():
    text = EN_MID_SECTION.replace("m (→Ruling: added a bullet)", "m (→Example: typo)")
    records = _records(text, "Ward__diff-next-wikitext__excerpt.txt")
    assert not [r for r in records if isinstance(r, Ruling)]
    lines = text.split("\n")
    items = [k + 1 for k, line in enumerate(lines) if line.startswith("*")]
    warned = sorted({r.line for r in records if isinstance(r, IngestProblem) and r.code == "wiki-list-no-section"})
    assert warned and set(warned) <= set(items)


def test_the_singular_ruling_heading_in_wikitext_and_rendered():
    records = _records(EN_WITH_HEADING_AND_RENDER, "Ward__diff-prev-wikitext-with-render__excerpt.txt")
    rulings = [(r.section, r.text) for r in records if isinstance(r, Ruling)]
    # the diff's two revisions (old: one ruling; new: both) and the rendered revision (both)
    assert rulings == [("Ruling", FIRST), ("Ruling", FIRST), ("Ruling", ADDED), ("Ruling", FIRST), ("Ruling", ADDED)]
    rendered = EN_WITH_HEADING_AND_RENDER[EN_WITH_HEADING_AND_RENDER.index("Revision as of"):]
    rendered = "Ward\n\nFrom MTG Wiki\nJump to navigation Jump to search\n" + rendered
    assert [r.text for r in _records(rendered, "Ward__rendered-oldrev__excerpt.txt") if isinstance(r, Ruling)] == [
        FIRST, ADDED]


def test_the_parsed_ward_rulings_link_to_ward(kb_db):
    """Read as the build reads a wiki ruling (its page's keyword narrows it), both apply Ward's rule."""
    from kb.ruling_links import Linker, RuleIndex
    from kb.ruling_links import Ruling as ToLink

    newest, newest_ja = (kb_db.execute("select max(release) from releases where lang = ? and completeness = 'whole'",
                                       [lang]).fetchone()[0] for lang in ("en", "ja"))
    linker = Linker(RuleIndex(kb_db.conn, newest, newest_ja))
    for text in (FIRST, ADDED):
        decision = linker.link(ToLink(text, "en", None, ("Ward",), (), subjects=("Ward",)))
        assert [link.number for link in decision.links] == ["702.21a"], text


FANDOM = f"""MTG Wiki
Register
Advertisement

Ward
MTGA Ward
Keyword Ability
Introduced Strixhaven: School of Mages
Ward is an evergreen keyword ability.

Description[ | ]

Whenever a permanent with ward becomes the target of a spell or ability an opponent controls, counter it unless that player pays an additional cost.

Rulings[ | ]

    {FIRST}
    {ADDED}

Example[ | ]

Adrix and Nev, Twincasters
"""


@pytest.mark.parametrize("heading", ["Rulings[ | ]", "Ruling[ | ]", "Rulings[]", "Ruling"])
def test_a_fandom_heading_with_its_emptied_edit_link(heading):
    text = FANDOM.replace("Rulings[ | ]", heading)
    records = _records(text, "Ward__fandom-rendered__excerpt.txt")
    assert [r.text for r in records if isinstance(r, Ruling)] == [FIRST, ADDED]
    sections = [r.heading for r in records if type(r).__name__ == "WikiSection"]
    assert "Description" in sections and "Example" in sections


JA_PIPED = """激突
提供:MTG Wiki
(版間での差分)
細 (→ルール) |
|||
21行: | 21行: | ||
*激突で公開したカードは、一番上か一番下に置く。 | *激突で公開したカードは、一番上か一番下に置く。 | ||
+ | *激突を行うことは、対戦相手と激突を行うこととは異なる。 | ||
"""


def test_a_piped_japanese_summary_with_the_minor_edit_mark_names_the_section():
    records = _records(JA_PIPED, "激突__diff-next-wikitext__excerpt.txt")
    assert [(r.section, r.text) for r in records if isinstance(r, Ruling)] == [
        ("ルール", "激突で公開したカードは、一番上か一番下に置く。")] * 2 + [
        ("ルール", "激突を行うことは、対戦相手と激突を行うこととは異なる。")]
    assert not [r for r in records if isinstance(r, IngestProblem) and r.code == "wiki-list-no-section"]
    # a summary naming another section still leaves them unplaced, each a warning at its line
    other = _records(JA_PIPED.replace("(→ルール)", "(→参考)"), "激突__diff-next-wikitext__excerpt.txt")
    assert not [r for r in other if isinstance(r, Ruling)]
    assert {r.line for r in other if isinstance(r, IngestProblem) and r.code == "wiki-list-no-section"} == {7, 8}
