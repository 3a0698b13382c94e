"""Lucene's Snowball stemmers (snowball/generated/) with their hot generated routines in
closed form: where a routine loops a character at a time or is called many times a word
and dominates a stemmer's time (Turkish's vowel harmony check, syllable count and suffix
markers, Dutch's prelude and postlude, Russian's prelude and regions, Finnish's tidying
step), a subclass gives it as string operations or regular expressions, with the same
result. tests/analysis/test_snowball.py checks each against the generated routine
on random words, and whole stems against the generated stemmer's.

Speed layer (fast_*): a second implementation of the generated stemmers of
snowball/generated/, which it must equal; tests/analysis/test_snowball.py::test_stemmers
_with_closed_form_routines_stem_as_the_generated_ones and the closed-form routine tests
beside it hold them equal. Its speed is in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container

from sparsebench.analysis.snowball.generated import dutch, finnish, russian, turkish
from sparsebench.analysis.snowball.program import SnowballProgram

# r_check_vowel_harmony: the last vowel of a stretch, and the vowels that may come
# before it (the groupings VOWEL1..VOWEL6 the generated routine tries for each vowel).
_LAST_VOWEL = re.compile("[aeio\u00f6u\u00fc\u0131][^aeio\u00f6u\u00fc\u0131]*$")
_TWO_VOWELS = re.compile(
    "[aeio\u00f6u\u00fc\u0131][^aeio\u00f6u\u00fc\u0131]*[aeio\u00f6u\u00fc\u0131]"
)
_HARMONY = {
    vowel: re.compile(f"[{group}]")
    for vowel, group in {
        "a": "aou\u0131", "e": "ei\u00f6\u00fc", "\u0131": "a\u0131", "i": "ei",
        "o": "ou", "\u00f6": "\u00f6\u00fc", "u": "ou", "\u00fc": "\u00f6\u00fc",
    }.items()
}  # fmt: skip


class TurkishStemmer(turkish.TurkishStemmer):
    """Lucene's TurkishStemmer with its hot spot, the vowel harmony check (called about
    16 times a word, mostly on the same stretch), in closed form instead of the
    generated loop over eight vowels, and remembered for the word being stemmed (the
    check reads only the word, limit_backward and the cursor, so a stretch seen before
    gives the same result and cursor again); the syllable count as a regular
    expression; and the markers that check harmony before a suffix look for the suffix
    first (_suffix_first, below). test_snowball.py compares each routine and whole
    stems with the generated ones on random words."""

    __slots__ = ("_harmony",)

    def __init__(self) -> None:
        super().__init__()
        self._harmony: dict[tuple[str, int, int], int] = {}

    def stem(self, word: str) -> str:
        self._harmony.clear()
        return super().stem(word)

    def r_more_than_one_syllable_word(self) -> bool:
        """Two vowels after the cursor (the generated routine counts them all, one
        character a step); on failure the cursor after the one vowel, if any."""
        c, limit, current = self.cursor, self.limit, self.current
        if _TWO_VOWELS.search(current, c, limit) is not None:
            return True
        last = _LAST_VOWEL.search(current, c, limit)
        self.cursor = c if last is None else last.start() + 1
        return False

    def r_check_vowel_harmony(self) -> bool:
        key = (self.current, self.limit_backward, self.cursor)
        after = self._harmony.get(key)
        if after is None:
            after = self._harmony[key] = self._vowel_harmony()
        if after < 0:
            return True
        self.cursor = after
        return False

    def _vowel_harmony(self) -> int:
        """-1 if the stretch before the cursor is in vowel harmony, else the cursor the
        generated routine leaves on failure."""
        lb, c, current = self.limit_backward, self.cursor, self.current
        last = _LAST_VOWEL.search(current, lb, c)
        if last is None:
            return lb
        p = last.start()
        vowel = current[p]
        if _HARMONY[vowel].search(current, lb, p) is not None:
            return -1
        return lb if vowel == "\u00fc" else p + 1


# FinnishStemmer.r_tidy's letter groups: long vowels (among table 5), and the groupings.
_FINNISH_LONG = frozenset(s for s, *_ in finnish._A_5.entries)
_FINNISH_AEI, _FINNISH_C, _FINNISH_V1 = (
    finnish._G_AEI_97_228,
    finnish._G_C_98_122,
    finnish._G_V1_97_246,
)


class FinnishStemmer(finnish.FinnishStemmer):
    """Lucene's FinnishStemmer with its tidying step (a large share of its time: five
    backward steps each a run of cursor moves and checks; benchmarks/RESULTS.md,
    "Measurements behind the code") as string tests on the word before the cursor: the
    same word after it (the stem routine reads nothing else it leaves: it puts the
    cursor back from the end; test_snowball.py compares it with the generated routine
    on random words and regions)."""

    __slots__ = ()

    def r_tidy(self) -> bool:
        c, p1 = self.cursor, self.I_p1
        if c < p1:
            return False
        word, tail = self.current[:c], self.current[c : self.limit]
        # In R1: a long vowel's last letter; [aeiä] after a consonant; j after o or u;
        # o after j (each step on the word the one before leaves).
        if len(word) - p1 >= 2 and word[-2:] in _FINNISH_LONG:
            word = word[:-1]
        if len(word) - p1 >= 2 and word[-1] in _FINNISH_AEI and word[-2] in _FINNISH_C:
            word = word[:-1]
        if len(word) - p1 >= 2 and word[-1] == "j" and word[-2] in "ou":
            word = word[:-1]
        if len(word) - p1 >= 2 and word[-1] == "o" and word[-2] == "j":
            word = word[:-1]
        # Anywhere: a doubled consonant before the final vowels loses one.
        lb, e = self.limit_backward, len(word)
        while e > lb and word[e - 1] in _FINNISH_V1:
            e -= 1
        undoubled = e - lb >= 2 and word[e - 1] in _FINNISH_C and word[e - 2] == word[e - 1]
        if undoubled:
            word = word[: e - 1] + word[e:]
        self.current = word + tail
        self.limit = len(self.current)
        self.cursor = len(word)
        return undoubled


# TurkishStemmer's markers that check vowel harmony and then look for a suffix ending
# at the cursor: the last characters of the suffixes (an among table's, none of them
# empty, or a grouping of one-letter suffixes).
_TURKISH_MARKERS: dict[str, Container[str]] = {
    **{
        name: table.last
        for name, table in {
            "r_mark_nU": turkish._A_2, "r_mark_nUn": turkish._A_3, "r_mark_yA": turkish._A_4,
            "r_mark_nA": turkish._A_5, "r_mark_DA": turkish._A_6, "r_mark_ndA": turkish._A_7,
            "r_mark_DAn": turkish._A_8, "r_mark_ndAn": turkish._A_9,
            "r_mark_ylA": turkish._A_10, "r_mark_ncA": turkish._A_11,
            "r_mark_yUm": turkish._A_12, "r_mark_sUn": turkish._A_13,
            "r_mark_yUz": turkish._A_14, "r_mark_lAr": turkish._A_16,
            "r_mark_nUz": turkish._A_17, "r_mark_DUr": turkish._A_18,
            "r_mark_yDU": turkish._A_20, "r_mark_ymUs_": turkish._A_22,
        }.items()
        if not table.empty
    },
    "r_mark_sU": turkish._G_U_105_305,
    "r_mark_yU": turkish._G_U_105_305,
}  # fmt: skip


def _suffix_first(
    generated: Callable[[SnowballProgram], bool], ends: Container[str]
) -> Callable[[SnowballProgram], bool]:
    """A marker that fails at once where no suffix it looks for can end (the usual
    case), without the vowel harmony check before the look-up. Only the cursor a failed
    marker leaves can differ, and no routine reads it: Snowball restores the cursor
    after a failed command before going on (or, not, try, do, repeat), and a failure
    that reaches the stem routine ends it (test_snowball.py checks both on random
    words: whole stems, and stems with a random cursor after each failed check)."""

    def marker(self: SnowballProgram) -> bool:
        c = self.cursor
        if c > self.limit_backward and self.current[c - 1] in ends:
            return generated(self)
        return False

    return marker


for _name, _ends in _TURKISH_MARKERS.items():
    setattr(TurkishStemmer, _name, _suffix_first(getattr(turkish.TurkishStemmer, _name), _ends))


# DutchStemmer's prelude and postlude: accented vowels to plain ones, and "i" between
# vowels and "y" after one (or first) marked as consonants ("I", "Y"), and back.
_DUTCH_PLAIN_VOWELS = str.maketrans(
    "\u00e1\u00e4\u00e9\u00eb\u00ed\u00ef\u00f3\u00f6\u00fa\u00fc", "aaeeiioouu"
)
_DUTCH_CONSONANT_IY = re.compile("([aeiouy\u00e8])(i(?=[aeiouy\u00e8])|y)")
_DUTCH_UNMARK = str.maketrans("IY", "iy")


class DutchStemmer(dutch.DutchStemmer):
    """Lucene's DutchStemmer with its prelude and postlude, most of its time (loops of one
    character a step: benchmarks/RESULTS.md, "Measurements behind the code"), as a
    translation and a left-to-right substitution: the same word after each
    (test_snowball.py compares the two on random words)."""

    __slots__ = ()

    def r_prelude(self) -> bool:
        c, limit = self.cursor, self.limit
        word = self.current[c:limit].translate(_DUTCH_PLAIN_VOWELS)
        if word.startswith("y"):
            word = "Y" + word[1:]
        word = _DUTCH_CONSONANT_IY.sub(lambda m: m[1] + m[2].upper(), word)
        self.current = self.current[:c] + word + self.current[limit:]
        return True

    def r_postlude(self) -> bool:
        c, limit = self.cursor, self.limit
        self.current = self.current[:c] + self.current[c:limit].translate(_DUTCH_UNMARK)
        self.cursor = limit
        return True


RUSSIAN_VOWELS = "".join(sorted(russian._G_V_1072_1103))
_V = RUSSIAN_VOWELS
_RUSSIAN_REGIONS = re.compile(f"[^{_V}]*[{_V}]([{_V}]*[^{_V}][^{_V}]*[{_V}][{_V}]*[^{_V}])?")


class RussianStemmer(russian.RussianStemmer):
    """Lucene's RussianStemmer with its prelude ("\u0451" -> "\u0435", a loop of one
    character a step, inline in the generated stem routine) done before that routine,
    leaving bra, ket and the word as the loop does, with the cursor at the end, where
    the loop then stops at once; the regions are marked from the word's start, where the
    loop leaves the cursor (test_snowball.py compares whole stems with the generated
    stemmer's on random words, and the regions with the generated routine's)."""

    __slots__ = ()

    def stem(self, word: str) -> str:
        self.set_current(word)
        last = word.rfind("\u0451")
        if last >= 0:
            self.current = word.replace("\u0451", "\u0435")
            self.ket = last + 1
        self.cursor = self.limit
        self._stem()
        return self.current[: self.limit]

    def r_mark_regions(self) -> bool:
        """RV from after the first vowel, R2 from after a vowel, a non-vowel, a vowel
        and a non-vowel: one regular expression instead of four scans."""
        self.cursor = 0
        self.I_pV = self.I_p2 = self.limit
        found = _RUSSIAN_REGIONS.match(self.current, 0, self.limit)
        if found is not None:
            self.I_pV = found.start(1) if found[1] is not None else found.end()
            if found[1] is not None:
                self.I_p2 = found.end(1)
        return True
