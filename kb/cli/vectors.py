"""``kb vectors``: the sentence vectors of dense search (status, fill the cache).

``kb build`` copies into the database the vectors the cache already has;
``kb serve`` embeds the rest in the background. ``kb vectors fill`` embeds
them now, in the foreground, with a progress bar.
"""

from __future__ import annotations

import click

from ..options import db_option, echo_json, json_option, open_database


@click.group()
def vectors():
    """Sentence vectors for dense search: how many rules have one, and embedding the rest.

    Example:

        kb vectors status --json
    """


@vectors.command("status")
@click.option("--model", default=None, help="Embedder [default: $KB_EMBEDDER, else e5-small-q4].")
@db_option
@json_option
def status_command(model, db, as_json):
    """How many rows of the default search have a vector, in the database or the cache.

    Example:

        kb vectors status
    """
    from ..search import dense

    conn = open_database(db).conn
    name = model or dense.embedder() and dense.embedder().name or dense.DEFAULT
    index = dense.load_index(conn, name)
    data = {"model": name, "rows": index.wanted, "embedded": int(len(index.rowids)),
            "complete": index.complete, "cache": str(dense.VectorCache(name).path),
            "embedder": dense.status(name) or "available"}
    if as_json:
        echo_json(data)
        return
    click.echo(f"{name}: {data['embedded']} of {data['rows']} rows embedded"
               f" ({'complete' if index.complete else 'incomplete'}); cache {data['cache']}; {data['embedder']}")


@vectors.command("fill")
@click.option("--model", default=None, help="Embedder [default: $KB_EMBEDDER, else e5-small-q4].")
@db_option
def fill_command(model, db):
    """Embed every row the cache lacks (minutes for a whole release; run once, reused by every build).

    Example:

        kb vectors fill --model use-m3
    """
    from rich.progress import Progress

    from ..search import dense

    embedder = dense.embedder(model)
    if embedder is None:
        raise click.ClickException(dense.status(model) or "no embedder")
    conn = open_database(db).conn
    with Progress() as progress:
        task = progress.add_task(f"Embedding with {embedder.name}", total=None)

        def advance(done, total):
            progress.update(task, completed=done, total=total)

        done = dense.fill_cache(conn, embedder, progress=advance)
    click.echo(f"{done} texts embedded into {dense.VectorCache(embedder.name).path}")
