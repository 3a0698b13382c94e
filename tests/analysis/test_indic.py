"""HindiAnalyzer (hi), BengaliAnalyzer (bn) and TeluguAnalyzer (te), term for term.

Every expected list below is what Lucene 9.9.1 gives (the analyzer's default
constructor, as Anserini builds it, on Java 17); data/{hi,bn,te}.tsv.gz hold 2,000 texts
each (gettext catalogues and faker's Hindi and Bengali locales, with digits, Latin words
and the characters the normalizers act on) with Lucene's terms.
"""

from __future__ import annotations

import pytest
from chain_cases import first_difference, lucene_cases

from sparsebench.analysis.scripts.indic import (
    HINDI_SUFFIXES,
    chain,
    indic_spellings,
    normalize_bengali,
    scanner,
    suffix_stemmer,
)

HAND = {
    "hi": [
        ("लड़कियाँ लड़कों किताबें जाएंगी", ["लडक", "लडक", "किताब", "जाएंग"]),
        ("क़िला क\u093cिला", ["किल", "किल"]),  # precomposed and decomposed nukta
        ("अँग्रेज़ी हिन्दी हिंदी", ["अंगरेज", "हिंद", "हिंद"]),  # dead n -> anusvara
        ("क्\u200dष क्\u200cष", ["कष", "कष"]),  # ZWJ, ZWNJ and virama deleted
        ("अा अॅ", ["अ", "अ"]),  # IndicNormalizer composes, then long -> short
        ("२०२३ हिंदी२", ["2023", "हिंदि2"]),
        ("और के है यह", []),
        ("HINDI Hindi", ["hindi", "hindi"]),
        ("घरों पढ़ाई", ["घर", "पढाइ"]),
        ("\U0001d465ो \U0001d465कर", ["\U0001d465", "\U0001d465"]),  # UTF-16 lengths
    ],
    "bn": [
        ("ব্যাংক বিদ্যাল\u09af\u09bc ব্যস্ত", ["বেংক", "বিদাল\u09df", "বেস্"]),  # ya-phala; ya + nukta
        ("বিশ্ব স্বাধীন দ্বিতী\u09af\u09bc", ["বিসস", "সাধিন", "দিতি\u09df"]),  # ba-phala
        ("দুঃখ অতঃ প্রা\u09af\u09bcশঃ", ["দুখখ", "অতহ", "প্রা\u09dfস"]),  # visarga
        ("উৎসব চাঁদ", ["উতস", "চাদ"]),  # khanda ta, chandrabindu
        ("অা ড\u09bc", ["আ"]),  # IndicNormalizer composes aa and rra
        ("ছেলেদের করিতেছিলাম বইগুলো", ["ছেল", "কর", "বই"]),
        ("১৯৭১ সালে", ["1971", "সা"]),
        ("ক্ষমা ক্িত", ["ক্সম", "খত"]),
        ("এবং ও এই", ["এবং"]),
        ("BANGLA", ["bangla"]),
        # the visarga copies the next UTF-16 unit: half a surrogate pair, indexed as U+FFFD
        ("কঃ\U0001d465 ক\U0001d465ঃ", ["ক\ufffd\U0001d465", "ক\U0001d465"]),
    ],
    "te": [
        ("TELUGU Telugu", ["TELUGU", "Telugu"]),  # no LowerCaseFilter
        ("దుఃఖం తెలుగు\u200cలో", ["దుఖం", "తెలుగుల"]),
        ("ఆట ఈ ఊరు ఐదు ఔను", ["అట", "ఇ", "ఉర", "ఏద", "ఓన"]),
        ("\u0c46\u0c56 క\u0c46\u0c56", ["కై"]),
        ("ఒ\u0c55 ఒ\u0c4c", ["ఓ", "ఓ"]),
        ("బు\u0c41 వు", ["ఋ", "మ"]),  # IndicNormalizer's Telugu rules
        ("పిల్లలు రాముడు ఇళ్ళు", ["పిల్ల", "రాము", "ఇళ్ళ"]),
        ("౧౨౩ ౨౦౨౩", ["123", "2023"]),
        ("మరియు ఈ ఆ", ["ఇ", "అ"]),
    ],
}


@pytest.mark.parametrize("language", ["hi", "bn", "te"])
def test_hand_cases_equal_lucene(language):
    assert first_difference(chain(language), HAND[language]) is None


@pytest.mark.parametrize("language", ["hi", "bn", "te"])
def test_real_text_equals_lucene(language):
    assert first_difference(chain(language), lucene_cases(language)) is None


def test_indic_normalizer_takes_the_first_rule_and_does_not_rescan():
    normalize = scanner(indic_spellings())
    assert normalize("\u0905\u093e\u0945") == "\u0911"  # three characters before two
    assert normalize("\u0905\u093e") == "\u0906"
    assert normalize("\u0905\u093e\u093e") == "\u0906\u093e"
    assert normalize("\u09a4\u09cd\u200d") == "\u09ce"  # a rule with ZWJ: khanda ta
    assert normalize("\u09a4\u09cd") == "\u09a4\u09cd"
    assert normalize("\u0d23\u0d4d\u200d\u0d23\u0d4d\u200d") == "\u0d7a\u0d7a"
    assert normalize("\u0905\u0a3e") == "\u0905\u0a3e"  # one script only


def test_bengali_normalizer_looks_back_at_what_it_wrote():
    assert normalize_bengali("\u09ac\u09cd\u09af\u09be") == "\u09ac\u09c7"  # ya-phala third
    assert normalize_bengali("\u0995\u0983\u0995") == "\u0995\u0995\u0995"  # visarga copies


def test_suffix_stemmer_wants_longest_suffixes_first():
    stem = suffix_stemmer(HINDI_SUFFIXES)
    assert stem("लड़कियाँ") == "लड़क"
    assert stem("का") == "का"  # two letters stay
    with pytest.raises(ValueError, match="longest first"):
        suffix_stemmer(("ा", "ाएं"))
