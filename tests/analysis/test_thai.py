"""Lucene's ThaiAnalyzer (Lucene 9.9.1, the JDK's BreakIterators of OpenJDK 17), term for
term.

Every expected output was produced by the real Java: ThaiAnalyzer in the Anserini 1.7.1
fatjar on Debian's OpenJDK 17. The hand cases are the hard parts (the dictionary's
divisions, ๆ and ฯ, a zero-width space inside Thai, sentence ends, Thai digits, U+FFFF,
characters beyond U+FFFF, the tokenizer's 1024-character buffer); data/th.tsv.gz holds
2,770 texts: Debian's Thai message catalogues, CLDR's Thai names (babel), faker th_TH
mixes with Latin words, digits and punctuation, adversarial strings and texts longer
than the buffer. The batch tokenizer's fast paths must also equal the port they shortcut,
on random text.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from support.lucene_terms import unescape

from sparsebench.analysis.filters import decimal_digits, word_set
from sparsebench.analysis.languages import chain
from sparsebench.analysis.th import break_data as jdk_break_data
from sparsebench.analysis.th import break_iterator as jdk_break_iterator
from sparsebench.analysis.th import fast_batch as thai_batch
from sparsebench.analysis.th import fast_break_scans as jdk_batch_scans
from sparsebench.analysis.th import tokenizer as thai_tokenizer
from sparsebench.analysis.th.fast_runs import COMPLEX, END, OTHER, divide, run_model
from sparsebench.core.errors import DataError

DATA = Path(__file__).parent / "data" / "th.tsv.gz"

HAND = [
    ("ภาษาไทยเป็นภาษาที่มีระดับเสียงของคำแน่นอน", ["ภาษา", "ไทย", "ภาษา", "ระดับ", "เสียง", "คำ", "แน่นอน"]),
    ("ฉันกินข้าวและดื่มน้ำ", ["ฉัน", "กิน", "ข้าว", "ดื่ม", "น้ำ"]),
    ("ราคา ๑๒๓ บาท หรือ 456 บาท", ["ราคา", "123", "บาท", "456", "บาท"]),
    ("Hello WORLD ภาษาไทย", ["hello", "world", "ภาษา", "ไทย"]),
    (
        "3.14 U.S.A e-mail 1,000 50% $20 #1 don't",
        ["3.14", "u.s.a", "e-mail", "1,000", "50%", "don't"],
    ),
    ("เด็กๆ ต่างๆ ๆ กๆๆ", ["เด็ก", "ๆ", "ๆ", "กๆ", "ๆ"]),
    ("กรุงเทพฯ ฯลฯ ฯ", ["กรุงเทพฯ", "ฯลฯ", "ฯ"]),
    ("ภาษา\u200bไทย", ["ภาษา\u200bไทย"]),
    (
        "Mr. Smith went home. ทดสอบ!ภาษา?ไทย",
        ["mr", "smith", "went", "home", "ทดสอบ", "ภาษา", "ไทย"],
    ),
    ("ก\uffffข", ["ก", "ข"]),
    ("ภาษา😀ไทย 𝐀bc", ["ภาษา", "ไทย", "𝐀bc"]),
    ("ก่ข้อความ", ["ก่ข้อ"]),
    (
        "แมวดำกระโดดข้ามรั้วบ้านเพื่อนบ้านที่อยู่ติดกัน",
        ["แมว", "ดำ", "กระโดด", "ข้าม", "รั้ว", "บ้าน", "เพื่อนบ้าน", "ติด"],
    ),
    ("ฃฅ ๑ ๅ ๏ ฿100", ["ฃฅ", "1", "ๅ"]),
    ("คอมพิวเตอร์โน้ตบุ๊กรุ่นใหม่", ["คอมพิวเตอร์", "โน้ต", "บุ๊กรุ่น", "ใหม่"]),
    ("ปี๑ กขๆค", ["ปี", "1", "ก", "ข", "ๆ", "ค"]),
    ("café naïve ÉCOLE", ["café", "naïve", "école"]),
    ("สวัสดี\r\nครับ\u2029ค่ะ", ["สวัสดี", "ครับ", "ค่ะ"]),
    # the buffer of 1024 characters: cut inside a word, inside a surrogate pair, or after
    # the last line break
    ("ก" * 1030, ["กก"] * 515),
    (
        "xyz" + "ภาษาไทย " * 130,
        ["xyz", *["ภาษา", "ไทย"] * 127, "ภาษาไ", "ทย", *["ภาษา", "ไทย"] * 2],
    ),
    ("a" * 1023 + "😀ภาษา", ["a" * 1023, "ภาษา"]),
    ("ทดสอบ\n" * 150 + "ภาษาไทย", ["ทดสอบ"] * 150 + ["ภาษา", "ไทย"]),
    ("", []),
]  # fmt: skip

# Java 21 (Unicode 15.0), the Java Anserini 1.7.1 runs on. Lucene 9.9.1's ThaiAnalyzer
# (the Anserini fatjar): texts of characters Unicode 14 and 15 added, on Temurin 25 (where
# each of these characters has its Java 21 type; Java 17 leaves them out of every term);
# texts of characters Unicode 16 added (unassigned in Java 21), on OpenJDK 17.
JAVA_21_CASES = [
    ("ภาษาไทย\u0870\u0871ข้อความ", ["ภาษา", "ไทย", "\u0870\u0871", "ข้อความ"]),  # Arabic Lo
    ("สวัสดี\u0890ครับ", ["สวัสดี\u0890ครับ"]),  # ARABIC POUND MARK ABOVE (Cf)
    ("ราคา \U00011f51\U00011f52 บาท", ["ราคา", "12", "บาท"]),  # Kawi digits (Nd)
    ("\U0001e4d0\U0001e4d1 ไทย", ["\U0001e4d0\U0001e4d1", "ไทย"]),  # Nag Mundari (Lo)
    ("เมือง\U00011f00\U00011f04ไทย", ["เมือง\U00011f00", "\U00011f04", "ไทย"]),  # Kawi Mn, Lo
    ("ไทย\u0870ไทย\U0001e4d0ไทย", ["ไทย", "\u0870", "ไทย", "\U0001e4d0", "ไทย"]),
    ("กิน\u0897ข้าว", ["กิน", "ข้าว"]),  # ARABIC PEPET (Unicode 16)
    ("\U00011380\U00011381 ไทย", ["ไทย"]),  # Tulu-Tigalari letters (Unicode 16)
]  # fmt: skip


def analyze(texts: list[str]) -> list[list[str]]:
    """ThaiAnalyzer's terms of each text, as BM25 indexes them."""
    th = chain("th")
    index, tokens = th.tokenize(pa.array(texts, type=pa.string()))
    distinct = pc.unique(tokens)
    term = dict(zip(distinct.to_pylist(), th.filter(distinct).to_pylist(), strict=True))
    terms: list[list[str]] = [[] for _ in texts]
    for i, token in zip(index.tolist(), tokens.to_pylist(), strict=True):
        if term[token]:
            terms[i].append(term[token])
    return terms


def test_hand_cases():
    texts = [text for text, _ in HAND]
    for (text, expected), got in zip(HAND, analyze(texts), strict=True):
        assert got == expected, text[:80]


def test_characters_of_unicode_14_and_15_as_java_21():
    """Java 17's tables (Unicode 13) left U+0870, U+0890, Kawi and Nag Mundari out of
    every term."""
    texts = [text for text, _ in JAVA_21_CASES]
    for (text, expected), got in zip(JAVA_21_CASES, analyze(texts), strict=True):
        assert got == expected, text
    assert jdk_break_data.is_letter_or_digit(0x1E4D0)  # Unicode 15.0
    assert not jdk_break_data.is_letter_or_digit(0x11380)  # Unicode 16


def test_real_texts_term_for_term():
    with gzip.open(DATA, "rt", encoding="utf-8") as handle:
        rows = [[unescape(x) for x in line.rstrip("\n").split("\t")] for line in handle]
    assert len(rows) == 2770
    texts = [row[0] for row in rows]
    for row, got in zip(rows, analyze(texts), strict=True):
        if got != row[1:]:
            pytest.fail(f"text {row[0]!r}\n expected {row[1:]}\n got      {got}")


def random_texts(seed: int, count: int) -> list[str]:
    """Thai words, syllables, marks and the characters around them, in random order."""
    rng = random.Random(seed)
    words = ["ภาษา", "ไทย", "เป็น", "ที่", "กระโดด", "คอมพิวเตอร์", "บ้าน", "เพื่อน", "ก", "กก"]
    letters = list("กขคงจชดตทนบปพมยรลวสหอะาิีึืุูเแโใไ่้๊๋็์ำั")
    others = [*"ๆๆฯ๑ฃ .!?,-'\"\n\r\t()abXY09\u00a0\u200b\u0301\uffff", "😀", "\u2029", "\u0964"]
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(0, 25)):
            r = rng.random()
            pool = words if r < 0.4 else letters if r < 0.8 else others
            parts.append(rng.choice(pool))
        texts.append("".join(parts))
    return texts


def assert_batch_is_the_port(texts: list[str]) -> None:
    """The batch tokenizer gives each text the port's tokens."""
    index, tokens = thai_batch.tokenize_batch(texts)
    batch: list[list[str]] = [[] for _ in texts]
    for i, token in zip(index.tolist(), tokens.to_pylist(), strict=True):
        batch[i].append(token)
    for text, got in zip(texts, batch, strict=True):
        assert got == thai_tokenizer.tokenize_exact(text), text


def test_batch_tokenizer_equals_the_port():
    texts = random_texts(1, 600) + ["x" * 700 + "ภาษาไทย " * 80]
    assert_batch_is_the_port(texts)


def spaced_texts(seed: int, count: int) -> list[str]:
    """Words and sentences between spaces of every kind: what the batch splits at U+0020,
    glues back and cuts at sentence ends."""
    rng = random.Random(seed)
    words = ["ภาษา", "ไทย", "เป็น", "กระโดด", "ก", "ๆ", "ฯ", "abc", "Def", "U.S.A", "3.14", "%s"]
    words += ["(?&", "a?b", "x.Y", "ก.ข", "ไหม?ครับ", "!", "...", "\u0301", "\u200b", "\u0e31"]
    gaps = [" "] * 12 + ["  ", " \n", "\n ", "\t", "\u00a0", " \u00a0", "\u3000", "\u2029"]
    gaps += [". ", "? ", "! ", ".  ", "?", ". \u0301", " \u0e4c", " (", '" ', "\uffff", "\u0964 "]
    texts = []
    for _ in range(count):
        parts = [rng.choice(["", " ", "  ", ". "])]
        for _ in range(rng.randint(0, 30)):
            parts += (rng.choice(words), rng.choice(gaps))
        texts.append("".join(parts[: rng.randint(1, len(parts))]))
    return texts


def test_batch_splits_at_spaces_as_the_port():
    """The groups between spaces and the sentences the batch finds give the port's tokens
    (with texts longer than the buffer, and one beyond U+FFFF)."""
    texts = spaced_texts(4, 1500) + [("ภาษาไทย. abc " * 90)[:1030], "ภาษา. 😀 ไทย"]
    long = ["".join(spaced_texts(k, 80)) for k in range(40)]  # (longer than the buffer)
    texts += long + [text.replace("\uffff", "\n") for text in long]
    assert_batch_is_the_port(texts)


def test_parts_cut_into_the_names_of_others():
    """Buffers cut parts into pieces that are also whole parts of the batch: each name is
    tokenized once and numbered once."""
    texts = ["ภาษา ไทย " * 120 + "abc", "ภาษา ไทย\n" * 120]
    thai_batch.clear_caches()  # (all of them new)
    index, tokens = thai_batch.tokenize_batch(texts)
    for i, text in enumerate(texts):
        got = tokens.filter(pa.array(index == i)).to_pylist()
        assert got == thai_tokenizer.tokenize_exact(text)


def test_groups_before_a_letter_break_as_before_a_space():
    """The batch names a group with no character for the port that a space and a Thai
    letter follow as one that a space follows: the port breaks both alike."""
    model = run_model()
    for text in spaced_texts(7, 1500) + random_texts(7, 1500):
        group = "".join(c for c in text if c < "\U00010000" and not model.flags[ord(c)] & COMPLEX)
        before_letter = thai_tokenizer.sentence_spans(group + " ก")
        assert before_letter[-2:] == [len(group) + 1, len(group) + 2], group
        assert before_letter[:-2] == thai_tokenizer.sentence_spans(group + " "), group


def test_batch_sentence_breaks_equal_the_port():
    """th/fast_break_scans finds the port's sentence breaks, on the texts it keeps."""
    rng = random.Random(5)
    pool = [*"..!!??  \t\n\"'()[]aAbZ09,ก่ ", "\u2029", "\u0964", "\u3002", "\uff0e", "\u0301"]
    pool += ["\u00a0", "\u2019", "\uffff"]
    texts = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 40))) for _ in range(4000)]
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum([len(text) for text in texts])))
    breaks, ported = jdk_batch_scans.sentence_breaks_batch(codes, starts)
    owner = np.searchsorted(starts, breaks, side="right") - 1
    assert ported.mean() < 0.5
    for i, text in enumerate(texts):
        if not ported[i]:
            expected = jdk_break_iterator.sentence_breaks(text, fast=False)[1:-1]
            assert (breaks[owner == i] - starts[i]).tolist() == expected, text


def test_batch_word_breaks_equal_the_port():
    """th/fast_break_scans steps the word rules over text without Thai letters as the port."""
    rng = random.Random(6)
    pool = [*"aZé09.,:;'-_$%#@/ \t\n\r()\"", "\u00a0", "\u3000", "\u2029", "ๆ", "๑", "฿", "中"]
    texts = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 30))) for _ in range(3000)]
    texts += ["3.14 U.S.A e-mail 1,000 50% $20 #1 don't", "a.b.c. 1.2.3, x'y'"]
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum([len(text) for text in texts])))
    breaks, owner = jdk_batch_scans.word_breaks_batch(codes, starts)
    for i, text in enumerate(texts):
        expected = jdk_break_iterator.word_breaks(text, fast=False)[1:]
        assert (breaks[owner == i] - starts[i]).tolist() == expected, text


def test_shortcuts_equal_stepping():
    """The skipped runs, the remembered divisions and sentence scans give the port's
    breaks."""
    for text in random_texts(2, 300):
        units = jdk_break_data.utf16_units(text)
        assert jdk_break_iterator.word_breaks(units) == jdk_break_iterator.word_breaks(
            units, fast=False
        )
        assert jdk_break_iterator.sentence_breaks(units) == jdk_break_iterator.sentence_breaks(
            units, fast=False
        )


def test_divisions_equal_the_port():
    """th/fast_runs.divide gives the port's breaks over a range and what follows it."""
    rng = random.Random(3)
    letters = sorted(run_model().thai)
    pairs = []
    for _ in range(400):
        range_ = "".join(rng.choice(letters) for _ in range(rng.randint(2, 30)))
        after = [END, OTHER, "๑"]
        if rng.random() < 0.2:
            range_, after = range_ + "ๆ", [*after, "ๆ", "ก", "ฃ"]
        pairs.append((range_, rng.choice(after)))
        if rng.random() < 0.3:  # the same range again, with what follows it or another
            pairs.append((range_, rng.choice(after)))
    counts, flat = divide(pairs)
    ends = np.cumsum(counts).tolist()
    for (range_, after), end, count in zip(pairs, ends, counts.tolist(), strict=True):
        breaks = jdk_break_iterator.word_breaks(range_ + after, fast=False)
        expected = breaks[: breaks.index(len(range_)) + 1]
        assert flat[end - count : end].tolist() == expected, (range_, after)


def test_the_dictionary_is_the_jdks():
    """OpenJDK's thai_dict trie is the minimal automaton of its words: the same size."""
    words = jdk_break_data.dictionary()
    assert (len(words.final), len(words.transitions)) == (26_693, 52_638)


def test_tables_are_checked(monkeypatch):
    jdk_break_data._arrays.cache_clear()
    monkeypatch.setattr(jdk_break_data, "TABLES_SHA256", "0" * 64)
    try:
        with pytest.raises(DataError, match="not the expected ones"):
            jdk_break_data._arrays()
    finally:
        jdk_break_data._arrays.cache_clear()


def test_filters():
    assert len(word_set("th/stopwords.txt")) == 115
    tokens = pa.array(["๑๒๓", "٣x", "\U0001d7cf", "abc", "ไทย"])
    assert decimal_digits(tokens).to_pylist() == ["123", "3x", "1", "abc", "ไทย"]
    assert analyze(["และ ที่ ของ ภาษา"]) == [["ภาษา"]]


def test_missing_and_empty_texts():
    index, tokens = chain("th").tokenize(pa.array([None, "", " ", "ภาษา"], type=pa.string()))
    assert index.tolist() == [3] and tokens.to_pylist() == ["ภาษา"]
    index, tokens = chain("th").tokenize(pa.array([], type=pa.string()))
    assert len(index) == 0 and len(tokens) == 0 and index.dtype == np.int64
