"""Parts of a page drawn by a synchronous Jinja environment, then put into the page as markup.

Datasette renders every template with ``enable_async=True``: each expression and macro call goes
through an await, and a scenario's board (a chip for every card at every step, hundreds per page)
spent most of its time there (23 ms of CPU a first visit, against about 7 ms drawn synchronously).
The fragment templates hold no await-needing values, so they are drawn by a second environment over
the same templates and filters; the page around them stays Datasette's (its hooks, its base).
``tests/test_plugin_resolution.py`` checks the markup is the same as Datasette's environment draws.

Whole pages too (:func:`render_page`): a page template (``kb_rule.html``, ``kb_keyword.html``) is drawn
by the synchronous environment with ``base.html`` replaced by a stub that only places its blocks
(title, body class, content); Datasette then draws ``_kb_page.html``, which puts those blocks into
its ``base.html`` (its hooks, its header and footer). A rule page's template took 2-5 ms of CPU in
Datasette's environment, most of it awaits; ``tests/test_plugin_pages.py`` compares the two.
"""

from __future__ import annotations

import threading
import weakref

import jinja2
from markupsafe import Markup

_environments: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_lock = threading.Lock()

#: The blocks of a page template drawn synchronously, in the order the stub places them.
BLOCKS = ("title", "body_class", "content")
_SEPARATOR = "\x00"
# ``base.html`` as the synchronous environment sees it: each block, then a separator.
_STUB_BASE = _SEPARATOR.join(f"{{% block {b} %}}{{% endblock %}}" for b in BLOCKS)


def environment(datasette) -> jinja2.Environment:
    """A synchronous environment over ``datasette``'s templates and filters (made once per Datasette)."""
    source = datasette.jinja_env
    with _lock:
        env = _environments.get(source)
        if env is None:
            loader = jinja2.ChoiceLoader([jinja2.DictLoader({"base.html": _STUB_BASE}), source.loader])
            env = jinja2.Environment(loader=loader, autoescape=True, enable_async=False)
            env.filters.update(source.filters)
            env.tests.update(source.tests)
            env.globals.update(source.globals)
            _environments[source] = env
    return env


class ChipMemo:
    """A board's zones of card chips drawn once per distinct zone and chip: the board repeats every card
    in every frame (renown's Rhox Maulers example: 18,205 chips in 123 frames, 9 distinct chips; 400 ms
    of its 1.6 MB page). Called from the template with the chip macro, so equal chips get the macro's
    own markup. Keyed by ``repr``: equal reprs of these plain values are equal chips (a chip built with
    its keys in another order is only drawn again)."""

    def __init__(self):
        self.zones: dict[str, Markup] = {}
        self.chips: dict[str, Markup] = {}

    def __call__(self, cards: list[dict], macro) -> Markup:
        key = repr(cards)
        html = self.zones.get(key)
        if html is None:
            parts = []
            for chip in cards:
                one = repr(chip)
                drawn = self.chips.get(one)
                if drawn is None:
                    drawn = self.chips[one] = macro(chip)
                parts.append(drawn)
            html = self.zones[key] = Markup("".join(parts))
        return html


def render_resolution(datasette, r: dict, tree_limit: int) -> Markup:
    """A resolution's verdict, zones, outcome tree, board and steps (``_kb_resolution.html``) as markup."""
    template = environment(datasette).get_template("_kb_resolution_fragment.html")
    return Markup(template.render(r=r, tree_limit=tree_limit, urls=datasette.urls, chip_memo=ChipMemo()))


def page_blocks(datasette, template_name: str, context: dict) -> dict[str, Markup]:
    """The blocks of ``template_name`` (one that extends ``base.html``) drawn synchronously with
    ``context`` (and ``urls``): ``{block: markup}`` for :data:`BLOCKS`."""
    template = environment(datasette).get_template(template_name)
    text = template.render({"urls": datasette.urls, **context})
    parts = text.split(_SEPARATOR)
    if len(parts) != len(BLOCKS):   # a NUL in the page's own text: never from our data, but never misplace
        raise ValueError(f"{template_name}: {len(parts)} parts drawn, not {len(BLOCKS)}")
    return {name: Markup(part) for name, part in zip(BLOCKS, parts)}


_CHROME: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MARKS = {b: f"\x00kb-{b}\x00" for b in BLOCKS}


async def render_page(datasette, template_name: str, context: dict, request) -> str:
    """The page ``template_name`` with ``context``: its blocks drawn synchronously (:func:`page_blocks`),
    the page around them by Datasette (``_kb_page.html`` over ``base.html``).

    For a visitor without an account and without a message to show (the visitors whose whole pages
    :class:`kb.plugin.rule_page.HtmlCache` keeps), the page around the blocks is drawn once per
    Datasette and kind of page, with markers where the blocks go, and the blocks put in: Datasette's
    base (its hooks, permission checks for the header's links) was about 1 ms of every page."""
    try:
        blocks = page_blocks(datasette, template_name, context)
    except ValueError:
        return await datasette.render_template(template_name, context, request=request)
    outer = {key: context[key] for key in ("database", "table", "columns", "kb_page") if key in context}
    anonymous = request is not None and getattr(request, "actor", None) is None \
        and "ds_messages" not in request.cookies
    if not anonymous:
        return await datasette.render_template(["_kb_page.html"], {**outer, "kb_blocks": blocks}, request=request)
    key = tuple(sorted((k, repr(v)) for k, v in outer.items()))
    with _lock:
        kept = _CHROME.setdefault(datasette, {})
    chrome = kept.get(key)
    if chrome is None:
        html = await datasette.render_template(
            ["_kb_page.html"], {**outer, "kb_blocks": {b: Markup(m) for b, m in _MARKS.items()}}, request=request)
        chrome = _split_chrome(html)
        if chrome is None:   # a marker lost or doubled (a hook that rewrites the page): draw each page whole
            return await datasette.render_template(["_kb_page.html"], {**outer, "kb_blocks": blocks}, request=request)
        kept[key] = chrome
    out = [chrome[0]]
    for name, part in zip(BLOCKS, chrome[1:]):
        out += [blocks[name], part]
    return "".join(out)


def _split_chrome(html: str) -> tuple[str, ...] | None:
    """The page around the blocks: the text before, between and after the markers, each once in order."""
    parts, rest = [], html
    for name in BLOCKS:
        mark = _MARKS[name]
        if html.count(mark) != 1 or mark not in rest:
            return None
        before, rest = rest.split(mark, 1)
        parts.append(before)
    parts.append(rest)
    return tuple(parts)
