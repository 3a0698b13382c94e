"""Where the JDK's Thai word BreakIterator's text can be cut into pieces that break
independently (at spaces), and the breaks of such a piece (th/break_iterator's port).

Derived from the tables of OpenJDK's sun/text/RuleBasedBreakIterator (GNU General Public
License version 2 with the Classpath exception); see
sparsebench/resources/lucene/th/NOTICE.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

from sparsebench.analysis.th.break_data import (
    IGNORE,
    START,
    STOP,
    TABLES,
    char_class,
    word_rules,
)
from sparsebench.analysis.th.break_iterator import word_breaks
from sparsebench.core.errors import DataError


@cache
def piece_boundaries() -> re.Pattern:
    """Where the word iterator's text can be cut into pieces that break independently:
    after a space (the category of " ") and before a character that no state the space
    leads to continues with (nor a mark the DFA passes over, nor a surrogate): a
    `piece_starters` character.

    There every scan stops at the latest, so the position is a break, and the breaks on
    either side do not depend on the text across it; the only thing the scan reads across
    it is the character after the cut, which counts as a dictionary character if it is
    one (see `word_piece_breaks`). Checked here on the tables: a state a space leads to
    never waits for a lookahead at the end of the text, and one that accepts after the
    space without a lookahead is reached only from the start or another such state (a
    run of spaces, which holds no dictionary character, so no division reads past it).
    """
    spaces = np.flatnonzero(word_rules().bmp_categories() == word_rules().category(ord(" ")))
    return re.compile(f"(?<=[{char_class(spaces)}])(?=[{char_class(piece_starters())}])")


@cache
def piece_starters() -> np.ndarray:
    """The BMP characters a piece starts with after a space (`piece_boundaries`)."""
    rules = word_rules()
    space = rules.category(ord(" "))
    after = {row[space] for row in rules.state} - {STOP}
    continued = {k for t in after for k, nxt in enumerate(rules.state[t]) if nxt != STOP}
    for s, row in enumerate(rules.state):
        t = row[space]
        waits = rules.lookahead[t] and not rules.end[t]
        from_elsewhere = rules.end[t] and not rules.lookahead[t] and s not in after | {START}
        if t != STOP and (waits or from_elsewhere):
            raise DataError(f"{TABLES}: the word rules cannot be cut at spaces")
    code_points = np.arange(0x10000)
    category = rules.bmp_categories()
    stoppers = (category != IGNORE) & ~np.isin(category, sorted(continued))
    stoppers &= (code_points < 0xD800) | (code_points > 0xDFFF)
    return code_points[stoppers]


def word_piece_breaks(piece: str, dictionary_follows: bool) -> list[int]:
    """word_breaks of a piece cut at `piece_boundaries`, given whether the character after
    the cut (if any) is one of the dictionary's script."""
    if not dictionary_follows:
        return word_breaks(piece)
    breaks = word_breaks(piece + _DICTIONARY_LETTER)
    return breaks[: breaks.index(len(piece)) + 1]


_DICTIONARY_LETTER = "\u0e01"  # ก: any letter of the dictionary's script reads the same
