"""Lucene 9.9.1's Snowball analyzers (da fi hu nl no ru sv tr), term for term.

Every expected term was produced by the real Java: Lucene 9.9.1 (the Anserini 1.7.1
fatjar), each analyzer's default instance. The hand cases are the hard parts: stopwords
in capitals, Dutch's stem overrides, Turkish apostrophes and dotted/dotless I, stems
that Snowball 3 (PyStemmer) gives differently, characters outside the BMP (Java counts
two code units), and Turkish words the stemmer cuts to nothing. data/<language>.tsv.gz
holds about 2,500 texts per language (translated messages of Debian's gettext
catalogues, faker text of the locale, adversarial mixes of the Snowball vocabularies)
with Lucene's terms: a line is the text, the number of terms, then the terms, TAB-
separated and escaped (\\\\ \\n \\t \\r), an empty term as an empty field.
"""

from __future__ import annotations

import gzip
import inspect
import random
import re
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from sparsebench.analysis.snowball import analyzer as snowball
from sparsebench.analysis.snowball import fast_routines as snowball_stemmers
from sparsebench.analysis.snowball.analyzer import EMPTY_TERM, STEMMERS, chain
from sparsebench.analysis.snowball.generated import dutch, finnish, hungarian, russian, turkish
from sparsebench.analysis.snowball.program import (
    Among,
    SnowballProgram,
    from_utf16_units,
    to_utf16_units,
)
from sparsebench.analysis.standard_tokenizer import tokenize_batch
from sparsebench.core.errors import ConfigError

DATA = Path(__file__).parent / "data"
LANGUAGES = sorted(STEMMERS)

HAND = {
    "da": [
        ("Og HESTENE løb over broen", ["hest", "løb", "broen"]),
        ("løst løsning virkeligheden", ["løst", "løsning", "virk"]),
        ("a\U0001d51egte a\U0001d51egtelse", ["a\U0001d51eg", "a\U0001d51eg"]),
        ("İstanbul ÅRHUS Ærø", ["istanbul", "århus", "ærø"]),
    ],
    "fi": [
        ("ajatollahin kirjoissa JA taloissa", ["ajatollahin", "kirj", "talo"]),
        ("Helsingissä ja Turussa", ["helsing", "turu"]),
        ("agathon abachan", ["agathon", "abachan"]),
    ],
    "hu": [
        ("A házakban és a kertekben", ["ház", "kert"]),
        ("Budapesten kéményseprő", ["budapest", "kéményseprő"]),
        ("őrizetben ŰRHAJÓS", ["őrizet", "űrhajós"]),
    ],
    "nl": [
        ("fiets fietsen bromfiets Bromfietsen", ["fiets", "fiets", "bromfiets", "bromfiets"]),
        ("ei eieren kind Kinderen kinderen", ["eier", "eier", "kinder", "kinder", "kinder"]),
        ("aalmoezen aalsmeer lichamelijke", ["aalmoez", "aalsmer", "licham"]),
        ("De huizen van het DORP", ["huiz", "dorp"]),
        ("e\U0001d51eenheden", ["e\U0001d51e"]),
    ],
    "no": [
        ("binders asters avers", ["bind", "ast", "aver"]),
        ("Og bilene kjørte", ["bil", "kjørt"]),
        ("a\U0001d51evta blóta", ["a\U0001d51ev", "blóta"]),
    ],
    "ru": [
        ("Москва и ГОРОДА России", ["москв", "город", "росс"]),
        ("бежавший ёлки ЁЖИК", ["бежа", "елк", "ежик"]),
        ("красивейший", ["красив"]),
    ],
    "sv": [
        ("aftonbladet aftaget adertonhundratal", ["aftonbladet", "aftaget", "adertonhundratal"]),
        ("OCH husen i STADEN", ["hus", "stad"]),
        ("a\U0001d51egda a\U0001d51ekta", ["a\U0001d51eg", "a\U0001d51ek"]),
    ],
    "tr": [
        ("Türkiye'de Ankara’nın", ["türki", "ankar"]),
        ("IŞIK KIRMIZI İstanbul", ["ışık", "kırmız", "istanbul"]),
        ("I\u0307stanbul I\u0301\u0307s I\u0300s", ["istanbul", "i\u0301s", "ı\u0300s"]),
        ("leri ları dosya(ları) sunuz", ["", "", "dosya", "", ""]),
        ("ve bir şey", []),
        ("aa'nın a\U0001d51edım a\U0001d51edımlar", ["aa", "a\U0001d51edı", "a\U0001d51edım"]),
        ("Iı iİ", ["ıı", "ii"]),
    ],
}


def analyze(language: str, texts: list[str]) -> list[list[str]]:
    """Each text's terms, in order, as the chain gives them (Lucene's empty term as "")."""
    c = chain(language)
    text_index, tokens = c.tokenize(pa.array(texts, type=pa.string()))
    encoded = pc.dictionary_encode(tokens)
    terms = c.filter(encoded.dictionary).to_pylist()
    out: list[list[str]] = [[] for _ in texts]
    for text, term_id in zip(text_index.tolist(), encoded.indices.to_pylist(), strict=True):
        term = terms[term_id]
        if term:
            out[text].append("" if term == EMPTY_TERM else term)
    return out


def unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"n": "\n", "t": "\t", "r": "\r"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def lucene_texts(language: str) -> tuple[list[str], list[list[str]]]:
    texts, expected = [], []
    with gzip.open(DATA / f"{language}.tsv.gz", "rt", encoding="utf-8") as f:
        for line in f.read().split("\n")[:-1]:
            text, count, *terms = line.split("\t")
            assert len(terms) == int(count)
            texts.append(unescape(text))
            expected.append([unescape(t) for t in terms])
    return texts, expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_hand_cases_equal_lucene(language):
    texts = [text for text, _ in HAND[language]]
    assert analyze(language, texts) == [terms for _, terms in HAND[language]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_real_texts_equal_lucene(language):
    texts, expected = lucene_texts(language)
    assert len(texts) >= 2000
    for text, want, got in zip(texts, expected, analyze(language, texts), strict=True):
        assert got == want, f"text {text!r}: Lucene {want}, here {got}"


def test_unknown_language_is_refused():
    with pytest.raises(ConfigError, match="no Snowball analyzer for language 'de'"):
        chain("de")


def test_the_empty_term_is_a_term_no_token_can_be():
    """TurkishStemmer cuts "leri" to nothing; Lucene indexes that empty term, so the
    chain keeps it as EMPTY_TERM, a character StandardTokenizer never keeps."""
    assert chain("tr").filter(pa.array(["leri", "paket"])).to_pylist() == [EMPTY_TERM, "paket"]
    _, tokens = tokenize_batch(pa.array([EMPTY_TERM, f"a{EMPTY_TERM}b {EMPTY_TERM}1"]))
    assert tokens.to_pylist() == ["a", "b", "1"]


def test_utf16_units_round_trip_and_unpaired_surrogates():
    word = "a\U0001d51eb\U00010400"
    units = to_utf16_units(word)
    assert [hex(ord(u)) for u in units[1:3]] == ["0xd835", "0xdd1e"] and len(units) == 6
    assert from_utf16_units(units) == word
    assert from_utf16_units(units[:2]) == "a\ufffd"  # as Lucene writes it into the index


class _Unset:
    """A field's value before the word sets it: any use raises."""

    def _fail(self, *args):
        raise AssertionError("a stemmer read a field its word had not set")

    __bool__ = __eq__ = __lt__ = __le__ = __gt__ = __ge__ = __len__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __index__ = __hash__ = _fail


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_stem_depends_on_its_word_alone(language):
    """Lucene reuses one stemmer for a whole token stream and the chain stems each
    distinct token once, so no routine may read a field before the word writes it."""
    texts, _ = lucene_texts(language)
    _, tokens = chain(language).tokenize(pa.array(texts[:300], type=pa.string()))
    stemmer = STEMMERS[language]()
    for word in sorted(set(pc.utf8_lower(tokens).to_pylist())):
        for name in stemmer.FIELDS:
            setattr(stemmer, name, _Unset())  # a read before a write raises
        stem = stemmer.stem(to_utf16_units(word))
        assert stem == STEMMERS[language]().stem(to_utf16_units(word)), word


def java_find_among(program: SnowballProgram, v: Among, backward: bool) -> int:
    """SnowballProgram.find_among / find_among_b of Lucene 9.9.1, line by line: the
    binary search, then the substring_i links."""
    entries = v.entries
    i, j = 0, len(entries)
    c = program.cursor
    bound = program.limit_backward if backward else program.limit
    common_i = common_j = 0
    first_key_inspected = False
    while True:
        k = i + ((j - i) >> 1)
        diff = 0
        common = min(common_i, common_j)
        s = entries[k][0]
        for i2 in range(len(s) - 1 - common, -1, -1) if backward else range(common, len(s)):
            if (c - common if backward else c + common) == bound:
                diff = -1
                break
            at = c - 1 - common if backward else c + common
            diff = ord(program.current[at]) - ord(s[i2])
            if diff:
                break
            common += 1
        if diff < 0:
            j, common_j = k, common
        else:
            i, common_i = k, common
        if j - i <= 1:
            if i > 0 or j == i or first_key_inspected:
                break
            first_key_inspected = True
    while True:
        s, substring_i, result, routine = entries[i]
        if common_i >= len(s):
            program.cursor = c - len(s) if backward else c + len(s)
            if routine is None:
                return result
            ok = getattr(program, routine)()
            program.cursor = c - len(s) if backward else c + len(s)
            if ok:
                return result
        i = substring_i
        if i < 0:
            return 0


def among_tables(language: str) -> list[tuple[Among, bool]]:
    """Each among table of a language's stemmer and whether it is searched backwards
    (a table is sorted for the direction its stemmer searches it in)."""
    generated = next(c for c in STEMMERS[language].__mro__ if ".generated." in c.__module__)
    module = sys.modules[generated.__module__]
    source = inspect.getsource(module)
    tables = []
    for name, v in vars(module).items():
        if isinstance(v, Among):
            directions = set(re.findall(rf"self\.find_among(_b)?\({name}\)", source))
            assert len(directions) == 1, name
            tables.append((v, directions == {"_b"}))
    return tables


def find_both_ways(program: SnowballProgram, v: Among, backward: bool, word: str, start: int):
    """(result, cursor) of Java's search and of the dict look-up from the same state."""
    found = []
    for java in (True, False):
        program.set_current(word)
        program.cursor = start
        program.limit_backward = start // 2 if backward else 0
        if java:
            result = java_find_among(program, v, backward)
        else:
            result = (program.find_among_b if backward else program.find_among)(v)
        found.append((result, program.cursor))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_among_lookup_equals_javas_search(language):
    """The dict look-up of find_among(_b) returns what Java's search returns and leaves
    the cursor where it does, on strings made of the tables' own strings."""
    rnd = random.Random(language)
    program = STEMMERS[language]()
    for v, backward in among_tables(language):
        pieces = [s for s, *_ in v.entries] + ["", "x", "a"]
        for _ in range(500):
            word = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 3)))
            start = rnd.randint(0, len(word))
            java, here = find_both_ways(program, v, backward, word, start)
            assert here == java, (word, start)


@pytest.mark.parametrize("routine", ["r_check_vowel_harmony", "r_more_than_one_syllable_word"])
def test_turkish_routines_in_closed_form_equal_the_generated_ones(routine):
    """The closed-form vowel harmony check and syllable count return what the
    generated routines return and leave the cursor where they do, on random stretches
    of Turkish letters (the same stemmer throughout: the harmony check remembers)."""
    rnd = random.Random(7)
    fast, generated = snowball_stemmers.TurkishStemmer(), turkish.TurkishStemmer()
    letters = "aeıioöuübcçdfgğhkmnsşxAİ'"
    for _ in range(20_000):
        word = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 10)))
        cursor = rnd.randint(0, len(word))
        lower = rnd.randint(0, cursor)
        limit = rnd.randint(cursor, len(word))
        found = []
        for program in (fast, generated):
            program.set_current(word)
            program.cursor, program.limit_backward, program.limit = cursor, lower, limit
            ok = getattr(program, routine)()
            found.append((ok, program.cursor))
        assert found[0] == found[1], (word, cursor, lower, limit)


def test_finnish_tidying_in_closed_form_equals_the_generated_routine():
    """The word (and its length) after the tidying step, from random cursors, regions
    and lower limits, as the generated routine leaves it."""
    rnd = random.Random(9)
    fast, generated = snowball_stemmers.FinnishStemmer(), finnish.FinnishStemmer()
    letters = "aeiouyäöjkkllmnpsttvhx"
    for _ in range(30_000):
        word = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 10)))
        cursor = rnd.randint(0, len(word))
        lower = rnd.randint(0, cursor)
        p1 = rnd.randint(0, len(word))
        found = []
        for program in (fast, generated):
            program.set_current(word)
            program.cursor, program.limit_backward, program.I_p1 = cursor, lower, p1
            ok = program.r_tidy()
            found.append((ok, program.current[: program.limit], program.limit))
            assert program.limit_backward == lower
        assert found[0] == found[1], (word, cursor, lower, p1)


def test_russian_regions_in_closed_form_equal_the_generated_routine():
    """RV and R2 (and the cursor after) as the generated routine marks them from the
    word's start, on random words of vowels, consonants and other letters."""
    rnd = random.Random(13)
    fast, generated = snowball_stemmers.RussianStemmer(), russian.RussianStemmer()
    letters = "аеиоуыэюяёбвгджзйклмнпрстфхцчшщъьx1"
    for _ in range(30_000):
        word = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 10)))
        limit = rnd.randint(0, len(word))
        found = []
        for program in (fast, generated):
            program.set_current(word)
            program.limit = limit
            ok = program.r_mark_regions()
            found.append((ok, program.I_pV, program.I_p2, program.cursor))
        assert found[0] == found[1], (word, limit)


def turkish_words(rnd: random.Random, n: int) -> list[str]:
    """Random Turkish-looking words: letters, then suffixes of the stemmer's tables."""
    module = vars(turkish)
    suffixes = [s for v in module.values() if isinstance(v, Among) for s, *_ in v.entries]
    letters = "aeıioöuübcçdfgğhklmnprsştyz'"
    return [
        "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 7)))
        + "".join(rnd.choice(suffixes) for _ in range(rnd.randint(0, 4)))
        for _ in range(n)
    ]


def test_no_turkish_routine_reads_the_cursor_a_failed_marker_leaves():
    """The premise of the suffix-first markers: with the cursor put anywhere after each
    failed marker, the generated stemmer stems every word as before."""
    rnd = random.Random(3)

    def scrambled(generated):
        def marker(self):
            ok = generated(self)
            if not ok:
                self.cursor = rnd.randint(self.limit_backward, self.limit)
            return ok

        return marker

    markers = {
        n: scrambled(getattr(turkish.TurkishStemmer, n)) for n in snowball_stemmers._TURKISH_MARKERS
    }
    scrambling = type("Scrambling", (turkish.TurkishStemmer,), {"__slots__": (), **markers})
    ours, theirs = scrambling(), turkish.TurkishStemmer()
    for word in turkish_words(rnd, 20_000):
        assert ours.stem(word) == theirs.stem(word), word


def test_turkish_suffix_first_markers_stem_as_the_generated_ones():
    """Whole stems with the suffix-first markers, on words of the tables' suffixes."""
    rnd = random.Random(4)
    ours, theirs = snowball_stemmers.TurkishStemmer(), turkish.TurkishStemmer()
    for word in turkish_words(rnd, 20_000):
        assert ours.stem(word) == theirs.stem(word), word


@pytest.mark.parametrize(
    ("fast", "generated", "letters"),
    [
        (snowball_stemmers.TurkishStemmer, turkish.TurkishStemmer, "aeıioöuübcçdfgğhklmnprsştyz'"),
        (snowball_stemmers.DutchStemmer, dutch.DutchStemmer, "aeiouyèáäéëíïóöúüIYbdgkhjlmnrstvz"),
        (snowball_stemmers.RussianStemmer, russian.RussianStemmer, "аеёиоуыэюяйвмнстхшьъ"),
        (snowball_stemmers.FinnishStemmer, finnish.FinnishStemmer, "aeiouyäöjklmnpstvhdgrb"),
    ],
)
def test_stemmers_with_closed_form_routines_stem_as_the_generated_ones(fast, generated, letters):
    """Whole stems, on random words (and words made of suffixes and vowel clusters)."""
    rnd = random.Random(fast.__name__)
    ours, theirs = fast(), generated()
    module = vars(sys.modules[generated.__module__])
    suffixes = [s for v in module.values() if isinstance(v, Among) for s, *_ in v.entries]
    for _ in range(20_000):
        word = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 12)))
        assert ours.stem(word) == theirs.stem(word), word
        word = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 6)))
        word += "".join(rnd.choice(suffixes) for _ in range(rnd.randint(0, 3)))
        assert ours.stem(word) == theirs.stem(word), word


@pytest.mark.parametrize(
    ("language", "module", "others"),
    [
        ("ru", russian, "бвгджзйклмнпрстфхцчшщъь09x_\U0001d51e"),
        ("hu", hungarian, "bcdfghjklmnpqrstvwxyzčłß09_\U0001d51e"),
    ],
)
def test_words_without_a_vowel_are_their_own_stems(language, module, others):
    """The Russian and Hungarian chains skip the stemmer for words without a vowel: the
    generated stemmer leaves them as they are, on random words of consonants, signs,
    digits, other letters and the tables' suffixes without their vowels."""
    vowel = re.compile(snowball._STEMMED_ONLY_WITH[language][0])
    tables = [v for v in vars(module).values() if isinstance(v, Among)]
    pieces = [vowel.sub("", s) for v in tables for s, *_ in v.entries] + list(others)
    rnd = random.Random(11)
    stemmer = STEMMERS[language]()
    generated = next(c for c in type(stemmer).__mro__ if c.__module__ == module.__name__)()
    for _ in range(20_000):
        word = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 8)))
        assert vowel.search(word) is None
        assert generated.stem(to_utf16_units(word)) == to_utf16_units(word), word


def test_vowel_masks_are_the_stemmers_vowels():
    assert set(snowball._STEMMED_ONLY_WITH["ru"][0][1:-1]) == russian._G_V_1072_1103 | {"ё"}
    assert set(snowball._STEMMED_ONLY_WITH["hu"][0][1:-1]) == hungarian._G_V_97_369
    assert chain("ru").filter(pa.array(["бвг", "ёж", "XYZ"])).to_pylist() == ["бвг", "еж", "xyz"]
    assert chain("hu").filter(pa.array(["BCD", "házakban"])).to_pylist() == ["bcd", "ház"]


def test_hungarian_words_ending_no_suffix_are_their_own_stems():
    """The Hungarian chain skips the stemmer for words whose last letter ends none of
    the suffixes its steps look up: the generated stemmer leaves such words as they are,
    on random words of letters and suffixes; and the nine steps are the stem routine's
    and look their table up first."""
    source = inspect.getsource(hungarian.HungarianStemmer)
    steps = re.findall(r"self\.(r_\w+)\(\)", inspect.getsource(hungarian.HungarianStemmer._stem))
    assert steps[0] == "r_mark_regions" and len(steps) == 10
    looked_up = []
    for step in steps[1:]:
        body = inspect.getsource(getattr(hungarian.HungarianStemmer, step)).split("\n")[1:3]
        assert body[0].strip() == "self.ket = self.cursor", step
        looked_up.append(vars(hungarian)[re.search(r"find_among_b\((_A_\d+)\)", body[1])[1]])
    assert set(map(id, looked_up)) == set(map(id, snowball._HUNGARIAN_SUFFIXES))
    assert not any(table.empty for table in looked_up)
    assert source.count("def _stem") == 1
    ends = re.compile(snowball._STEMMED_ONLY_WITH["hu"][1])
    tables = [v for v in vars(hungarian).values() if isinstance(v, Among)]
    pieces = [s for v in tables for s, *_ in v.entries] + list(
        "aábcdeéfghiíjklmnoóöőpqrstuúüűvwxyz"
    )
    rnd = random.Random(17)
    stemmer, checked = hungarian.HungarianStemmer(), 0
    for _ in range(40_000):
        word = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 5)))
        if ends.search(word) is None:
            checked += 1
            assert stemmer.stem(word) == word, word
    assert checked > 5_000


@pytest.mark.parametrize("language", sorted(snowball.SAME_IN_PYSTEMMER))
def test_pystemmer_stems_as_lucenes_stemmer(language):
    """Where PyStemmer takes the tokens, their terms are the translated Java stemmer's:
    on random words of the language's letters, words ending in the stemmer's suffix
    tables, apostrophes, characters outside the BMP and the overrides."""
    stemmer = STEMMERS[language]
    generated = next(c for c in stemmer.__mro__ if c.__module__.startswith(turkish.__package__))
    module = vars(sys.modules[generated.__module__])
    suffixes = [s for v in module.values() if isinstance(v, Among) for s, *_ in v.entries]
    letters = sorted({ch for s in suffixes for ch in s} | set("abdeiklmnorstuy'09_\U0001d51e"))
    rnd = random.Random(language)
    words = ["", *snowball.DUTCH_STEM_OVERRIDES]
    for _ in range(20_000):
        words.append("".join(rnd.choice(letters) for _ in range(rnd.randint(1, 12))))
        word = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 6)))
        words.append(word + "".join(rnd.choice(suffixes) for _ in range(rnd.randint(1, 3))))
    words = list(dict.fromkeys(words))
    overrides = snowball.DUTCH_STEM_OVERRIDES if language == "nl" else None
    stems = snowball.SnowballStems(language, stemmer, overrides)
    assert stems._library is not None
    java = generated()
    expected = [
        overrides[w]
        if overrides and w in overrides
        else from_utf16_units(java.stem(to_utf16_units(w))) or EMPTY_TERM
        if w
        else ""
        for w in words
    ]
    assert stems.terms(words) == expected
