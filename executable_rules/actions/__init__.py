"""The keyword actions, one module each, found by any of their names.

Each module declares the rule it implements by title (``KEYWORD``), its
``KIND`` (``keyword action``, ``keyword ability`` or ``rule``), its Japanese
names (``JAPANESE``), the subrules it covers (``SUBRULES``, letters under the
keyword's numbered rule) and a one-line ``SUMMARY``, and has one public
function named for the action. ``OUT_OF_REACH`` gives the reason for every
other lettered subrule (``{"c": "why"}``) and for an ``Example:`` the model
can't run under a subrule it does (``{"c example 2": "why"}``);
:mod:`executable_rules.coverage` reads them. :func:`find_action` finds a module by its
keyword, its Japanese name or its module name, as python-chess's
``find_variant`` finds a variant by any alias.

>>> find_action("discover") is find_action("発見") is find_action("Discover")
True
>>> find_action("発見を行う").KEYWORD
'Discover'
>>> find_action("discovr")
Traceback (most recent call last):
...
executable_rules.actions.UnknownAction: no action 'discovr'; did you mean 'discover'? Actions: ..., discover, ...
"""

from __future__ import annotations

import difflib
import functools
import importlib
import pkgutil
from types import ModuleType

# The project's first actions keep their place at the head of the list (outputs list them so);
# every other module of this package is found by itself, so adding an action is adding a module.
_FIRST = ("search", "discover", "explore", "manifest", "manifest_dread", "cloak", "villainous_choice",
          "dredge", "shuffle", "mill", "reveal", "draw", "exile", "cast")


def _discover_modules() -> list[ModuleType]:
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    ordered = [n for n in _FIRST if n in names] + [n for n in names if n not in _FIRST]
    return [importlib.import_module(f"{__name__}.{n}") for n in ordered]


ACTIONS: list[ModuleType] = _discover_modules()
"""Every action module (every public module of this package), the project's first actions first."""


class UnknownAction(LookupError):
    """No action by that name; the message suggests the nearest and lists them all.

    The message is made when it is read: pages and the build ask for names that are no action's (a
    702 keyword without a module) many times a second, and the suggestion is the costly part."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        wanted = _key(self.name)
        names = sorted(module_name(m) for m in ACTIONS)
        near = difflib.get_close_matches(wanted, [a for m in ACTIONS for a in aliases(m)], n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        return f"no action {self.name!r}{hint or '.'} Actions: {', '.join(names)}"


def module_name(module: ModuleType) -> str:
    """``discover`` for ``executable_rules.actions.discover``."""
    return module.__name__.rsplit(".", 1)[-1]


def aliases(module: ModuleType) -> list[str]:
    """Every name the action answers to: module name, keyword, Japanese names."""
    return [module_name(module), module.KEYWORD, *module.JAPANESE]


def _key(name: str) -> str:
    return name.strip().casefold().replace(" ", "_")


@functools.lru_cache(maxsize=4)
def _by_alias(names: tuple[tuple[str, ...], ...]) -> dict[str, int]:
    """Every alias's key and the index of its module in ``ACTIONS``; the first module wins an alias two share."""
    found: dict[str, int] = {}
    for i, aliases_of_module in enumerate(names):
        for alias in aliases_of_module:
            found.setdefault(_key(alias), i)
    return found


def find_action(name: str) -> ModuleType:
    """The action module called ``name`` (any alias, any case); :class:`UnknownAction` otherwise."""
    # Keyed by the names as they are now (a test may give a module other names), read in microseconds.
    index = _by_alias(tuple(tuple(aliases(m)) for m in ACTIONS)).get(_key(name))
    module = None if index is None else ACTIONS[index]
    if module is None:
        raise UnknownAction(name)
    return module
