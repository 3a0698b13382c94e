"""SEARCH mode's decompounding of one too-long word on a best path
(JapaneseTokenizer.backtrace with pruneAndRescore): a small search of the words under it,
run once per distinct compound in context (the tokenizer memoises it).

Derived from Apache Lucene (org.apache.lucene.analysis.ja.JapaneseTokenizer), licensed
under the Apache License, Version 2.0; see sparsebench/resources/lucene/ja/NOTICE.
"""

from __future__ import annotations

from sparsebench.encode.lucene.japanese_dictionary import Connections


def second_best(
    span: tuple[tuple[int, int, int, int], ...],
    compound: tuple[int, int],
    right: int,
    last_left: int,
    left: list[int],
    costs: Connections,
    word_cost: list[int],
) -> list[tuple[int, int, int]] | None:
    """The best path under a too-long word of a best path, if SEARCH mode takes it.

    span: the words (start, end, word, penalty) from the compound's start to its end,
    in Java's order, positions relative to its start; compound: the too-long word
    (word, length) among them; right: the right id of the word before it; last_left: the left id of
    the word after it on the output (-1 at the end of the Java search's backtrace). As
    JapaneseTokenizer.backtrace: the words under the compound are rescored with the
    length penalties (pruneAndRescore), and the best path ending at its end, plus the
    connection to the next word, replaces it when that costs no more than the compound
    plus its penalty and does not start with a word spanning the same characters.
    Costs are relative to the path cost at the compound's start."""
    c_word, end = compound
    c_penalty = next(p for s, e, w, p in span if s == 0 and e == end and w == c_word)
    flat, size = costs.flat, costs.size
    # Per end position: the entries' costs, their connection rows (right id * size), and
    # (start, index of the entry there, word).
    cost_at: dict[int, list[int]] = {}
    row_at: dict[int, list[int]] = {}
    back_at: dict[int, list[tuple[int, int, int]]] = {}
    start_row = right * size
    for start, stop, word, penalty in span:
        to_left = left[word]
        if start == 0:
            cost, least_index = flat[start_row + to_left], -1
        else:
            here = cost_at.get(start)
            if not here:
                continue
            totals = [c + flat[r + to_left] for c, r in zip(here, row_at[start], strict=True)]
            cost = min(totals)
            least_index = totals.index(cost)
        if stop not in cost_at:
            cost_at[stop], row_at[stop], back_at[stop] = [], [], []
        cost_at[stop].append(cost + word_cost[word] + penalty)
        row_at[stop].append(to_left * size)
        back_at[stop].append((start, least_index, word))
    max_cost = flat[start_row + left[c_word]] + word_cost[c_word] + c_penalty
    ending = cost_at.get(end)
    if not ending:
        return None
    if last_left != -1:
        max_cost += costs(left[c_word], last_left)
        ending = [c + flat[r + last_left] for c, r in zip(ending, row_at[end], strict=True)]
    least = min(ending)
    best = ending.index(least)
    if least > max_cost or back_at[end][best][0] == 0:
        return None
    path, pos = [], end
    while pos > 0:
        back, back_index, word = back_at[pos][best]
        path.append((back, pos, word))
        pos, best = back, back_index
    return path[::-1]
