"""The ``sqlite3`` module the project opens connections with.

Datasette and sqlite-utils use ``pysqlite3`` (SQLite 3.51, with extension
loading) when it is installed, and the standard library's ``sqlite3``
otherwise; our own connections must come from the same module, or a
connection of one kind meets functions and errors of the other.

>>> sqlite3.sqlite_version_info >= (3, 37)
True
"""

from __future__ import annotations

from sqlite_utils.utils import sqlite3

__all__ = ["sqlite3"]
