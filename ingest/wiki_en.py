"""The English MTG Wiki's page vocabulary (mtg.wiki, and its Fandom, Wikia and Gamepedia eras).

The English wiki's pages read into the same :class:`~ingest.wiki_records.WikiDocument`
blocks as the Japanese ones; what differs is words, collected here:

- **chrome**: ``From MTG Wiki``, ``Jump to navigation Jump to search`` (``Jump to:
  navigation, search`` on Gamepedia), the Gamepedia migration banner, the
  ``[edit]`` / ``[edit | edit source]`` links after a heading;
- **sections**: Description, Rules, Rulings, History, Notes, References …;
  the bullets of *Rulings* are rulings (an English page's *Rules* section
  quotes the CR instead);
- **the lead**: ``Dredge is a keyword ability first introduced in …`` gives the
  name and kind; an infobox line ``Keyword Action`` gives the kind when the
  lead says "mechanic";
- **the quoted CR**: ``From the Comprehensive Rules (Ixalan (September 29, 2017))``
  starts a quote of the English CR of that date.

>>> english_lead("Search is a keyword action. It was introduced on Demonic Tutor in Alpha.")
('Search', 'keyword action')
>>> english_lead("Face a villainous choice is a punisher mechanic introduced in the Universes Beyond set Doctor Who.")
('Face a villainous choice', None)
>>> quote_release("From the Comprehensive Rules (Ixalan (September 29, 2017))")
'20170929'
>>> heading_with_edit_link("Rules[edit | edit source]"), heading_with_edit_link("Rulings [edit]")
('Rules', 'Rulings')
>>> heading_with_edit_link("Rulings[ | ]"), heading_with_edit_link("Description[]"), heading_with_edit_link("[ | ]")
('Rulings', 'Description', None)
"""

from __future__ import annotations

import re

SECTIONS = frozenset({
    "Description", "Rules", "Rulings", "History", "Notes", "References", "Trivia", "Examples", "Example",
    "Gallery", "See also", "External links", "Storyline", "Comprehensive Rules", "Strategy", "Variants",
    "Cards", "Notable cards", "Change in reminder text", "Obsolete rulings",
})
# First lines that are the site's, not the page's title.
CHROME_TITLES = re.compile(r"^(?:MTG Wiki|Keyword Action|Keyword Ability|We have begun migration.*)$")
RULING_SECTIONS = frozenset({"Rulings"})
KINDS = {"keyword action": "keyword action", "keyword ability": "keyword ability"}

CHROME = re.compile(
    r"^(?:From MTG Wiki|From the MTG Wiki|Jump to navigation(?: Jump to search)?|Jump to: navigation, search"
    r"|We have begun migration of most wikis.*|Scryfall Search|Scryfall Statistics|Other Symbols)$"
)
# Fandom's copies print the edit link's icons as nothing: "Rulings[ | ]" (round 9: read as a paragraph, so a
# Rulings section so headed gave no ruling and "Example[ | ]" after it was taken for one)
_EDIT_LINK = re.compile(r"^(?P<heading>[^\[\]]{1,60}?)\s*\[(?:edit(?: \| edit source)?|\s*\|?\s*)\]$")
LEAD = _LEAD = re.compile(
    r"^(?P<name>[A-Z][A-Za-z0-9 '’!\-]{1,40}?) (?:is|are|was) (?:an? |the )?(?P<rest>.*)$")
_KIND = re.compile(r"\b(keyword action|keyword ability)\b", re.IGNORECASE)
_QUOTE = re.compile(r"^From the Comprehensive Rules\s*\((?P<label>.+)\)\s*$")
_DATE = re.compile(r"(?P<month>January|February|March|April|May|June|July|August|September|October|November"
                   r"|December) (?P<day>\d{1,2}), (?P<year>\d{4})")
_MONTHS = {m: i for i, m in enumerate(("January", "February", "March", "April", "May", "June", "July", "August",
                                       "September", "October", "November", "December"), 1)}
_ENGLISH_TYPES = ("Artifact", "Creature", "Enchantment", "Instant", "Sorcery", "Land", "Planeswalker", "Battle",
                  "Kindred", "Tribal", "Plane", "Phenomenon", "Scheme", "Conspiracy", "Dungeon")
TYPE_LINE = re.compile(
    r"^(?:(?:Legendary|Basic|Snow|World|Ongoing|Token) )*(?:" + "|".join(_ENGLISH_TYPES) + r")"
    r"(?: (?:" + "|".join(_ENGLISH_TYPES) + r"))*(?: [—–-] [A-Z][A-Za-z' ]{1,60})?$")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def is_english(text: str) -> bool:
    """True when the text is written in English (no Japanese in its first part).

    >>> is_english("Dredge is a keyword ability."), is_english("発見/Discoverはキーワード処理の一種。")
    (True, False)
    """
    head = text[:3000]
    return bool(re.search(r"[A-Za-z]{3}", head)) and len(_JAPANESE.findall(head)) < 5


def english_lead(text: str) -> tuple[str, str | None] | None:
    """(name, kind or None) from a lead sentence ``X is a keyword action …``; None if it is not one."""
    m = _LEAD.match(text.strip())
    if not m or not is_english(text):
        return None
    kind = _KIND.search(m.group("rest")[:80])
    if kind is None and not re.match(r"(?:[\w-]+ ){0,3}(?:mechanic|ability|action)\b", m.group("rest")):
        return None
    return m.group("name").strip(), KINDS[kind.group(1).lower()] if kind else None


def title_agrees(title: str | None, name: str) -> bool:
    """Whether a lead's name is the page's own (``Category for Dredge`` / Dredge), not another page's.

    >>> title_agrees("MTGA Connive", "Connive"), title_agrees("Keyword action", "Monstrosity"), title_agrees("MTG Wiki", "Scry")
    (True, False, True)
    """
    if not title or CHROME_TITLES.match(title):
        return True
    a, b = title.lower(), name.lower()
    return b in a or a.split(" |")[0].strip() in b


def infobox_kind(text: str) -> str | None:
    """``Keyword Action`` / ``Keyword Ability`` (an infobox line or row) → the kind."""
    m = re.fullmatch(r"\s*(Keyword Action|Keyword Ability)\s*(?:\|\s*)*", text, re.IGNORECASE)
    return KINDS[m.group(1).lower()] if m else None


def heading_with_edit_link(text: str) -> str | None:
    m = _EDIT_LINK.match(text.strip())
    return m.group("heading").strip() if m else None


def quote_release(text: str) -> str | None:
    """The release (YYYYMMDD) a ``From the Comprehensive Rules (…)`` line names, or None."""
    m = _QUOTE.match(text.strip())
    if not m:
        return None
    date = _DATE.search(m.group("label"))
    if not date:
        return "unknown"
    return f"{int(date['year']):04d}{_MONTHS[date['month']]:02d}{int(date['day']):02d}"


def is_quote_start(text: str) -> bool:
    return bool(_QUOTE.match(text.strip()))


def is_type_line(text: str) -> bool:
    """An English type line: ``Legendary Creature — Time Lord Rogue``, ``Sorcery``.

    >>> is_type_line("Legendary Creature — Time Lord Rogue"), is_type_line("Creatures you control get +1/+1.")
    (True, False)
    """
    return bool(TYPE_LINE.match(text.strip()))
