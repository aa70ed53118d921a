"""What pure functions of a text made of it, remembered across builds in the build cache.

Most of linking rulings to rules is regular expressions run over each ruling's
text (:func:`kb.ruling_links.topics.template_rule`: ~0.6 ms a text, 24,000
texts; :func:`~kb.ruling_links.topics.ruling_topics`,
:func:`~kb.ruling_links.topics.card_topics`), and their answer depends on the
text and the code alone, never on the rules. When a release comes out the
rulings are the same texts, so ``kb add`` reads those answers instead of
working them out again; every other part of each decision is made anew (the
similarities depend on the whole newest release: its word weights move with
any rule's text).

:class:`TextMemo` keeps one dictionary per function, ``{digest of the text: answer}``,
in one cache entry (namespace ``text-memo``) whose key is the source of every
module the functions read (:func:`kb.cache.code_version`): other code is a
miss, never a wrong answer. :meth:`TextMemo.wrap` gives a remembering
wrapper of a function, which the caller passes where the function would go
(the ruling-link step builds a :class:`~kb.ruling_links.functions.TextFunctions`
of them for the linker); a call with other arguments than one string goes
to the function itself. :meth:`TextMemo.store` adds the new answers to the
entry (up to :data:`MOST` a function, the latest kept; two builds writing at
once lose only the other's additions).
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable

from ..cache import Cache, code_version

NAMESPACE = "text-memo"
MOST = 200_000  # answers kept per function


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def settings(modules: tuple[str, ...]) -> str:
    """The modules' settings as they are now (their upper-case names of plain values): a flag set by a
    caller (``text.FOLD_RENAMED = False``) changes the answers without changing the source."""
    plain = (bool, int, float, str, type(None))
    parts = []
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name, value in sorted(vars(module).items()):
            if name.isupper() and (isinstance(value, plain) or isinstance(value, (tuple, frozenset)) and all(
                    isinstance(v, plain) for v in value)):
                parts.append(f"{module_name}.{name}={sorted(value) if isinstance(value, frozenset) else value!r}")
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=16).hexdigest()


class TextMemo:
    """The remembered answers of some functions of a text (see the module docstring).

    ``encode``/``decode`` turn an answer into what :mod:`marshal` stores and back
    (a tuple of topics as their names, say).
    """

    def __init__(self, cache: Cache, name: str, modules: tuple[str, ...]):
        self.cache = cache
        self.enabled = cache.enabled
        self.key = (cache.key(NAMESPACE, code_version(*modules, __name__), name, settings(modules))
                    if self.enabled else "")
        stored = cache.get(NAMESPACE, self.key) if self.enabled else None
        self.answers: dict[str, dict[bytes, object]] = stored if isinstance(stored, dict) else {}
        self.added = 0
        self.used = 0

    def wrap(self, name: str, function: Callable, encode: Callable = lambda v: v,
             decode: Callable = lambda v: v) -> Callable:
        """``function`` remembering its answers under ``name``."""
        known = self.answers.setdefault(name, {})

        def remembered(*args, **kwargs):
            if kwargs or len(args) != 1 or not isinstance(args[0], str):
                return function(*args, **kwargs)
            key = _digest(args[0])
            if key in known:
                self.used += 1
                return decode(known[key])
            value = function(args[0])
            known[key] = encode(value)
            self.added += 1
            return value

        remembered.__wrapped__ = function  # type: ignore[attr-defined]
        return remembered

    def store(self) -> None:
        """Write the answers back when some were added."""
        if not self.enabled or not self.added:
            return
        for name, known in self.answers.items():
            if len(known) > MOST:
                self.answers[name] = dict(list(known.items())[-MOST:])
        self.cache.put(NAMESPACE, self.key, self.answers)
        self.added = 0
