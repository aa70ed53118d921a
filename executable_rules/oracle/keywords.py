"""The keyword abilities (Keyword Abilities — CR 702), as Oracle text prints them, and what argument each takes.

``KEYWORD_ABILITIES`` is every title under 702 in the newest Comprehensive
Rules (a test compares the two, so a new release tells us what to add), each
with the shape of its argument in a keyword line: ``none`` ("Flying"),
``number`` ("Dredge 5", "Crew 3"), ``cost`` ("Kicker {2}{R}", "Equip {1}",
"Ward—Pay 3 life."), ``quality`` ("Protection from red", "Enchant creature you
control", "Affinity for artifacts"), ``number-cost`` ("Suspend 4—{U}"), or
``name`` ("Partner with Pir, Imaginative Rascal"). Landwalk and cycling have
families (``swampwalk``, ``basic landcycling``): :data:`KEYWORD_FAMILIES`.

>>> KEYWORD_ABILITIES["Dredge"], KEYWORD_ABILITIES["Flying"], KEYWORD_ABILITIES["Suspend"]
('number', 'none', 'number-cost')
>>> canonical_keyword("swampwalk"), canonical_keyword("Basic landcycling"), canonical_keyword("megamorph")
('Landwalk', 'Cycling', 'Morph')
"""

from __future__ import annotations

import re

KEYWORD_ABILITIES: dict[str, str] = {
    "Deathtouch": "none", "Defender": "none", "Double Strike": "none", "Enchant": "quality", "Equip": "cost",
    "First Strike": "none", "Flash": "none", "Flying": "none", "Haste": "none", "Hexproof": "quality",
    "Indestructible": "none", "Intimidate": "none", "Landwalk": "quality", "Lifelink": "none",
    "Protection": "quality", "Reach": "none", "Shroud": "none", "Trample": "quality", "Vigilance": "none",
    "Ward": "cost", "Banding": "quality", "Rampage": "number", "Cumulative Upkeep": "cost", "Flanking": "none",
    "Phasing": "none", "Buyback": "cost", "Shadow": "none", "Cycling": "cost", "Echo": "cost",
    "Horsemanship": "none", "Fading": "number", "Kicker": "cost", "Flashback": "cost", "Madness": "cost",
    "Fear": "none", "Morph": "cost", "Amplify": "number", "Provoke": "none", "Storm": "none",
    "Affinity": "quality", "Entwine": "cost", "Modular": "number", "Sunburst": "none", "Bushido": "number",
    "Soulshift": "number", "Splice": "quality", "Offering": "quality", "Ninjutsu": "cost", "Epic": "none",
    "Convoke": "none", "Dredge": "number", "Transmute": "cost", "Bloodthirst": "number", "Haunt": "none",
    "Replicate": "cost", "Forecast": "quality", "Graft": "number", "Recover": "cost", "Ripple": "number",
    "Split Second": "none", "Suspend": "number-cost", "Vanishing": "number", "Absorb": "number",
    "Aura Swap": "cost", "Delve": "none", "Fortify": "cost", "Frenzy": "number", "Gravestorm": "none",
    "Poisonous": "number", "Transfigure": "cost", "Champion": "quality", "Changeling": "none",
    "Evoke": "cost", "Hideaway": "number", "Prowl": "cost", "Reinforce": "number-cost", "Conspire": "none",
    "Persist": "none", "Wither": "none", "Retrace": "none", "Devour": "number", "Exalted": "none",
    "Unearth": "cost", "Cascade": "none", "Annihilator": "number", "Level Up": "cost", "Rebound": "none",
    "Umbra Armor": "none", "Infect": "none", "Battle Cry": "none", "Living Weapon": "none", "Undying": "none",
    "Miracle": "cost", "Soulbond": "none", "Overload": "cost", "Scavenge": "cost", "Unleash": "none",
    "Cipher": "none", "Evolve": "none", "Extort": "none", "Fuse": "none", "Bestow": "cost", "Tribute": "number",
    "Dethrone": "none", "Hidden Agenda": "none", "Outlast": "cost", "Prowess": "none", "Dash": "cost",
    "Exploit": "none", "Menace": "none", "Renown": "number", "Awaken": "number-cost", "Devoid": "none",
    "Ingest": "none", "Myriad": "none", "Surge": "cost", "Skulk": "none", "Emerge": "cost",
    "Escalate": "cost", "Melee": "none", "Crew": "number", "Fabricate": "number", "Partner": "name",
    "Undaunted": "none", "Improvise": "none", "Aftermath": "none", "Embalm": "cost", "Eternalize": "cost",
    "Afflict": "number", "Ascend": "none", "Assist": "none", "Jump-Start": "none", "Mentor": "none",
    "Afterlife": "number", "Riot": "none", "Spectacle": "cost", "Escape": "cost", "Companion": "quality",
    "Mutate": "cost", "Encore": "cost", "Boast": "cost", "Foretell": "cost", "Demonstrate": "none",
    "Daybound and Nightbound": "none", "Disturb": "cost", "Decayed": "none", "Cleave": "cost",
    "Training": "none", "Compleated": "none", "Reconfigure": "cost", "Blitz": "cost", "Casualty": "number",
    "Enlist": "none", "Read Ahead": "none", "Ravenous": "none", "Squad": "cost", "Space Sculptor": "none",
    "Visit": "none", "Prototype": "cost", "Living Metal": "none", "More Than Meets the Eye": "cost",
    "For Mirrodin!": "none", "Toxic": "number", "Backup": "number", "Bargain": "none", "Craft": "quality",
    "Disguise": "cost", "Solved": "none", "Plot": "cost", "Saddle": "number", "Spree": "none",
    "Freerunning": "cost", "Gift": "quality", "Offspring": "cost", "Impending": "number-cost",
    "Exhaust": "none", "Max Speed": "none", "Start Your Engines!": "none", "Harmonize": "cost",
    "Mobilize": "number", "Job Select": "none", "Tiered": "none", "Station": "none", "Warp": "cost",
    "∞ (Infinity)": "none", "Mayhem": "cost", "Web-slinging": "cost", "Firebending": "number",
    "Sneak": "cost", "Increment": "none", "Paradigm": "none", "Power-up": "cost", "Teamwork": "none",
    "Storied": "none",
}
"""Every keyword ability (Keyword Abilities — CR 702) by its title, with the shape of its argument."""

KEYWORD_FAMILIES: dict[str, str] = {
    r"(?:nonbasic |snow |snow-covered |legendary |artifact )?[a-z]*walk": "Landwalk",
    r"bands with other": "Banding",     # "bands with other legendary creatures" (Banding — CR 702.22c)
    r"(?:basic )?[a-z]*cycling": "Cycling",
    r"megamorph": "Morph",
    r"multikicker": "Kicker",
    r"daybound|nightbound": "Daybound and Nightbound",
    r"hexproof from [a-z]+": "Hexproof",
    r"partner with": "Partner",
    r"totem armor": "Umbra Armor",
}
"""Printed forms of a keyword other than its title (landwalk's swampwalk, cycling's typecycling)."""

_FAMILIES = [(re.compile(pattern + "$", re.IGNORECASE), title) for pattern, title in KEYWORD_FAMILIES.items()]
_BY_LOWER = {title.casefold(): title for title in KEYWORD_ABILITIES}


def canonical_keyword(printed: str) -> str | None:
    """The 702 title of a keyword as printed (any case), or ``None`` if it is no keyword ability."""
    key = printed.strip().casefold()
    if key in _BY_LOWER:
        return _BY_LOWER[key]
    for pattern, title in _FAMILIES:
        if pattern.match(key):
            return title
    return None


def keyword_pattern() -> str:
    """A regular expression matching any keyword as printed at the start of a keyword-line item, longest first."""
    names = sorted((re.escape(t.casefold()) for t in KEYWORD_ABILITIES if t != "∞ (Infinity)"), key=len, reverse=True)
    families = list(KEYWORD_FAMILIES)
    return "(?i:" + "|".join(families + names) + ")"
