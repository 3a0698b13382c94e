"""CJKAnalyzer, Anserini's analyzer of Chinese (zh) and Korean (ko), term for term.

Every expected list below is what Lucene 9.9.1 gives (CJKAnalyzer's default
constructor, as Anserini builds it, on Java 17); data/zh.tsv.gz and data/ko.tsv.gz hold
1,200 and 1,600 texts (gettext catalogues and faker's Chinese and Korean locales, with
digits, Latin words, kana, half-width katakana and full-width letters) with Lucene's
terms.
"""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest
from chain_cases import first_difference, lucene_cases, terms_per_text

from sparsebench.analysis import batch_tokens, standard_tokenizer
from sparsebench.analysis import fast_distinct_chunks as distinct_chunks
from sparsebench.analysis.filters import lowercase
from sparsebench.analysis.scripts import cjk
from sparsebench.analysis.scripts.cjk import bigram_runs, chain, fold_width, fold_widths
from sparsebench.analysis.standard_tokenizer import tokenize_batch_details

HAND = {
    "zh": [
        ("中华人民共和国", ["中华", "华人", "人民", "民共", "共和", "和国"]),
        ("中 文", ["中", "文"]),  # not adjacent: one-character runs
        ("中。文", ["中", "文"]),
        ("中文the", ["中文"]),  # a stopword, after bigrams
        ("ひらがな", ["ひら", "らが", "がな"]),  # one token per hiragana, bigrammed across
        ("カタカナ", ["カタ", "タカ", "カナ"]),
        (
            "漢字カタカナひらがな",
            ["漢字", "字カ", "カタ", "タカ", "カナ", "ナひ", "ひら", "らが", "がな"],
        ),
        ("中a文", ["中", "文"]),  # "a" breaks the run (and is a stopword)
        ("\uff76\uff9e\uff77\uff9e \uff8a\uff9f", ["ガギ", "パ"]),  # width folding, then bigrams
        ("\uff21\uff22\uff23\uff11\uff12\uff13", ["abc123"]),  # full-width, then lowercase
        ("中\uff9e", ["中\u3099"]),  # a sound mark that has nothing to combine with
        ("the a and www 中国", ["中国"]),
        ("\U00020000\U00020001", ["\U00020000\U00020001"]),
        ("中\u3005 ラーメン", ["中", "\u3005", "ラー", "ーメ", "メン"]),
    ],
    "ko": [
        (
            "대한민국의 수도는 서울이다",
            ["대한", "한민", "민국", "국의", "수도", "도는", "서울", "울이", "이다"],
        ),
        ("한국abc abc한국 한국123", ["한국abc", "abc한국", "한국123"]),  # <ALPHANUM>: whole
        ("\u1100\u1161\u11a8 \u3131\u314f", ["\u1100\u1161", "\u1161\u11a8", "\u3131\u314f"]),
        ("한 국", ["한", "국"]),
        ("한국어 中文 カタカナ", ["한국", "국어", "中文", "カタ", "タカ", "カナ"]),
        ("the 한국", ["한국"]),
        ("\uff76\uff9e", ["ガ"]),
        # cut at 255 characters by the tokenizer, the two tokens touch: one run
        ("가" * 256, ["가가"] * 255),
    ],
}


@pytest.mark.parametrize("language", ["zh", "ko"])
def test_hand_cases_equal_lucene(language):
    assert first_difference(chain(language), HAND[language]) is None


@pytest.mark.parametrize("language", ["zh", "ko"])
def test_real_text_equals_lucene(language):
    assert first_difference(chain(language), lucene_cases(language)) is None


def test_width_filter_combines_sound_marks_into_the_katakana_before():
    assert fold_width("\uff76\uff9e") == "\u30ac"  # ka + voiced -> ga
    assert fold_width("\u30ab\uff9e") == "\u30ac"  # a full-width ka too
    assert fold_width("\uff8a\uff9f") == "\u30d1"  # ha + semi-voiced -> pa
    assert fold_width("\uff76\uff9f") == "\u30ab\u309a"  # ka takes no semi-voiced mark
    assert fold_width("\uff9e") == "\u3099"
    assert fold_width("\uff01\uff5e\uff5f") == "!~\uff5f"


IDEOGRAPHIC, ALPHANUM = 7, 3  # the tokenizer's actions


def bigrams(text_index, tokens, actions, starts, ends):
    index, terms = bigram_runs(
        np.array(text_index), pa.array(tokens), np.array(actions), np.array(starts), np.array(ends)
    )
    return list(zip(index.tolist(), terms.to_pylist(), strict=True))


def test_bigrams_need_touching_tokens_of_one_text():
    tokens = ["中", "文", "x", "字", "日", "本"]
    actions = [IDEOGRAPHIC, IDEOGRAPHIC, ALPHANUM, IDEOGRAPHIC, IDEOGRAPHIC, IDEOGRAPHIC]
    text_index = [0, 0, 0, 0, 1, 1]
    starts, ends = [0, 1, 2, 3, 0, 1], [1, 2, 3, 4, 1, 2]
    expected = [(0, "中文"), (0, "x"), (0, "字"), (1, "日本")]
    assert bigrams(text_index, tokens, actions, starts, ends) == expected
    # a gap in the offsets ends a run; so does the next text, whatever its offsets
    assert bigrams([0, 0], ["中", "文"], [IDEOGRAPHIC] * 2, [0, 2], [1, 3]) == [
        (0, "中"),
        (0, "文"),
    ]
    assert bigrams([0, 1], ["中", "文"], [IDEOGRAPHIC] * 2, [0, 1], [1, 2]) == [
        (0, "中"),
        (1, "文"),
    ]


def test_texts_without_cjk_or_without_tokens():
    assert terms_per_text(chain("zh"), ["", "The Cat", "..."]) == [[], ["cat"], []]


def general_path(texts: list[str]) -> list[tuple[int, str]]:
    """The three filters after the tokenizer as they run where a CJK token has a character
    that width folding or lowercasing change: per distinct token, then bigram_runs."""
    found = tokenize_batch_details(texts)
    encoded = found.tokens.dictionary_encode()
    folded = lowercase(fold_widths(encoded.dictionary)).take(encoded.indices)
    index, terms = bigram_runs(found.text_index, folded, found.actions, found.starts, found.ends)
    return list(zip(index.tolist(), terms.to_pylist(), strict=True))


@pytest.mark.parametrize("slice_bytes", [1 << 22, 64])
def test_bigrams_of_the_text_equal_the_general_path(monkeypatch, slice_bytes):
    """Where no CJK token holds a character the two filters change, the terms are spans
    of the text; on random text that holds them or not, slice by slice."""
    rng = random.Random(20261124)
    pool = ["中", "文", "\u3005", "あ", "カ", "ー", "한", "국", "\u1100", "\u1161", "\U00020000"]
    pool += [" ", "。", "a", "Z", "9", "_", ".", "'", "\u0301", "\u200d", "\U0001f600", "Ａ", "，"]
    folded = ["\uff76", "\uff9e", "\uff9f", "\uff3f", "\u0130"]  # changed in CJK tokens
    texts = []
    for k in range(600):
        letters = rng.sample(pool + (folded if k % 3 == 0 else []), rng.randint(2, 9))
        texts.append("".join(rng.choices(letters, k=rng.choice([0, 1, 2, 5, 20, 80, 300]))))
    # the tokenizer groups ideographs and hiragana that follow one another: groups longer
    # than its buffer, with attached characters or not, and a token too long within one
    texts += ["中" * 300, "あ中" * 140 + "\u0301", "中\u0301" * 200, "中" + "\u0301" * 300 + "文字"]
    monkeypatch.setattr(standard_tokenizer, "_BATCH_BYTES", slice_bytes)
    fast = []
    original = cjk._bigrams_of_text
    monkeypatch.setattr(
        cjk, "_bigrams_of_text", lambda found: fast.append(original(found)) or fast[-1]
    )
    for batch in (texts, [t for k, t in enumerate(texts) if k % 3]):
        index, terms = cjk.tokenize_cjk(pa.array(batch))
        assert list(zip(index.tolist(), terms.to_pylist(), strict=True)) == general_path(batch)
    assert any(found is not None for found in fast) and any(found is None for found in fast)


def test_chunks_give_the_tokens_of_whole_texts(monkeypatch):
    """Bigrams join only tokens that touch: the distinct space-separated chunks give the
    terms of whole texts (random text of CJK, Latin, marks and spaces, chunks that
    repeat and chunks that do not)."""
    rng = random.Random(20261125)
    words = ["中文", "한국어", "カタカナ", "ｶﾞｷﾞ", "abc", "中a文", "あ\u0301い", "x.y", "", "9中"]
    words += ["\U0001f600中", "Ａ한", "中\u200d文", "。한"]
    texts = [" ".join(rng.choices(words, k=rng.randint(0, 10))) for _ in range(300)]
    whole = cjk.tokenize_cjk(pa.array(texts))
    expected = list(zip(whole[0].tolist(), whole[1].to_pylist(), strict=True))
    for worth in (0.5, float("inf")):
        monkeypatch.setattr(distinct_chunks, "_WORTH", worth)
        with batch_tokens.by_chunks_meanwhile():
            index, terms = cjk.cjk_tokens(pa.array(texts))
        assert list(zip(index.tolist(), terms.to_pylist(), strict=True)) == expected


def test_the_characters_the_filters_of_single_tokens_change():
    rng = random.Random(7)
    sample = list(range(0xFF00, 0xFFF0)) + list(range(0x370, 0x400)) + list(range(0x10400, 0x10450))
    sample += [c for c in rng.sample(range(0x110000), 3000) if not 0xD800 <= c < 0xE000]
    characters = pa.array([chr(c) for c in sample])
    expected = [
        a != b
        for a, b in zip(
            lowercase(fold_widths(characters)).to_pylist(), characters.to_pylist(), strict=True
        )
    ]
    assert cjk._changed_by_filters()[sample].tolist() == expected


def joined(found) -> list[tuple[int, str, int, int, int]]:
    """A slice's tokens with each run of touching ideographic and hiragana tokens of a
    text joined into one, typed by the first."""
    out = []
    columns = (found.tokens().to_pylist(), found.actions.tolist())
    columns += (found.starts.tolist(), found.ends.tolist())
    for k, (text, token, action, start, end) in enumerate(
        zip(found.text_index.tolist(), *columns, strict=True)
    ):
        last = out[-1] if out else None
        if k and last[0] == text and last[4] == start and {action, last[2]} <= {7, 9}:
            out[-1] = (text, last[1] + token, last[2], last[3], end)
        else:
            out.append((text, token, action, start, end))
    return out


def test_grouped_tokens_join_the_touching_ideographs_and_hiragana():
    """The tokenizer's grouped tokens (those of the rule; the DFA's stay single) are its
    tokens with runs of touching ideographic and hiragana tokens joined."""
    rng = random.Random(11)
    pool = ["中", "文", "あ", "カ", "한", "a", "9", " ", "\u0301", "\U00020000", "\U0001f600", "."]
    texts = ["".join(rng.choices(pool, k=rng.choice([0, 3, 30, 200]))) for _ in range(300)]
    texts += ["中" * 300, "中" + "\u0301" * 300 + "文", "中文あ" * 50]
    ((_, single),) = standard_tokenizer.tokenize_slices(texts, details=True)
    ((_, grouped),) = standard_tokenizer.tokenize_slices(texts, details=True, grouped=True)
    assert len(grouped.starts) < len(single.starts)
    assert joined(grouped) == joined(single)
