"""Work spread over threads, results in order, with only a few items in flight: numpy,
scipy and Arrow release the GIL in their loops, so threads share the cores without
copying arrays between processes."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from types import TracebackType
from typing import Generic, TypeVar

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


class ReadAhead(Generic[Item]):
    """The items of `items` taken in a thread of their own, at most `depth` ahead of
    the one who iterates: a file read (Arrow releases the GIL as it parses) while this
    thread imports modules or reads another file. An error raised by `items` is raised
    where its item would have come. Iterate once; close (or leave the `with` block) to
    stop the thread early."""

    _END = object()

    def __init__(self, items: Iterable[Item], depth: int) -> None:
        self._queue: queue.Queue = queue.Queue(maxsize=max(depth, 1))
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._fill, args=(items,), name="sparsebench-read-ahead", daemon=True
        )
        self._thread.start()

    def _fill(self, items: Iterable[Item]) -> None:
        try:
            for item in items:
                if not self._put(item):
                    return
        except BaseException as exc:  # handed to the reader, raised there  # noqa: BLE001
            self._put(_Raised(exc))
            return
        self._put(self._END)

    def _put(self, entry: object) -> bool:
        """Queue an entry, waiting for room unless closed; False once closed."""
        while not self._stop.is_set():
            try:
                self._queue.put(entry, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self) -> Iterator[Item]:
        while not self._stop.is_set():
            entry = self._queue.get()
            if entry is self._END:
                self._stop.set()
                return
            if isinstance(entry, _Raised):
                self._stop.set()
                raise entry.error
            yield entry

    def close(self) -> None:
        """Stop taking items (the one being taken is finished first) and let the thread end."""
        self._stop.set()
        self._thread.join()

    def __enter__(self) -> ReadAhead[Item]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class _Raised:
    """An error of the items, carried to the reader."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
