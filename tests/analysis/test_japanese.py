"""Lucene 9.9.1's JapaneseAnalyzer (what Anserini 1.7.1 analyzes Japanese with), term for term.

Every expected output was produced by the real Java: JapaneseAnalyzer from the Anserini
1.7.1 fatjar (Lucene 9.9.1, pyserini 1.6.0's jar). The hand cases are the hard parts of
the chain: SEARCH mode's decompounding, base forms, part-of-speech and word stop lists,
katakana stemming, the width char filter (voiced marks too), punctuation, surrogates,
whitespace. data/ja.tsv.gz holds 2,217 real and adversarial texts with Lucene's terms:
faker's ja_JP names, addresses and lorem, CLDR names, Japanese gettext catalogues of
Debian packages, paragraphs of the Japanese man pages (manpages-ja), random mixes of
every kind of character, and texts long enough for the Java search's safety limits
(MAX_BACKTRACE_GAP, MAX_UNKNOWN_WORD_LENGTH).
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from japanese_port import tokenize as tokenize_step_by_step
from support.lucene_terms import unescape

from sparsebench.analysis.ja import dictionary as japanese_dictionary
from sparsebench.analysis.ja import search as japanese_search
from sparsebench.analysis.ja.chunks import folded_units
from sparsebench.analysis.ja.dictionary import dictionary
from sparsebench.analysis.ja.tokenizer import japanese_tokenizer
from sparsebench.analysis.languages import LANGUAGES, chain
from sparsebench.core.errors import DataError

DATA = Path(__file__).parent / "data" / "ja.tsv.gz"

# (text, JapaneseAnalyzer's terms), from Java.
HAND = [
    ("関西国際空港", ["関西", "国際", "空港"]),
    ("日本経済新聞社の記者", ["日本", "経済", "新聞", "社", "記者"]),
    ("東京都庁舎", ["東京", "都", "庁舎"]),
    ("食べました", ["食べる"]),
    ("昨日、東京に行った。", ["昨日", "東京", "行く"]),
    ("これはその後の話です", ["話"]),
    ("コンピューター", ["コンピュータ"]),
    ("サーバー", ["サーバ"]),
    ("ロー", ["ロー"]),
    ("ハッカー", ["ハッカ"]),
    ("ＡＢＣ１２３", ["abc", "123"]),
    ("ｺﾝﾋﾟｭｰﾀｰ", ["コンピュータ"]),
    ("ｶﾞｷﾞｸﾞ", ["ガギグ"]),
    ("ﾞカ", ["゙", "カ"]),
    ("ＴＯＫＹＯタワー", ["tokyo", "タワー"]),
    ("「こんにちは」、世界！", ["こんにちは", "世界"]),
    ("😀東京😀", ["東京"]),
    ("𠮟る", []),
    ("東京 タワー", ["東京", "タワー"]),
    ("  \t\n ", []),
    ("２０２４年１２月２５日", ["2024", "年", "12", "月", "25", "日"]),
    ("iPhone15を買った", ["iphone", "15", "買う"]),
    ("ΑΒΓαβγ", ["αβγαβγ"]),
    ("取り扱い説明書", ["取り扱い", "説明", "書"]),
    ("情報処理技術者試験", ["情報", "処理", "技術", "者", "試験"]),
    ("ビジネスパーソン向けセミナー", ["ビジネスパーソン", "向け", "セミナ"]),
    ("すもももももももものうち", ["すもも", "もも", "もも"]),
    ("", []),
]


def reference() -> list[tuple[str, list[str]]]:
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    return [(unescape(row[0]), [unescape(t) for t in row[1:] if t]) for row in rows]


def analyze(texts: list[str | None]) -> list[list[str]]:
    """chain('ja')'s terms of each text: tokenize, then filter the distinct tokens."""
    analyzer = chain("ja")
    index, tokens = analyzer.tokenize(pa.array(texts, type=pa.string()))
    distinct = pc.unique(tokens)
    terms = dict(zip(distinct.to_pylist(), analyzer.filter(distinct).to_pylist(), strict=True))
    out: list[list[str]] = [[] for _ in texts]
    for i, token in zip(index.tolist(), tokens.to_pylist(), strict=True):
        if terms[token]:
            out[i].append(terms[token])
    return out


def first_difference(texts, expected, got):
    for text, want, have in zip(texts, expected, got, strict=True):
        if want != have:
            return f"text {text!r}: Lucene {want}, got {have}"
    return None


def test_hand_cases():
    texts = [text for text, _ in HAND]
    assert first_difference(texts, [terms for _, terms in HAND], analyze(texts)) is None


def test_real_texts_equal_lucene():
    rows = reference()
    texts = [text for text, _ in rows]
    assert first_difference(texts, [terms for _, terms in rows], analyze(texts)) is None


def test_terms_do_not_depend_on_the_batch():
    """Memos and batched searches: a text gives the same terms alone, in another order,
    and with a voiced mark at a text start next to a kana ending the text before."""
    rows = reference()
    sample = random.Random(3).sample(rows, 300)
    texts = [text for text, _ in sample] + ["カ", "ﾞ", "ｶ", "ﾟ"]
    expected = [terms for _, terms in sample] + [["カ"], ["゙"], ["カ"], ["゚"]]
    assert first_difference(texts[::-1], expected[::-1], analyze(texts[::-1])) is None
    assert first_difference(texts, expected, analyze(texts)) is None
    assert [analyze([text])[0] for text in texts[-4:]] == expected[-4:]
    assert analyze([None, "東京"]) == [[], ["東京"]]


def port_terms(text: str) -> list[str]:
    """The terms of the step-for-step port of JapaneseTokenizer on one whole text, base
    forms and stop tags applied (what the tokenizer returns)."""
    d = dictionary()
    tokenizer = japanese_tokenizer()
    folded, _ = folded_units(pa.array([text]), d)
    port = []
    for start, end, word in tokenize_step_by_step(folded.tolist()):
        if not tokenizer.keep_word[word]:
            continue
        base = d.word_base[word]
        surface = folded[start:end].tobytes().decode("utf-16-le", "replace")
        port.append(d.base_forms[base] if base >= 0 else surface)
    return port


def batched_terms(texts: list[str]) -> list[list[str]]:
    index, tokens = japanese_tokenizer().tokenize(pa.array(texts))
    batched: list[list[str]] = [[] for _ in texts]
    for i, token in zip(index.tolist(), tokens.to_pylist(), strict=True):
        batched[i].append(token)
    return batched


def test_step_by_step_port_equals_the_compiled_search():
    """The Python port of JapaneseTokenizer (the reference) gives the tokens the compiled
    search gives, on real and random texts, and on texts long enough for the Java search
    to commit to a partial path (MAX_BACKTRACE_GAP units without a single path left)."""
    texts = [text for text, _ in random.Random(5).sample(reference(), 60) if len(text) < 80]
    rng = random.Random(8)
    alphabet = "東京都庁舎情報処理のはをにアイウエオーｶﾞabc123、。「」 \n😀"
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30))) for _ in range(60)]
    texts += ["".join(rng.choice("東京都庁舎情報処理アイウエオー") for _ in range(2500))]
    texts += ["ア" * 1500 + "東京" * 700, "情報処理" * 900]
    for text, want in zip(texts, batched_terms(texts), strict=True):
        assert port_terms(text) == want, text[:80]


def test_positions_with_more_entries_than_slots_are_searched_again():
    """A text whose position needs more entry slots than the lattice holds is searched
    again with twice as many: one slot to begin with gives the same tokens."""
    d = dictionary()
    tokenizer = japanese_tokenizer()
    texts = [text for text, _ in random.Random(2).sample(reference(), 100)]
    units, offsets = folded_units(pa.array(texts), d)
    starts = np.zeros(len(texts), dtype=np.int64)
    wide = japanese_search.search(units, offsets, starts, tokenizer.tables)
    narrow = japanese_search.search(units, offsets, starts, tokenizer.tables, 1)
    assert len(wide[0]) > 1000
    for got, want in zip(narrow, wide, strict=True):
        assert np.array_equal(got, want)


def test_a_chunk_in_every_context_equals_the_port():
    """A chunk's text is searched once for all its contexts (a lane per context before
    it, a best path per context after it): texts made of the same chunks at starts,
    between spaces and at ends give, text by text, the port's tokens of the whole text."""
    rng = random.Random(11)
    pool = [text for text, _ in rng.sample(reference(), 200) if 0 < len(text) < 60]
    pool += ["東京都庁舎", "コンピューター", "すもももももももものうち", "情報処理技術者試験"]
    pool += ["聡太郎（070-0137-0885）", "とその外部表現との変換を行なう基本フィルター。"]
    chunks = [chunk for text in pool for chunk in text.split() if chunk]
    texts = [
        rng.choice(["", " ", "\n"]).join(rng.choice(chunks) for _ in range(rng.randint(1, 4)))
        for _ in range(600)
    ]
    for text, want in zip(texts, batched_terms(texts), strict=True):
        assert port_terms(text) == want, text


def test_the_dictionary_is_checked(monkeypatch):
    """A dictionary file that is not the one the module was written for is refused."""
    dictionary()  # the real one loads
    dictionary.cache_clear()
    monkeypatch.setattr(japanese_dictionary, "DICTIONARY_SHA256", "0" * 64)
    try:
        with pytest.raises(DataError, match="SHA-256"):
            dictionary()
    finally:
        dictionary.cache_clear()


def test_chain_names_lucene_and_is_exact():
    assert chain("ja").language == "ja"
    assert LANGUAGES["ja"].lucene_class == "org.apache.lucene.analysis.ja.JapaneseAnalyzer"
    assert LANGUAGES["ja"].exact
