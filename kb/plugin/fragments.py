"""Parts of a page drawn by a synchronous Jinja environment, then put into the page as markup.

Datasette renders every template with ``enable_async=True``: each expression and macro call goes
through an await, and a scenario's board (a chip for every card at every step, hundreds per page)
spent most of its time there (23 ms of CPU a first visit, against about 7 ms drawn synchronously).
The fragment templates hold no await-needing values, so they are drawn by a second environment over
the same templates and filters; the page around them stays Datasette's (its hooks, its base).
``tests/test_plugin_resolution.py`` checks the markup is the same as Datasette's environment draws.
"""

from __future__ import annotations

import threading
import weakref

import jinja2
from markupsafe import Markup

_environments: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def environment(datasette) -> jinja2.Environment:
    """A synchronous environment over ``datasette``'s templates and filters (made once per Datasette)."""
    source = datasette.jinja_env
    with _lock:
        env = _environments.get(source)
        if env is None:
            env = jinja2.Environment(loader=source.loader, autoescape=True, enable_async=False)
            env.filters.update(source.filters)
            env.tests.update(source.tests)
            _environments[source] = env
    return env


def render_resolution(datasette, r: dict, tree_limit: int) -> Markup:
    """A resolution's verdict, zones, outcome tree, board and steps (``_kb_resolution.html``) as markup."""
    template = environment(datasette).get_template("_kb_resolution_fragment.html")
    return Markup(template.render(r=r, tree_limit=tree_limit, urls=datasette.urls))
