"""ArabicAnalyzer (ar) and PersianAnalyzer (fa), term for term.

Every expected list below is what Lucene 9.9.1 gives (the analyzer's default
constructor, as Anserini builds it, on Java 17); data/ar.tsv.gz and data/fa.tsv.gz hold
2,000 texts each (gettext catalogues and faker's Arabic and Persian locales, with
digits, Latin words and the characters the filters act on) with Lucene's terms.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from chain_cases import first_difference, lucene_cases, terms_per_text

from sparsebench.analysis import filters
from sparsebench.analysis.filters import EMPTY_TERM, decimal_digits
from sparsebench.analysis.scripts.arabic import chain, normalize_arabic, stem_arabic

HAND = {
    "ar": [
        # the prefixes al, wal, bal, kal, fal, ll
        ("الكتاب والكتاب بالقلم كالبدر فالعلم للعلم", ["كتاب", "كتاب", "قلم", "بدر", "علم", "علم"]),
        ("وكتب ولد وقت", ["كتب", "ولد", "وقت"]),  # wa- needs three letters after it
        ("كتابها معلمون معلمين كتابات", ["كتاب", "معلم", "معلم", "كتاب"]),
        ("والمكتبات", ["مكتب"]),  # one prefix, then suffix after suffix
        ("ال وال ها", ["ال", "وال", "ها"]),  # two letters stay
        # normalization: alef forms, teh marbuta (then stemmed as heh), dotless yeh
        ("مدرسة أحمد إبراهيم آمن مصطفى", ["مدرس", "احمد", "ابراهيم", "امن", "مصطف"]),
        ("مُحَمَّد جـمـيـل", ["محمد", "جميل"]),  # harakat and tatweel deleted
        ("٢٠٢٣ abc١٢ ۱۲", ["2023", "abc12", "12"]),  # DecimalDigitFilter
        ("في من على أن إلى ان الى", []),  # stopwords, matched before normalization
        ("ARABIC Arabic", ["arabic", "arabic"]),
        # lengths are UTF-16 units: the math letter counts two
        (
            "و\U0001d465ب ال\U0001d465 والكتاب\U0001d465",
            ["\U0001d465ب", "\U0001d465", "كتاب\U0001d465"],
        ),
    ],
    "fa": [
        # PersianCharFilter: ZWNJ is a space, before the tokenizer
        ("می\u200cخواهم کتاب\u200cها را بخوانم", ["خواهم", "كتاب", "بخوانم"]),
        ("دانشگاه\u200cهای ایران", ["دانشگاه", "ايران"]),
        ("کتاب یک خانهٔ ۀ", ["كتاب", "خانه"]),  # keheh, farsi yeh, hamza above, heh yeh
        ("۱۴۰۲ ١٢ 12", ["1402", "12", "12"]),
        ("این آن است که", []),  # stopwords, matched after normalization
        ("أ إ آ ة ى ي", ["ا", "ا", "ا", "ي", "ي"]),  # Arabic normalization (no stemmer)
        ("مُحَمَّد", ["محمد"]),
        ("PERSIAN Persian", ["persian", "persian"]),
    ],
}


@pytest.mark.parametrize("language", ["ar", "fa"])
def test_hand_cases_equal_lucene(language):
    assert first_difference(chain(language), HAND[language]) is None


@pytest.mark.parametrize("language", ["ar", "fa"])
def test_real_text_equals_lucene(language):
    cases = [
        (text, [term or EMPTY_TERM for term in terms]) for text, terms in lucene_cases(language)
    ]
    assert first_difference(chain(language), cases) is None


def test_a_token_normalization_empties_is_the_empty_term():
    # Lucene: ["", "ب"] and [""]: an empty term, which it indexes
    assert terms_per_text(chain("ar"), ["ـ بـ"]) == [[EMPTY_TERM, "ب"]]
    assert terms_per_text(chain("fa"), ["ـَ"]) == [[EMPTY_TERM]]
    assert normalize_arabic("\u0640\u064e") == ""


def test_the_stemmer_counts_utf16_units_and_keeps_two_letters():
    assert stem_arabic("وقت") == "وقت"  # wa- needs a word of four
    assert stem_arabic("وقتت") == "قتت"
    assert stem_arabic("و\U0001d465") == "و\U0001d465"  # three units
    assert stem_arabic("و\U0001d465ب") == "\U0001d465ب"  # four (Java)
    assert stem_arabic("كتابها") == "كتاب"
    assert stem_arabic("ها") == "ها"


def test_decimal_digits_are_javas():
    digits = pa.array(["\u0663\u06f4", "\u0966x", "\U0001d7d9", "\uff11", "\u00b2", "12", ""])
    assert decimal_digits(digits).to_pylist() == ["34", "0x", "1", "1", "\u00b2", "12", ""]
    # Unicode 13 digits (Java 17): Dives Akuru; Java 11 lacks them
    assert decimal_digits(pa.array(["\U00011953"])).to_pylist() == ["3"]


def test_remembered_terms_are_computed_once(monkeypatch):
    calls = []

    def upper(token: str) -> str:
        calls.append(token)
        return token.upper()

    monkeypatch.setattr(filters, "_MEMORY", 3)
    remembered = filters.remembering(upper)
    assert remembered(pa.array(["a", "b", "a"])).to_pylist() == ["A", "B", "A"]
    assert remembered(pa.array(["b", "c"])).to_pylist() == ["B", "C"]
    assert calls == ["a", "b", "c"]
    assert remembered(pa.array(["d", "a"])).to_pylist() == ["D", "A"]  # full: afresh
    assert calls == ["a", "b", "c", "d", "a"]
