"""Lucene 9.9.1's Snowball-stemmed analyzers: DanishAnalyzer, FinnishAnalyzer,
HungarianAnalyzer, DutchAnalyzer, NorwegianAnalyzer, RussianAnalyzer, SwedishAnalyzer and
TurkishAnalyzer, as Anserini builds them (the no-argument constructor).

Their chains, read from the 9.9.1 bytecode (createComponents):

- da, fi, hu, no, ru, sv: StandardTokenizer, LowerCaseFilter, StopFilter over
  snowball/<language>_stop.txt (WordlistLoader.getSnowballWordSet), SnowballFilter with
  org.tartarus.snowball.ext.<Language>Stemmer;
- nl: the same with dutch_stop.txt, and between StopFilter and SnowballFilter a
  StemmerOverrideFilter over DutchAnalyzer's default dictionary (below): a token equal to
  one of its words becomes that word's stem and is marked a keyword, which SnowballFilter
  leaves alone;
- tr: StandardTokenizer, ApostropheFilter, TurkishLowerCaseFilter, StopFilter over
  tr/stopwords.txt (WordlistLoader.getWordSet, '#' comments), SnowballFilter with
  TurkishStemmer.

Each adds a SetKeywordMarkerFilter only for a non-empty stem exclusion set, which the
default instance has not. The stemmers are Lucene's own, translated to Python
(snowball_ext/, snowball_program.py): Lucene generates them from Snowball 2.0.0, and
later Snowball releases (PyStemmer's) stem differently (Snowball 3's Dutch is another
algorithm), so PyStemmer cannot stand in. A stemmer works on UTF-16 code units as Java
does; a language's stems are remembered across batches (the cache restarts past a
million words). Where a generated routine loops a character at a time and dominates a
stemmer's time (Turkish's vowel harmony check, Dutch's prelude and postlude, Russian's
prelude, Finnish's tidying step), a subclass here gives it in closed form, checked against
the generated one on random words.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Container

import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.encode.lucene.chains import Chain
from sparsebench.encode.lucene.filters import (
    EMPTY_TERM,
    Filter,
    chained,
    lowercase,
    matching,
    only,
    snowball_word_set,
    stop,
    word_set,
)
from sparsebench.encode.lucene.snowball_ext import (
    danish,
    dutch,
    finnish,
    hungarian,
    norwegian,
    russian,
    swedish,
    turkish,
)
from sparsebench.encode.lucene.snowball_program import (
    SnowballProgram,
    from_utf16_units,
    to_utf16_units,
)
from sparsebench.encode.lucene.standard_tokenizer import tokenize_batch
from sparsebench.errors import ConfigError

# DutchAnalyzer.DefaultSetHolder.DEFAULT_STEM_DICT (constants in the class, not a file):
# token -> its stem, put in this order in a CharArrayMap (ignoreCase false).
DUTCH_STEM_OVERRIDES = {"fiets": "fiets", "bromfiets": "bromfiets", "ei": "eier", "kind": "kinder"}

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
    generated loop over eight vowels (and the syllable count before it as a regular
    expression), and remembered for the word being stemmed: the
    check reads only the word, limit_backward and the cursor, so a stretch seen before
    gives the same result and cursor again (test_snowball.py compares the check and
    whole stems with the generated ones on random words)."""

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
    """Lucene's FinnishStemmer with its tidying step (a third of its time: five
    backward steps each a run of cursor moves and checks) as string tests on the word
    before the cursor: the same word after it (the stem routine reads nothing else it
    leaves: it puts the cursor back from the end; test_snowball.py compares it with the
    generated routine on random words and regions)."""

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


def _suffix_first(generated: Callable[[SnowballProgram], bool], ends: Container[str]):
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
    """Lucene's DutchStemmer with its prelude and postlude, two thirds of its time (loops
    of one character a step), as a translation and a left-to-right substitution: the
    same word after each (test_snowball.py compares the two on random words)."""

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


_RUSSIAN_V = "".join(sorted(russian._G_V_1072_1103))
_RUSSIAN_REGIONS = re.compile(
    f"[^{_RUSSIAN_V}]*[{_RUSSIAN_V}]([{_RUSSIAN_V}]*[^{_RUSSIAN_V}][^{_RUSSIAN_V}]*[{_RUSSIAN_V}]"
    f"[{_RUSSIAN_V}]*[^{_RUSSIAN_V}])?"
)


class RussianStemmer(russian.RussianStemmer):
    """Lucene's RussianStemmer with its prelude ("\u0451" -> "\u0435", a loop of one
    character a step, inline in the generated stem routine and a third of its time) done
    before that routine, leaving bra, ket and the word as the loop does, with the cursor at
    the end, where the loop then stops at once; the regions are marked from the word's
    start, where the loop leaves the cursor (test_snowball.py compares whole stems with
    the generated stemmer's on random words)."""

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


# language -> (analyzer class, stemmer class, stopword file under resources/lucene)
ANALYZERS: dict[str, tuple[str, type[SnowballProgram], str]] = {
    "da": ("da.DanishAnalyzer", danish.DanishStemmer, "snowball/danish_stop.txt"),
    "fi": ("fi.FinnishAnalyzer", FinnishStemmer, "snowball/finnish_stop.txt"),
    "hu": ("hu.HungarianAnalyzer", hungarian.HungarianStemmer, "snowball/hungarian_stop.txt"),
    "nl": ("nl.DutchAnalyzer", DutchStemmer, "snowball/dutch_stop.txt"),
    "no": ("no.NorwegianAnalyzer", norwegian.NorwegianStemmer, "snowball/norwegian_stop.txt"),
    "ru": ("ru.RussianAnalyzer", RussianStemmer, "snowball/russian_stop.txt"),
    "sv": ("sv.SwedishAnalyzer", swedish.SwedishStemmer, "snowball/swedish_stop.txt"),
    "tr": ("tr.TurkishAnalyzer", TurkishStemmer, "snowball/tr_stopwords.txt"),
}

# language -> the characters a word needs for its stemmer to change it; words without
# (numbers, other scripts) skip the stemmer. A Russian word without a vowel (or "\u0451",
# a vowel after the prelude) has no region RV, where every suffix the stemmer removes
# lies; a Hungarian one has an empty region R1, which each of its routines checks after
# finding a suffix and before changing the word. test_snowball.py checks both on random
# words.
_STEMMED_ONLY_WITH = {
    "ru": f"[{_RUSSIAN_V}\u0451]",
    "hu": f"[{''.join(sorted(hungarian._G_V_97_369))}]",
}
_CACHE_SIZE = 1 << 20  # distinct words kept per language before its cache restarts
_OUTSIDE_BMP = re.compile("[\U00010000-\U0010ffff]")  # two UTF-16 code units each


class SnowballStems:
    """SnowballFilter with one of Lucene's stemmers, over distinct tokens; `overrides`
    is a StemmerOverrideFilter before it (its tokens are not stemmed). The terms of a
    language's tokens are remembered across batches and chains (each language has one
    stemmer and one set of overrides)."""

    _caches: dict[str, dict[str, str]] = {}

    def __init__(
        self, language: str, stemmer: type[SnowballProgram], overrides: dict[str, str] | None
    ) -> None:
        self._stemmer = stemmer()
        self._cache = SnowballStems._caches.setdefault(language, {})
        self._overrides = overrides or {}

    def stem(self, token: str) -> str:
        """The term of a token (not ""): its override, or its stem."""
        if token in self._overrides:
            return self._overrides[token]
        if _OUTSIDE_BMP.search(token) is None:
            stemmed = self._stemmer.stem(token)
        else:
            stemmed = from_utf16_units(self._stemmer.stem(to_utf16_units(token)))
        return stemmed or EMPTY_TERM

    def __call__(self, tokens: pa.Array) -> pa.Array:
        cache = self._cache
        out = []
        for token in tokens.to_pylist():
            stemmed = cache.get(token)
            if stemmed is None:
                if len(cache) >= _CACHE_SIZE:
                    cache.clear()
                stemmed = cache[token] = self.stem(token) if token else ""
            out.append(stemmed)
        return pa.array(out, type=pa.string())


def cut_at_apostrophe(tokens: pa.Array) -> pa.Array:
    """ApostropheFilter: a token ends before its first ' or ’ (Turkish suffixes follow
    an apostrophe after proper names: "Türkiye'de" -> "Türkiye")."""
    return pc.replace_substring_regex(tokens, pattern="['\u2019](?s:.*)", replacement="")


def turkish_lowercase(tokens: pa.Array) -> pa.Array:
    """TurkishLowerCaseFilter: "I" is dotless "ı" unless a U+0307 COMBINING DOT ABOVE
    follows it among the nonspacing marks after it, then it is "i" and those dots go;
    every other character takes its simple lowercase (LowerCaseFilter's, so "İ" -> "i")."""
    has_capital_i = pc.match_substring(tokens, "I")
    if pc.any(has_capital_i).as_py():
        fixed = [_turkish_capital_i(t) for t in pc.filter(tokens, has_capital_i).to_pylist()]
        tokens = pc.replace_with_mask(tokens, has_capital_i, pa.array(fixed, type=pa.string()))
    return lowercase(tokens)


def _turkish_capital_i(token: str) -> str:
    """The "I" part of TurkishLowerCaseFilter (the other characters are lowercased
    after, which cannot change it: nonspacing marks have no case)."""
    out = []
    after_i = False  # the filter's iOrAfter: on "I" and the nonspacing marks after it
    for i, ch in enumerate(token):
        after_i = ch == "I" or (after_i and unicodedata.category(ch) == "Mn")
        if after_i and ch == "\u0307":
            continue
        if ch == "I":
            if _before_dot(token, i + 1):
                out.append("i")
            else:
                out.append("\u0131")
                after_i = False
            continue
        out.append(ch)
    return "".join(out)


def _before_dot(token: str, start: int) -> bool:
    """TurkishLowerCaseFilter.isBeforeDot: a U+0307 among the nonspacing marks at start."""
    for ch in token[start:]:
        if unicodedata.category(ch) != "Mn":
            return False
        if ch == "\u0307":
            return True
    return False


def token_filter(language: str) -> Filter:
    """The filters after the tokenizer, in the analyzer's order."""
    _, stemmer, stop_file = ANALYZERS[language]
    overrides = DUTCH_STEM_OVERRIDES if language == "nl" else None
    stems = SnowballStems(language, stemmer, overrides)
    steps: list[Callable[[pa.Array], pa.Array]]
    if language == "tr":
        steps = [cut_at_apostrophe, turkish_lowercase, stop(word_set(stop_file))]
    else:
        steps = [lowercase, stop(snowball_word_set(stop_file))]
    if language in _STEMMED_ONLY_WITH:
        return chained(*steps, only(matching(_STEMMED_ONLY_WITH[language]), stems))
    return chained(*steps, stems)


def chain(language: str) -> Chain:
    """The Lucene analyzer of one of the languages of ANALYZERS."""
    if language not in ANALYZERS:
        raise ConfigError(
            f"no Snowball analyzer for language {language!r}; they are: "
            f"{', '.join(sorted(ANALYZERS))}"
        )
    return Chain(
        language=language,
        lucene_class=f"org.apache.lucene.analysis.{ANALYZERS[language][0]}",
        tokenize=tokenize_batch,
        filter=token_filter(language),
    )
