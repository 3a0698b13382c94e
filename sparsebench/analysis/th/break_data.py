"""The data of the JDK's sentence and Thai word BreakIterators, and the Java character
facts ThaiTokenizer uses, as Java 21 (the Java Anserini runs on) has them
(resources/lucene/th, made by th/regenerate.py; see the README there): the DFA tables of
sun.text.RuleBasedBreakIterator (word rules of BreakIteratorRules_th, sentence rules of
BreakIteratorRules), the words of the Thai dictionary of sun.text.BreakDictionary
(thai_dict), and Character.isLetterOrDigit.

Texts are strings of UTF-16 code units (`utf16_units`: a character beyond U+FFFF as its
two surrogates), the JDK's indices.

The table layouts follow OpenJDK's sun/text/RuleBasedBreakIterator.java and
sun/text/BreakDictionary.java (GNU General Public License version 2 with the Classpath
exception; see sparsebench/resources/lucene/th/NOTICE).
"""

from __future__ import annotations

import bisect
import gzip
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from sparsebench.core.errors import DataError

RESOURCE_DIR = ("resources", "lucene", "th")
TABLES = "break_iterator_jdk21.npz"
# SHA-256 of the tables (arrays in sorted name order, name then raw bytes): an edit of the
# resource must come with an edit of this module, which reruns the stages using it.
TABLES_SHA256 = "af21f92fe436bdd4d199953104f87276d41372b828b3e187982fb7644cdb9e0c"
DICTIONARY = "thai_dict.txt.gz"
DICTIONARY_WORDS = 31_992

DONE = 0xFFFF  # CharacterIterator.DONE: a scan stops at it, even in the text
IGNORE = -1  # the category of characters the DFA passes over (marks, format characters)
START, STOP = 1, 0  # DFA states
_SURROGATES = "\ud800-\udfff"
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _resource(name: str):
    return resources.files("sparsebench").joinpath(*RESOURCE_DIR, name)


@cache
def _arrays() -> dict[str, np.ndarray]:
    with _resource(TABLES).open("rb") as handle, np.load(handle) as archive:
        arrays = {name: archive[name] for name in archive.files}
    digest = hashlib.sha256()
    for name in sorted(arrays):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(arrays[name]).tobytes())
    if digest.hexdigest() != TABLES_SHA256:
        raise DataError(f"{TABLES}: the break iterator tables are not the expected ones")
    return arrays


def utf16_units(text: str) -> str:
    """The text with each character beyond U+FFFF as its two surrogates (the JDK's chars)."""
    if text.isascii() or max(text) <= "\uffff":
        return text
    return _ASTRAL.sub(lambda m: _surrogate_pair(ord(m.group())), text)


def _surrogate_pair(code_point: int) -> str:
    code_point -= 0x10000
    return chr(0xD800 | (code_point >> 10)) + chr(0xDC00 | (code_point & 0x3FF))


def from_utf16_units(units: str) -> str:
    """Surrogate pairs joined again; a lone surrogate becomes U+FFFD, as Lucene indexes it."""
    if not re.search(f"[{_SURROGATES}]", units):
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def char_class(code_points: np.ndarray) -> str:
    """A regular-expression character class body for a sorted array of BMP code points."""
    if not len(code_points):
        return ""
    breaks = np.nonzero(np.diff(code_points) != 1)[0]
    starts = np.concatenate(([code_points[0]], code_points[breaks + 1]))
    ends = np.concatenate((code_points[breaks], [code_points[-1]]))
    return "".join(
        re.escape(chr(s)) if s == e else f"{re.escape(chr(s))}-{re.escape(chr(e))}"
        for s, e in zip(starts.tolist(), ends.tolist(), strict=True)
    )


@dataclass(frozen=True)
class Rules:
    """One DFA: RuleBasedBreakIterator's tables, and the runs each state skips."""

    state: list[list[int]]  # state -> category -> next state
    end: list[bool]  # accepting states
    lookahead: list[bool]  # states that start or end a lookahead
    dictionary: list[bool]  # category -> in the dictionary's script (word rules only)
    bmp: bytes  # code point -> category + 1 (0: IGNORE), for U+0000-U+FFFF
    astral_start: list[int]  # SupplementaryCharacterData: range starts (and a sentinel)
    astral_category: list[int]
    skip: list[re.Pattern | None]  # state -> a run of characters it loops on, if any
    skip_counts: list[bool]  # state -> whether its loop characters are dictionary ones

    def bmp_categories(self) -> np.ndarray:
        """The category of every BMP character (IGNORE for those the DFA passes over)."""
        return np.frombuffer(self.bmp, dtype=np.uint8).astype(np.int64) - 1

    def category(self, c: int) -> int:
        """RuleBasedBreakIterator.lookupCategory."""
        if c < 0x10000:
            return self.bmp[c] - 1
        k = bisect.bisect_right(self.astral_start, c) - 1
        return self.astral_category[k]


def _rules(name: str) -> Rules:
    a = _arrays()
    state = a[f"{name}_state"].astype(np.int64)
    end = a[f"{name}_end"]
    lookahead = a[f"{name}_lookahead"]
    bmp = a[f"{name}_bmp"].astype(np.int64)
    n_categories = state.shape[1]
    dictionary = a.get(f"{name}_dictionary", np.zeros(n_categories, dtype=bool))
    if not (bmp.min() >= -1 and bmp.max() < n_categories and 0 < n_categories < 255):
        raise DataError(f"{TABLES}: the {name} categories are out of range")
    # A state's run: characters of the BMP (no surrogates) on which the DFA stays in that
    # state, where stepping over them changes only the break position (and the count of
    # dictionary characters: a state whose loop counts passes over no IGNORE character).
    code_points = np.arange(0x10000)
    plain = (code_points < 0xD800) | (code_points > 0xDFFF)
    plain[DONE] = False
    skip, skip_counts = [], []
    for s in range(len(end)):
        loops = np.nonzero(state[s] == s)[0]
        counted = dictionary[loops]
        if s == STOP or lookahead[s] or not len(loops) or counted.any() != counted.all():
            skip.append(None)
            skip_counts.append(False)
            continue
        members = np.isin(bmp, loops) | ((bmp == IGNORE) & ~counted.all())
        members = code_points[plain & members]
        skip.append(re.compile(f"[{char_class(members)}]+"))
        skip_counts.append(bool(counted.all()))
    return Rules(
        state=state.tolist(),
        end=end.tolist(),
        lookahead=lookahead.tolist(),
        dictionary=dictionary.tolist(),
        bmp=bytes((bmp + 1).tolist()),
        astral_start=a[f"{name}_astral_start"].tolist(),
        astral_category=a[f"{name}_astral_category"].tolist(),
        skip=skip,
        skip_counts=skip_counts,
    )


@cache
def word_rules() -> Rules:
    """The rules of BreakIterator.getWordInstance(new Locale("th"))."""
    return _rules("word")


@cache
def sentence_rules() -> Rules:
    """The rules of BreakIterator.getSentenceInstance(Locale.ROOT)."""
    return _rules("sentence")


@dataclass(frozen=True)
class Dictionary:
    """BreakDictionary: the JDK's Thai words as a minimal automaton (the JDK's trie is one,
    every state of it leading to a word, so its behaviour is that of its word list).

    State 0 is the root and the error state; -1 is "a word ended before this character".
    """

    transitions: dict[int, int]  # state << 7 | (character - U+0E00) -> next state
    final: list[bool]  # state -> a word ends here
    columns: frozenset[str]  # the characters the dictionary knows (all in U+0E01-U+0E7F)

    def next_state(self, state: int, c: int) -> int:
        """BreakDictionary.getNextStateFromCharacter."""
        if 0xE00 < c < 0xE80 and chr(c) in self.columns:
            return self.transitions.get(state << 7 | (c - 0xE00), 0)
        return -1 if self.final[state] else 0


@cache
def dictionary() -> Dictionary:
    with _resource(DICTIONARY).open("rb") as handle:
        words = gzip.decompress(handle.read()).decode("utf-8").split("\n")[:-1]
    columns = frozenset("".join(words))
    if len(words) != DICTIONARY_WORDS or not all("\u0e00" < c < "\u0e80" for c in columns):
        raise DataError(f"{DICTIONARY}: not the JDK's {DICTIONARY_WORDS} Thai words")
    transitions, final = _minimal_automaton(words)
    return Dictionary(transitions=transitions, final=final, columns=columns)


def _minimal_automaton(words: list[str]) -> tuple[dict[int, int], list[bool]]:
    """The minimal automaton of sorted words (Daciuk et al.'s incremental construction)."""
    edges: list[dict[str, int]] = [{}]
    final = [False]
    register: dict[tuple, int] = {}
    path = [0]  # the states along the previous word
    previous = ""

    def settle(depth: int) -> None:  # register the states of `path` below depth
        for j in range(len(path) - 1, depth, -1):
            child = path[j]
            key = (final[child], tuple(sorted(edges[child].items())))
            if key in register:
                edges[path[j - 1]][previous[j - 1]] = register[key]
            else:
                register[key] = child
        del path[depth + 1 :]

    for word in words:
        if word <= previous:
            raise DataError(f"{DICTIONARY}: the words are not sorted and distinct")
        common = 0
        while common < min(len(word), len(previous)) and word[common] == previous[common]:
            common += 1
        settle(common)
        for ch in word[common:]:
            edges.append({})
            final.append(False)
            edges[path[-1]][ch] = len(edges) - 1
            path.append(len(edges) - 1)
        final[path[-1]] = True
        previous = word
    settle(0)
    kept = sorted(set(register.values()) | {0})
    number = {old: new for new, old in enumerate(kept)}
    transitions = {
        number[s] << 7 | (ord(ch) - 0xE00): number[t] for s in kept for ch, t in edges[s].items()
    }
    return transitions, [final[s] for s in kept]


@cache
def _letter_or_digit() -> tuple[bytes, list[int], list[int]]:
    a = _arrays()
    starts, ends = a["letter_or_digit_start"], a["letter_or_digit_end"]
    bmp = np.zeros(0x10000, dtype=np.uint8)
    for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
        bmp[s : min(e, 0x10000)] = 1
    astral = starts >= 0x10000
    return bmp.tobytes(), starts[astral].tolist(), ends[astral].tolist()


def letters_or_digits_bmp() -> np.ndarray:
    """is_letter_or_digit of U+0000-U+FFFF, as a boolean array."""
    return np.frombuffer(_letter_or_digit()[0], dtype=np.uint8).astype(bool)


def is_letter_or_digit(code_point: int) -> bool:
    """Character.isLetterOrDigit (Java 21, Unicode 15.0)."""
    bmp, starts, ends = _letter_or_digit()
    if code_point < 0x10000:
        return bmp[code_point] == 1
    k = bisect.bisect_right(starts, code_point) - 1
    return k >= 0 and code_point < ends[k]


def code_point_at(text: str, index: int) -> int:
    """Character.codePointAt(char[], index, limit = len(text))."""
    c = ord(text[index])
    if 0xD800 <= c < 0xDC00 and index + 1 < len(text):
        low = ord(text[index + 1])
        if 0xDC00 <= low < 0xE000:
            return ((c - 0xD800) << 10) + (low - 0xDC00) + 0x10000
    return c
