"""A process tokenizes its first WHOLE_TEXT_BYTES as whole texts with numpy, then by
distinct chunks in compiled code (sparsebench/analysis/batch_tokens.py): the same terms
either way, for every language, and a job with little text never imports numba."""

from __future__ import annotations

import subprocess
import sys

import pyarrow as pa
import pytest

from sparsebench.analysis import batch_tokens, languages
from sparsebench.analysis.batch_tokens import standard_tokens
from sparsebench.analysis.chains import Chain

# words of many scripts, each repeated (chunks pay) and run together (chunks do not)
WORDS = [
    "Don't", "stop", "U.S.A.", "3.14", "e-mail", "naïve", "Straße", "İstanbul", "ΌΛΟΙ",
    "москва", "مكتبة", "کتاب‌ها", "हिन्दी", "বাংলা", "தமிழ்", "ภาษาไทย", "中文字", "한국어",
    "カタカナ", "ｶﾞｷﾞ", "ひらがな", "x\u0301", "a\u200db", "\U0001f600", "_", "", "Ａ１",
]  # fmt: skip


def texts(seed: int, n: int = 120) -> list[str]:
    import random

    rng = random.Random(seed)
    return [" ".join(rng.choices(WORDS, k=rng.randint(0, 14))) for _ in range(n)]


def terms_per_text(chain: Chain, batch: list[str]) -> list[list[str]]:
    text_index, tokens = chain.tokenize(pa.array(batch))
    terms = chain.filter(
        tokens.cast(pa.string()) if isinstance(tokens, pa.DictionaryArray) else tokens
    )
    found: list[list[str]] = [[] for _ in batch]
    for t, term in zip(text_index.tolist(), terms.to_pylist(), strict=True):
        found[t].append(term)
    return found


@pytest.mark.parametrize(
    "code", sorted(c for c, entry in languages.LANGUAGES.items() if entry.builder is not None)
)
def test_every_language_gets_the_same_terms_both_ways(code, monkeypatch):
    chain = languages.chain(code)
    batch = texts(sum(map(ord, code)))
    monkeypatch.setattr(batch_tokens, "_whole_bytes_left", 1 << 40)
    whole = terms_per_text(chain, batch)
    with batch_tokens.by_chunks_meanwhile():
        chunked = terms_per_text(chain, batch)
    assert chunked == whole


def test_a_process_tokenizes_whole_texts_until_its_bytes_pass_the_bound(monkeypatch):
    """The batch that would pass the bound, and every later one, goes by distinct chunks
    (a dictionary array of the distinct chunks' tokens)."""
    monkeypatch.setattr(batch_tokens, "_whole_bytes_left", 20)
    batch = ["stop stop it", "it stops"]  # 20 bytes
    first = standard_tokens(batch)
    assert not isinstance(first[1], pa.DictionaryArray) and batch_tokens._whole_bytes_left == 0
    second = standard_tokens(batch[:1])
    assert isinstance(second[1], pa.DictionaryArray)
    assert second[1].cast(pa.string()).to_pylist() == ["stop", "stop", "it"]
    assert first[1].to_pylist() == ["stop", "stop", "it", "it", "stops"]
    assert first[0].tolist() == [0, 0, 0, 1, 1] and second[0].tolist() == [0, 0, 0]


_ENCODE = """
import sys
import pyarrow as pa
from sparsebench.api import make_model_encoders

documents, queries = make_model_encoders({"kind": "bm25"}, "en")
texts = pa.array(sys.argv[1:] * 1000)
documents.encode(texts)
queries.encode(texts)
print("numba" in sys.modules)
"""


def test_encoding_a_little_text_never_imports_numba(tmp_path):
    script = tmp_path / "encode.py"
    script.write_text(_ENCODE)
    done = subprocess.run(
        [sys.executable, str(script), *texts(1, 20)], capture_output=True, text=True, check=True
    )
    assert done.stdout == "False\n"
