"""The keyword actions, one module each, found by any of their names.

Each module declares the rule it implements by title (``KEYWORD``), its
``KIND`` (``keyword action``, ``keyword ability`` or ``rule``), its Japanese
names (``JAPANESE``), the subrules it covers (``SUBRULES``, letters under the
keyword's numbered rule) and a one-line ``SUMMARY``, and has one public
function named for the action. :func:`find_action` finds a module by its
keyword, its Japanese name or its module name, as python-chess's
``find_variant`` finds a variant by any alias.

>>> find_action("discover") is find_action("発見") is find_action("Discover")
True
>>> find_action("発見を行う").KEYWORD
'Discover'
>>> find_action("discovr")
Traceback (most recent call last):
...
executable_rules.actions.UnknownAction: no action 'discovr'; did you mean 'discover'? Actions: cast, cloak, discover, draw, dredge, exile, explore, manifest, manifest_dread, mill, reveal, search, shuffle, villainous_choice
"""

from __future__ import annotations

import difflib
from types import ModuleType

from . import (
    cast,
    cloak,
    discover,
    draw,
    dredge,
    exile,
    explore,
    manifest,
    manifest_dread,
    mill,
    reveal,
    search,
    shuffle,
    villainous_choice,
)

ACTIONS: list[ModuleType] = [
    search, discover, explore, manifest, manifest_dread, cloak, villainous_choice, dredge,
    shuffle, mill, reveal, draw, exile, cast,
]
"""Every action module, the keyword actions of the project first."""


class UnknownAction(LookupError):
    """No action by that name; the message suggests the nearest and lists them all."""

    def __str__(self) -> str:
        return str(self.args[0])


def module_name(module: ModuleType) -> str:
    """``discover`` for ``executable_rules.actions.discover``."""
    return module.__name__.rsplit(".", 1)[-1]


def aliases(module: ModuleType) -> list[str]:
    """Every name the action answers to: module name, keyword, Japanese names."""
    return [module_name(module), module.KEYWORD, *module.JAPANESE]


def find_action(name: str) -> ModuleType:
    """The action module called ``name`` (any alias, any case); :class:`UnknownAction` otherwise."""
    wanted = name.strip().casefold().replace(" ", "_")
    for module in ACTIONS:
        if wanted in {a.casefold().replace(" ", "_") for a in aliases(module)}:
            return module
    names = sorted(module_name(m) for m in ACTIONS)
    near = difflib.get_close_matches(wanted, [a for m in ACTIONS for a in aliases(m)], n=1)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise UnknownAction(f"no action {name!r}{hint or '.'} Actions: {', '.join(names)}")
