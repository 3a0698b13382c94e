"""The system dictionary's surfaces as a trie of arrays: JapaneseTokenizer's FST lookup
(every surface that starts at a position), walked by the compiled search
(ja/search) one code unit at a time.

A node is a prefix of some surface. The children of the root are a table indexed by
code unit; the other edges (parent node, code unit) -> child sit in an open-addressing
hash table (linear probing, multiplicative hash).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from sparsebench.analysis.ja.dictionary import dictionary

HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # 2^64 / golden ratio, odd
EMPTY = -1


@dataclass(frozen=True)
class Trie:
    root_child: np.ndarray  # int32 (65536): node of a one-unit prefix, -1 for none
    table_keys: np.ndarray  # int64: parent << 16 | unit, -1 for an empty slot
    table_nodes: np.ndarray  # int32: the child
    shift: np.uint64  # 64 - log2(table size)
    surface: np.ndarray  # int32 (nodes): the surface a node spells, -1 for a mere prefix
    has_children: np.ndarray  # bool (nodes)


def _insert(keys: np.ndarray, values: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """An open-addressing table of the (distinct) keys, built a probe round at a time."""
    table_keys = np.full(1 << bits, EMPTY, dtype=np.int64)
    table_values = np.zeros(1 << bits, dtype=np.int32)
    shift = np.uint64(64 - bits)
    with np.errstate(over="ignore"):
        slots = ((keys.astype(np.uint64) * HASH_MULTIPLIER) >> shift).astype(np.int64)
    todo = np.arange(len(keys))
    while len(todo):
        free = table_keys[slots[todo]] == EMPTY
        free_slots, first = np.unique(slots[todo[free]], return_index=True)
        winners = todo[free][first]
        table_keys[free_slots] = keys[winners]
        table_values[free_slots] = values[winners]
        placed = np.zeros(len(keys), dtype=bool)
        placed[winners] = True
        todo = todo[~placed[todo]]
        slots[todo] = (slots[todo] + 1) & ((1 << bits) - 1)
    return table_keys, table_values


@cache
def trie() -> Trie:
    """The trie of the system dictionary's surfaces (built once per process).

    Surfaces are sorted, so the prefixes of a surface longer than its common prefix with
    the surface before are new nodes, numbered in (surface, length) order; the parent of
    a surface's first new node is the node of its common prefix, made by the last
    surface before it that had a new node at that depth."""
    d = dictionary()
    units = d.surface_units
    offsets = d.surface_offsets
    lengths = np.diff(offsets)
    n = len(lengths)
    # Common prefix with the surface before: the first depth where the units differ.
    owner = np.repeat(np.arange(n, dtype=np.int32), lengths)
    depth = np.arange(len(units), dtype=np.int32) - offsets[owner]
    previous = np.maximum(owner - 1, 0)
    same = (owner > 0) & (depth < lengths[previous])
    same[same] = units[(offsets[previous] + depth)[same]] == units[same]
    del previous
    differ = np.flatnonzero(~same)
    common = depth[differ[np.searchsorted(differ, offsets[:-1])]]  # no surface prefixes the next
    # New nodes: one per unit past the common prefix, numbered in order.
    is_new = depth >= common[owner]
    del owner, depth, same, differ
    node = np.cumsum(is_new, dtype=np.int32) - 1  # a new unit's node
    new_units = np.flatnonzero(is_new)
    nodes = len(new_units)
    first_new = offsets[:-1] + common  # each surface's first new unit
    parent = node[new_units] - 1  # the new node before, on the same surface
    at_first = np.searchsorted(new_units, first_new)
    parent[at_first] = -1
    for level in range(1, int(common.max()) + 1):  # the common prefix's node, by depth
        at = np.minimum(offsets[:-1] + level - 1, len(units) - 1)
        made = np.where((common < level) & (lengths >= level), node[at], -1)
        made = np.maximum.accumulate(made)
        rows = np.flatnonzero(common == level)
        parent[at_first[rows]] = made[rows]
    surface = np.full(nodes, -1, dtype=np.int32)
    surface[node[offsets[1:] - 1]] = np.arange(n)
    root_child = np.full(65536, -1, dtype=np.int32)
    root = parent < 0
    root_child[units[new_units[root]]] = np.flatnonzero(root)
    has_children = np.zeros(nodes, dtype=bool)
    has_children[parent[~root]] = True
    keys = (parent[~root].astype(np.int64) << 16) | units[new_units[~root]]
    bits = int(np.ceil(np.log2(len(keys) * 2)))
    table_keys, table_nodes = _insert(keys, np.flatnonzero(~root), bits)
    return Trie(
        root_child=root_child,
        table_keys=table_keys,
        table_nodes=table_nodes,
        shift=np.uint64(64 - bits),
        surface=surface,
        has_children=has_children,
    )
