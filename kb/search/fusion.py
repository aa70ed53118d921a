"""Reciprocal rank fusion: one ranking out of several, from the ranks alone.

Each list adds ``weight / (k + rank)`` to an item's score (rank 1 is the best);
an item near the top of either list beats one in the middle of both. ``k = 60``
is the constant of Cormack, Clarke and Büttcher (SIGIR 2009).

>>> rrf([["a", "b", "c"], ["c", "a"]])
['a', 'c', 'b']
>>> rrf([["a", "b"], ["b", "a"]], weights=[2.0, 1.0])
['a', 'b']
"""

from __future__ import annotations

from typing import Hashable, Sequence

K = 60


def rrf_scores(rankings: Sequence[Sequence[Hashable]], *, weights: Sequence[float] | None = None,
               k: int = K) -> dict[Hashable, float]:
    """Each item's fused score."""
    scores: dict[Hashable, float] = {}
    for i, ranking in enumerate(rankings):
        weight = weights[i] if weights else 1.0
        for rank, item in enumerate(ranking, 1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return scores


def rrf(rankings: Sequence[Sequence[Hashable]], *, weights: Sequence[float] | None = None,
        k: int = K) -> list[Hashable]:
    """The items of ``rankings``, best first (ties keep the order of first appearance)."""
    scores = rrf_scores(rankings, weights=weights, k=k)
    order = {item: i for i, item in enumerate(dict.fromkeys(x for r in rankings for x in r))}
    return sorted(scores, key=lambda item: (-scores[item], order[item]))
