"""Drawing many figures at once: each a task (a function and its arguments) run by
processes forked from the report's job, which has imported the plotting libraries
already, so that a worker starts in milliseconds with nothing to import. Where the
platform cannot fork, or one worker is asked for, the tasks run in this process."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

Task = tuple[Callable[..., Any], tuple[Any, ...]]


def run_all(tasks: Sequence[Task], workers: int = 1) -> None:
    """Run every task, on up to `workers` forked processes; the first task that fails
    raises its error here once every task has ended."""
    workers = min(workers, len(tasks))
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for function, arguments in tasks:
            function(*arguments)
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = [pool.submit(function, *arguments) for function, arguments in tasks]
    for future in futures:
        future.result()
