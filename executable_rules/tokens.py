"""Predefined tokens (Tokens — CR 111.10) and the other tokens keyword actions create, by name.

>>> food = predefined_token("Food Token")
>>> food.main.types, food.main.subtypes, food.is_token
(frozenset({'Artifact'}), ('Food',), True)
>>> predefined_token("Incubator Token").main.text
'{2}: Transform this token.'
>>> predefined_token("Grizzly Bears") is None
True
"""

from __future__ import annotations

from .model import Face, FaceKind, Layout, OracleCard


def _token(name: str, types: str, subtypes: tuple[str, ...], text: str = "", power: str | None = None,
           toughness: str | None = None, colors: frozenset[str] = frozenset()) -> OracleCard:
    face = Face(name, None, frozenset(types.split()), subtypes, frozenset(), power, toughness, text, FaceKind.NORMAL)
    return OracleCard(name, Layout.NORMAL, (face,), color_indicator=colors, is_token=True)


FOOD = _token("Food Token", "Artifact", ("Food",), "{2}, {T}, Sacrifice this token: You gain 3 life.")
"""A Food token (Tokens — CR 111.10b)."""

INCUBATOR = _token("Incubator Token", "Artifact", ("Incubator",), "{2}: Transform this token.")
"""The front face of an Incubator token (Tokens — CR 111.10i)."""

PHYREXIAN = _token("Phyrexian Token", "Artifact Creature", ("Phyrexian",), power="0", toughness="0")
"""The back face of an Incubator token: a 0/0 colorless Phyrexian artifact creature named Phyrexian Token (111.10i)."""

PREDEFINED = {t.name: t for t in (FOOD, INCUBATOR, PHYREXIAN)}


def predefined_token(name: str) -> OracleCard | None:
    """The token called ``name`` ("Food Token", "Incubator Token", …), or None."""
    return PREDEFINED.get(name)


def creature_token(name: str, subtypes: tuple[str, ...], power: int, toughness: int, colors: str) -> OracleCard:
    """An N/N creature token such as endure's white Spirit (Endure — CR 701.63a)."""
    return _token(name, "Creature", subtypes, power=str(power), toughness=str(toughness), colors=frozenset(colors))
