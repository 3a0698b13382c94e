"""Work spread over threads, results in order, with only a few items in flight: numpy,
scipy and Arrow release the GIL in their loops, so threads share the cores without
copying arrays between processes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def ordered_map(
    function: Callable[[Item], Result], items: Iterable[Item], threads: int
) -> Iterator[Result]:
    """function(item) for each item, in the items' order, `threads` at a time; at most
    threads + 1 items are taken from `items` before their results are, so memory stays
    bounded by a few items. One thread (or fewer): a plain map, in this thread."""
    if threads <= 1:
        yield from map(function, items)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        pending: list[Future[Result]] = []
        for item in items:
            pending.append(pool.submit(function, item))
            if len(pending) > threads:
                yield pending.pop(0).result()
        for job in pending:
            yield job.result()
