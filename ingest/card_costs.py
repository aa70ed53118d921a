"""Mana costs: Japanese printed costs and Forge costs to Oracle symbols, and mana value.

The Japanese MTG Wiki prints a cost as parenthesised symbols with colour words
(``(４)(赤)(赤)(赤)``); Forge scripts write ``4 R R R``; Oracle text writes
``{4}{R}{R}{R}``. All three become the Oracle form here.

>>> mana_cost_from_japanese("(４)(赤)(赤)(赤)")
'{4}{R}{R}{R}'
>>> mana_cost_from_japanese("(Ｘ)(白/青)(２/黒)(緑/Φ)")
'{X}{W/U}{2/B}{G/P}'
>>> mana_cost_from_forge("4 R R R"), mana_cost_from_forge("1 WU B")
('{4}{R}{R}{R}', '{1}{W/U}{B}')
>>> mana_value("{4}{R}{R}{R}"), mana_value("{X}{2/B}{W/U}")
(7, 3)
"""

from __future__ import annotations

import re
import unicodedata

# Japanese colour and symbol words as the wiki prints them inside parentheses.
JAPANESE_SYMBOLS = {
    "白": "W", "青": "U", "黒": "B", "赤": "R", "緑": "G",
    "無": "C", "◇": "C", "氷": "S", "Φ": "P", "φ": "P",
}
COLOURS = set("WUBRG")
_SYMBOL_PARTS = COLOURS | {"C", "S", "P", "X", "Y", "Z"}
_JAPANESE_COST = re.compile(r"^(?:[(（][^()（）]+[)）])+$")
_ONE_SYMBOL = re.compile(r"[(（]([^()（）]+)[)）]")
_ORACLE_SYMBOL = re.compile(r"\{([^{}]+)\}")
_ASCII_NUMBER = re.compile(r"[0-9]+")


def is_japanese_cost(text: str) -> bool:
    """True when ``text`` is nothing but parenthesised cost symbols.

    >>> is_japanese_cost("(３)(赤)"), is_japanese_cost("(Treasure)"), is_japanese_cost("(T)")
    (True, False, False)
    """
    if not _JAPANESE_COST.match(text.strip()):
        return False
    try:
        mana_cost_from_japanese(text)
    except ValueError:
        return False
    return True


def _symbol_part(part: str, printed: str) -> str:
    part = unicodedata.normalize("NFKC", part).strip()
    if part in JAPANESE_SYMBOLS:
        return JAPANESE_SYMBOLS[part]
    if part.isdigit():
        return str(int(part))
    if part.upper() in {"X", "Y", "Z"}:
        return part.upper()
    if part.upper() in _SYMBOL_PARTS:
        return part.upper()
    raise ValueError(
        f"unknown mana symbol {part!r} in {printed!r}; expected a number, X, or one of "
        + " ".join(f"({k})" for k in JAPANESE_SYMBOLS)
    )


def mana_cost_from_japanese(printed: str) -> str:
    """``(４)(赤)(赤)(赤)`` → ``{4}{R}{R}{R}``; raises ``ValueError`` naming an unknown symbol.

    Full-width digits are generic mana, ``(Ｘ)`` is X; a hybrid or Phyrexian
    symbol is written with ``/`` inside one pair of parentheses.

    >>> mana_cost_from_japanese("(１０)")
    '{10}'
    >>> mana_cost_from_japanese("(赤)(Treasure)")
    Traceback (most recent call last):
    ...
    ValueError: unknown mana symbol 'Treasure' in '(赤)(Treasure)'; expected a number, X, or one of (白) (青) (黒) (赤) (緑) (無) (◇) (氷) (Φ) (φ)
    """
    symbols = _ONE_SYMBOL.findall(printed)
    if not symbols or _ONE_SYMBOL.sub("", printed).strip():
        raise ValueError(f"not a mana cost: {printed!r}; expected symbols like (４)(赤)")
    out = []
    for symbol in symbols:
        parts = [_symbol_part(p, printed) for p in re.split(r"[/／]", symbol)]
        out.append("{" + "/".join(parts) + "}")
    return "".join(out)


def mana_cost_from_forge(cost: str) -> str | None:
    """A Forge ``ManaCost:`` value (``4 R R R``, ``1 WU``, ``no cost``) in Oracle symbols.

    >>> mana_cost_from_forge("no cost") is None
    True
    >>> mana_cost_from_forge("X G PG")
    '{X}{G}{G/P}'
    >>> mana_cost_from_forge("²")
    Traceback (most recent call last):
    ...
    ValueError: unknown Forge mana symbol '²' in '²'
    """
    cost = cost.strip()
    if not cost or cost.lower() == "no cost":
        return None
    out = []
    for token in cost.split():
        token = token.upper()
        # str.isdigit() also accepts "²" and "①", which are no mana symbol (and int() refuses).
        if _ASCII_NUMBER.fullmatch(token) or token in _SYMBOL_PARTS:
            out.append("{" + token + "}")
        elif token.startswith("P") and len(token) == 2 and token[1] in COLOURS:
            out.append("{" + token[1] + "/P}")
        elif len(token) == 2 and all(c in COLOURS | set("0123456789C") for c in token):
            out.append("{" + token[0] + "/" + token[1] + "}")
        else:
            raise ValueError(f"unknown Forge mana symbol {token!r} in {cost!r}")
    return "".join(out)


def mana_value(cost: str | None) -> int | float | None:
    """The mana value of an Oracle cost: numbers count as themselves, X as 0, other symbols 1.

    A hybrid symbol with a number (``{2/B}``) counts the number; a half symbol
    (``{½}``, ``{HW}``, from the Un-sets) counts one half. A number written with
    other digits than 0–9 (``{²}``) is no mana symbol: ``ValueError``.

    >>> mana_value(None) is None
    True
    >>> mana_value("{10}"), mana_value("{G/P}"), mana_value("{HW}{1}")
    (10, 1, 1.5)
    >>> mana_value("{²}")
    Traceback (most recent call last):
    ...
    ValueError: '{²}': '²' is not a mana symbol (numbers are written 0-9)
    """
    if cost is None:
        return None
    total: int | float = 0
    for symbol in _ORACLE_SYMBOL.findall(cost):
        parts = symbol.split("/")
        if any(p.isdigit() and not _ASCII_NUMBER.fullmatch(p) for p in parts):
            raise ValueError(f"{cost!r}: {symbol!r} is not a mana symbol (numbers are written 0-9)")
        numbers = [int(p) for p in parts if _ASCII_NUMBER.fullmatch(p)]
        if numbers:
            total += max(numbers)
        elif symbol in {"X", "Y", "Z"}:
            continue
        elif symbol == "½" or (len(symbol) == 2 and symbol[0] == "H"):
            total += 0.5
        else:
            total += 1
    return total
