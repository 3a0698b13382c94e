"""threads.ReadAhead: items in order, errors where they were raised, a bounded lead,
and a thread that ends when closed early."""

from __future__ import annotations

import threading
import time

import pytest

from sparsebench.core.threads import ReadAhead, ordered_map


def test_read_ahead_yields_every_item_in_order():
    with ReadAhead(iter(range(1000)), depth=4) as items:
        assert list(items) == list(range(1000))


def test_read_ahead_raises_the_error_after_the_items_before_it():
    def items():
        yield 1
        yield 2
        raise ValueError("line 3 is wrong")

    got = []
    with ReadAhead(items(), depth=8) as ahead, pytest.raises(ValueError, match="line 3"):
        for item in ahead:
            got.append(item)
    assert got == [1, 2]


def test_read_ahead_takes_at_most_depth_items_ahead():
    taken = []

    def items():
        for i in range(100):
            taken.append(i)
            yield i

    with ReadAhead(items(), depth=3) as ahead:
        first = next(iter(ahead))
        time.sleep(0.3)  # room for the thread to run as far ahead as it may
        assert first == 0
        # the one handed out, three queued, one taken and waiting for room
        assert len(taken) <= 5


def test_read_ahead_closed_early_ends_its_thread():
    endless = iter(int, 1)  # int() == 0 forever
    before = threading.active_count()
    ahead = ReadAhead(endless, depth=2)
    assert next(iter(ahead)) == 0
    ahead.close()
    assert threading.active_count() == before
    assert list(ahead) == []


def test_ordered_map_keeps_the_order_on_two_threads():
    def slow_square(n: int) -> int:
        time.sleep(0.001 * (n % 3))
        return n * n

    assert list(ordered_map(slow_square, range(30), threads=2)) == [n * n for n in range(30)]
