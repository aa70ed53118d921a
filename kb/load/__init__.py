"""The build's load steps, one module per source: each a function taking a ``BuildContext``.

:mod:`kb.build` lists them in the order they run: :mod:`.cr` (English CR),
:mod:`.japanese` (Japanese CR), :mod:`.cards`, :mod:`.wiki` (MTG Wiki pages),
:mod:`.search_extra`, :mod:`.checks` (executable rules) and :mod:`.history`.
"""
