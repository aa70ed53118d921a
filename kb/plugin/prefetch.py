"""Ask the kernel to read a served database file into its page cache before the first pages need it.

A page read first after the server starts reads rows spread over the file (a rule's history, its
translation in another release, its rulings); from a cold page cache each is a disk read, and a
rule page took 100-250 ms instead of 10-30 ms. The file is served immutable, so reading it ahead
once is safe: ``posix_fadvise(WILLNEED)`` starts the reads and returns, the kernel may drop the
pages again under memory pressure, and nothing changes if the call is missing (not Linux) or the
file is larger than :data:`SHARE` of the memory available.
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger("kb.serve")

#: Files larger than this share of the available memory are not read ahead.
SHARE = 0.25


def available_memory() -> int | None:
    """Bytes of memory available (``MemAvailable`` of /proc/meminfo), or None where it can't be read."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def read_ahead(path: str) -> bool:
    """Start reading ``path`` into the page cache; True if asked for. Never raises."""
    advise = getattr(os, "posix_fadvise", None)
    if advise is None or not path:
        return False
    try:
        size = os.path.getsize(path)
        memory = available_memory()
        if memory is None or size > SHARE * memory:
            return False
        fd = os.open(path, os.O_RDONLY)
        try:
            advise(fd, 0, size, os.POSIX_FADV_WILLNEED)
        finally:
            os.close(fd)
        return True
    except OSError as e:
        log.info("read ahead of %s skipped: %s", path, e)
        return False


def read_ahead_immutables(datasette) -> list[str]:
    """Read ahead every immutable database file of ``datasette``; the paths asked for."""
    done = []
    for db in list(datasette.databases.values()):
        if getattr(db, "is_mutable", True) or not getattr(db, "path", None):
            continue
        if read_ahead(db.path):
            done.append(db.path)
    return done
