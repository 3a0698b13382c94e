"""Lucene's HindiAnalyzer (hi), BengaliAnalyzer (bn) and TeluguAnalyzer (te), as Anserini
builds them (the default constructors), term for term.

Each is StandardTokenizer, LowerCaseFilter (not in TeluguAnalyzer), DecimalDigitFilter,
IndicNormalizationFilter, the language's normalization filter, StopFilter (the
language's stopwords.txt) and the language's stem filter. Their SetKeywordMarkerFilter
(after DecimalDigitFilter) is only added for a non-empty set of keywords (none here).

IndicNormalizer composes what Unicode spells in two or three characters in any of nine
Indian scripts (not only the analyzer's own); the language normalizers fold spelling
variants; the stemmers remove the first suffix of their lists (longest first) that leaves
at least two characters. Where Java scans a token and rewrites it as it goes, a regular
expression does the same scan: leftmost, the first alternative of the table's order that
matches, resuming after it. The Bengali normalizer looks back at what it has already
rewritten and at absolute positions, so it is a loop over the token's UTF-16 units.

Ported from Apache Lucene 9.9.1 (IndicNormalizer, HindiNormalizer, HindiStemmer,
BengaliNormalizer, BengaliStemmer, TeluguNormalizer, TeluguStemmer), licensed under the
Apache License, Version 2.0; Copyright The Apache Software Foundation. See
sparsebench/resources/lucene/scripts/NOTICE.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sparsebench.analysis.batch_tokens import standard_tokens
from sparsebench.analysis.chains import Chain
from sparsebench.analysis.filters import (
    chained,
    decimal_digits,
    lowercase,
    remembering,
    utf16_length,
    word_set,
)

# IndicNormalizer's scripts: flag -> the first code point of the script's Unicode block
# (Character.UnicodeBlock; each block is 128 code points).
DEVANAGARI, BENGALI, GURMUKHI, GUJARATI, ORIYA = 1, 2, 4, 8, 16
TAMIL, TELUGU, KANNADA, MALAYALAM = 32, 64, 128, 256
INDIC_BLOCKS = {
    DEVANAGARI: 0x0900,
    BENGALI: 0x0980,
    GURMUKHI: 0x0A00,
    GUJARATI: 0x0A80,
    ORIYA: 0x0B00,
    TAMIL: 0x0B80,
    TELUGU: 0x0C00,
    KANNADA: 0x0C80,
    MALAYALAM: 0x0D00,
}
ZWJ_OFFSET = 0xFF  # a third character that is ZERO WIDTH JOINER, in the table
# IndicNormalizer.decompositions, in Java's order: (first, second, third or -1, composed
# character, scripts), characters as offsets in the script's block.
INDIC_DECOMPOSITIONS = (
    (0x05, 0x3E, 0x45, 0x11, DEVANAGARI | GUJARATI),
    (0x05, 0x3E, 0x46, 0x12, DEVANAGARI),
    (0x05, 0x3E, 0x47, 0x13, DEVANAGARI | GUJARATI),
    (0x05, 0x3E, 0x48, 0x14, DEVANAGARI | GUJARATI),
    (0x05, 0x3E, -1, 0x06, DEVANAGARI | BENGALI | GURMUKHI | GUJARATI | ORIYA),
    (0x05, 0x45, -1, 0x72, DEVANAGARI),
    (0x05, 0x45, -1, 0x0D, GUJARATI),
    (0x05, 0x46, -1, 0x04, DEVANAGARI),
    (0x05, 0x47, -1, 0x0F, GUJARATI),
    (0x05, 0x48, -1, 0x10, GURMUKHI | GUJARATI),
    (0x05, 0x49, -1, 0x11, DEVANAGARI | GUJARATI),
    (0x05, 0x4A, -1, 0x12, DEVANAGARI),
    (0x05, 0x4B, -1, 0x13, DEVANAGARI | GUJARATI),
    (0x05, 0x4C, -1, 0x14, DEVANAGARI | GURMUKHI | GUJARATI),
    (0x06, 0x45, -1, 0x11, DEVANAGARI | GUJARATI),
    (0x06, 0x46, -1, 0x12, DEVANAGARI),
    (0x06, 0x47, -1, 0x13, DEVANAGARI | GUJARATI),
    (0x06, 0x48, -1, 0x14, DEVANAGARI | GUJARATI),
    (0x07, 0x57, -1, 0x08, MALAYALAM),
    (0x09, 0x41, -1, 0x0A, DEVANAGARI),
    (0x09, 0x57, -1, 0x0A, TAMIL | MALAYALAM),
    (0x0E, 0x46, -1, 0x10, MALAYALAM),
    (0x0F, 0x45, -1, 0x0D, DEVANAGARI),
    (0x0F, 0x46, -1, 0x0E, DEVANAGARI),
    (0x0F, 0x47, -1, 0x10, DEVANAGARI),
    (0x0F, 0x57, -1, 0x10, ORIYA),
    (0x12, 0x3E, -1, 0x13, MALAYALAM),
    (0x12, 0x4C, -1, 0x14, TELUGU | KANNADA),
    (0x12, 0x55, -1, 0x13, TELUGU),
    (0x12, 0x57, -1, 0x14, TAMIL | MALAYALAM),
    (0x13, 0x57, -1, 0x14, ORIYA),
    (0x15, 0x3C, -1, 0x58, DEVANAGARI),
    (0x16, 0x3C, -1, 0x59, DEVANAGARI | GURMUKHI),
    (0x17, 0x3C, -1, 0x5A, DEVANAGARI | GURMUKHI),
    (0x1C, 0x3C, -1, 0x5B, DEVANAGARI | GURMUKHI),
    (0x21, 0x3C, -1, 0x5C, DEVANAGARI | BENGALI | ORIYA),
    (0x22, 0x3C, -1, 0x5D, DEVANAGARI | BENGALI | ORIYA),
    (0x23, 0x4D, 0xFF, 0x7A, MALAYALAM),
    (0x24, 0x4D, 0xFF, 0x4E, BENGALI),
    (0x28, 0x3C, -1, 0x29, DEVANAGARI),
    (0x28, 0x4D, 0xFF, 0x7B, MALAYALAM),
    (0x2B, 0x3C, -1, 0x5E, DEVANAGARI | GURMUKHI),
    (0x2F, 0x3C, -1, 0x5F, DEVANAGARI | BENGALI),
    (0x2C, 0x41, 0x41, 0x0B, TELUGU),
    (0x30, 0x3C, -1, 0x31, DEVANAGARI),
    (0x30, 0x4D, 0xFF, 0x7C, MALAYALAM),
    (0x32, 0x4D, 0xFF, 0x7D, MALAYALAM),
    (0x33, 0x3C, -1, 0x34, DEVANAGARI),
    (0x33, 0x4D, 0xFF, 0x7E, MALAYALAM),
    (0x35, 0x41, -1, 0x2E, TELUGU),
    (0x3E, 0x45, -1, 0x49, DEVANAGARI | GUJARATI),
    (0x3E, 0x46, -1, 0x4A, DEVANAGARI),
    (0x3E, 0x47, -1, 0x4B, DEVANAGARI | GUJARATI),
    (0x3E, 0x48, -1, 0x4C, DEVANAGARI | GUJARATI),
    (0x3F, 0x55, -1, 0x40, KANNADA),
    (0x41, 0x41, -1, 0x42, GURMUKHI),
    (0x46, 0x3E, -1, 0x4A, TAMIL | MALAYALAM),
    (0x46, 0x42, 0x55, 0x4B, KANNADA),
    (0x46, 0x42, -1, 0x4A, KANNADA),
    (0x46, 0x46, -1, 0x48, MALAYALAM),
    (0x46, 0x55, -1, 0x47, TELUGU | KANNADA),
    (0x46, 0x56, -1, 0x48, TELUGU | KANNADA),
    (0x46, 0x57, -1, 0x4C, TAMIL | MALAYALAM),
    (0x47, 0x3E, -1, 0x4B, BENGALI | ORIYA | TAMIL | MALAYALAM),
    (0x47, 0x57, -1, 0x4C, BENGALI | ORIYA),
    (0x4A, 0x55, -1, 0x4B, KANNADA),
    (0x72, 0x3F, -1, 0x07, GURMUKHI),
    (0x72, 0x40, -1, 0x08, GURMUKHI),
    (0x72, 0x47, -1, 0x0F, GURMUKHI),
    (0x73, 0x41, -1, 0x09, GURMUKHI),
    (0x73, 0x42, -1, 0x0A, GURMUKHI),
    (0x73, 0x4B, -1, 0x13, GURMUKHI),
)

# HindiNormalizer: dead n (na + virama) -> anusvara; then single characters: candrabindu
# -> anusvara, nukta forms -> their bases, ZWJ, ZWNJ, virama and nukta deleted, candra
# and short vowels -> e and o, long vowels -> short ones.
HINDI_NORMALIZATION = {"\u0928\u094d": "\u0902", "\u0901": "\u0902"} | {
    **dict(zip("\u0929\u0931\u0934", "\u0928\u0930\u0933", strict=True)),
    **dict(zip("\u0958\u0959\u095a\u095b", "\u0915\u0916\u0917\u091c", strict=True)),
    **dict(zip("\u095c\u095d\u095e\u095f", "\u0921\u0922\u092b\u092f", strict=True)),
    **dict.fromkeys(("\u093c", "\u200d", "\u200c", "\u094d"), ""),
    **dict.fromkeys(("\u0945", "\u0946"), "\u0947"),
    **dict.fromkeys(("\u0949", "\u094a"), "\u094b"),
    **dict.fromkeys(("\u090d", "\u090e"), "\u090f"),
    **dict.fromkeys(("\u0911", "\u0912"), "\u0913"),
    "\u0972": "\u0905",
    **dict(zip("\u0906\u0908\u090a\u0960\u0961", "\u0905\u0907\u0909\u090b\u090c", strict=True)),
    "\u0910": "\u090f",
    "\u0914": "\u0913",
    **dict(zip("\u0940\u0942\u0944\u0963", "\u093f\u0941\u0943\u0962", strict=True)),
    "\u0948": "\u0947",
    "\u094c": "\u094b",
}
# TeluguNormalizer: the two-character compositions (e + ai length mark -> ai, o + length
# mark -> oo, o + au sign -> au), then single characters: candrabindus -> anusvara,
# visarga, ZWJ and ZWNJ deleted, long vowels and vowel signs -> short ones.
TELUGU_NORMALIZATION = {
    "\u0c46\u0c56": "\u0c48",
    "\u0c12\u0c55": "\u0c13",
    "\u0c12\u0c4c": "\u0c14",
    **dict.fromkeys(("\u0c00", "\u0c01"), "\u0c02"),
    **dict.fromkeys(("\u0c03", "\u200d", "\u200c"), ""),
    **dict(zip("\u0c14\u0c10\u0c06\u0c08\u0c0a", "\u0c13\u0c0f\u0c05\u0c07\u0c09", strict=True)),
    **dict(zip("\u0c40\u0c42\u0c47\u0c4b", "\u0c3f\u0c41\u0c46\u0c4a", strict=True)),
}

# BengaliNormalizer's rules of one character: chandrabindu deleted, dirgho i-kar and
# u-kar -> rossho, nga -> anusvara, the sh -> sa, nna -> na, rra and rha -> ra, khanda ta
# -> ta.
BENGALI_SINGLE_CHARACTERS = str.maketrans(
    {"\u0981": None, "\u09c0": "\u09bf", "\u09c2": "\u09c1", "\u0999": "\u0982"}
    | {"\u09b6": "\u09b8", "\u09b7": "\u09b8", "\u09a3": "\u09a8", "\u09dc": "\u09b0"}
    | {"\u09dd": "\u09b0", "\u09ce": "\u09a4"}
)

# The stemmers' suffixes, in Java's order (longest first): the first that ends the token
# and leaves at least two characters is removed. As in Lucene's source.
HINDI_SUFFIXES = (
    "ाएंगी", "ाएंगे", "ाऊंगी", "ाऊंगा", "ाइयाँ", "ाइयों", "ाइयां", "ाएगी", "ाएगा",
    "ाओगी", "ाओगे", "एंगी", "ेंगी", "एंगे", "ेंगे", "ूंगी", "ूंगा", "ातीं", "नाओं",
    "नाएं", "ताओं", "ताएं", "ियाँ", "ियों", "ियां", "ाकर", "ाइए", "ाईं", "ाया", "ेगी",
    "ेगा", "ोगी", "ोगे", "ाने", "ाना", "ाते", "ाती", "ाता", "तीं", "ाओं", "ाएं", "ुओं",
    "ुएं", "ुआं", "कर", "ाओ", "िए", "ाई", "ाए", "ने", "नी", "ना", "ते", "ीं", "ती",
    "ता", "ाँ", "ां", "ों", "ें", "ो", "े", "ू", "ु", "ी", "ि", "ा",
)  # fmt: skip
BENGALI_SUFFIXES = (
    "িয়াছিলাম", "িতেছিলাম", "িতেছিলেন", "ইতেছিলেন", "িয়াছিলেন", "ইয়াছিলেন", "িতেছিলি",
    "িতেছিলে", "িয়াছিলা", "িয়াছিলে", "িতেছিলা", "িয়াছিলি", "য়েদেরকে", "িতেছিস",
    "িতেছেন", "িয়াছিস", "িয়াছেন", "েছিলাম", "েছিলেন", "েদেরকে", "িতেছি", "িতেছা",
    "িতেছে", "ছিলাম", "ছিলেন", "িয়াছি", "িয়াছা", "িয়াছে", "েছিলে", "েছিলা", "য়েদের",
    "দেরকে", "িলাম", "িলেন", "িতাম", "িতেন", "িবেন", "ছিলি", "ছিলে", "ছিলা", "তেছে",
    "িতেছ", "খানা", "খানি", "গুলো", "গুলি", "য়েরা", "েদের", "লাম", "িলি", "ইলি", "িলে",
    "ইলে", "লেন", "িলা", "ইলা", "তাম", "িতি", "ইতি", "িতে", "ইতে", "তেন", "িতা", "িবা",
    "ইবা", "িবি", "ইবি", "বেন", "িবে", "ইবে", "ছেন", "য়োন", "য়ের", "েরা", "দের", "িস",
    "েন", "লি", "লে", "লা", "তি", "তে", "তা", "বি", "বে", "বা", "ছি", "ছা", "ছে", "ুন",
    "ুক", "টা", "টি", "নি", "ের", "তে", "রা", "কে", "ি", "ী", "া", "ো", "ে", "ব", "ত",
)  # fmt: skip
TELUGU_SUFFIXES = (
    "ళ్ళు", "డ్లు", "డు", "ము", "వు", "లు", "ని", "ను", "చే", "కై", "లో", "డు", "ది",
    "కి", "సు", "వై", "పై", "ి", "ీ", "ు", "ూ", "ె", "ే", "ొ", "ో", "ా",
)  # fmt: skip


def indic_spellings() -> dict[str, str]:
    """IndicNormalizer's decompositions as spellings -> composed characters, in the
    table's order (the first of a script's rules for a spelling is the one Java finds)."""
    spellings: dict[str, str] = {}
    for first, second, third, composed, scripts in INDIC_DECOMPOSITIONS:
        for flag, block in INDIC_BLOCKS.items():
            if scripts & flag:
                spelled = chr(block + first) + chr(block + second)
                if third == ZWJ_OFFSET:
                    spelled += "\u200d"
                elif third >= 0:
                    spelled += chr(block + third)
                spellings.setdefault(spelled, chr(block + composed))
    return spellings


def scanner(rules: dict[str, str]) -> Callable[[str], str]:
    """Java's left-to-right rewrite of a token by a table of spellings: at each position
    the first spelling (in the table's order) that starts there is replaced, and the scan
    resumes after it (what it wrote is not looked at again)."""
    pattern = re.compile("|".join(map(re.escape, rules)))
    return lambda token: pattern.sub(lambda found: rules[found.group()], token)


def utf16_units(token: str) -> list[str]:
    """A token as Java's char[]: characters beyond the BMP as two surrogates."""
    if token.isascii() or max(token) < "\U00010000":
        return list(token)
    data = token.encode("utf-16-le")
    return [chr(int.from_bytes(data[i : i + 2], "little")) for i in range(0, len(data), 2)]


def from_utf16_units(units: list[str]) -> str:
    """The string Lucene indexes for a char[]: an unpaired surrogate as U+FFFD."""
    joined = "".join(units)
    return joined.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def normalize_bengali(token: str) -> str:
    """BengaliNormalizer, line for line: it reads back what it has rewritten and looks
    at absolute positions (a ya-phala at the third place becomes an e-kar). Its rules
    that look around need a hoshonto or a visarga (and none writes a hoshonto): without
    them, what is left maps single characters."""
    if "\u09cd" not in token and "\u0983" not in token:
        return token.translate(BENGALI_SINGLE_CHARACTERS)
    s = utf16_units(token)
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\u0981":  # chandrabindu: deleted
            del s[i]
            i -= 1
        elif c == "\u09c0":  # dirgho i-kar -> rossho i-kar
            s[i] = "\u09bf"
        elif c == "\u09c2":  # dirgho u-kar -> rossho u-kar
            s[i] = "\u09c1"
        elif c == "\u0995":  # khio: ka + hoshonto + i-kar
            if i + 2 < len(s) and s[i + 1] == "\u09cd" and s[i + 2] == "\u09bf":
                if i == 0:
                    s[i] = "\u0996"
                    del s[i + 1 : i + 3]
                else:
                    s[i + 1] = "\u0996"
                    del s[i + 2]
        elif c == "\u0999":  # nga -> anusvara
            s[i] = "\u0982"
        elif c == "\u09af":  # ja-phala
            if i == 2 and s[i - 1] == "\u09cd":
                s[i - 1] = "\u09c7"
                if i + 1 < len(s) and s[i + 1] == "\u09be":
                    del s[i + 1]
                del s[i]
                i -= 1
            elif i >= 1 and s[i - 1] == "\u09cd":
                del s[i - 1 : i + 1]
                i -= 2
        elif c == "\u09ac":  # ba-phala
            if i >= 1 and s[i - 1] == "\u09cd":
                if i == 2 or (i >= 5 and s[i - 3] == "\u09cd"):
                    del s[i - 1 : i + 1]
                    i -= 2
                elif i >= 2:
                    s[i - 1] = s[i - 2]
                    del s[i]
                    i -= 1
        elif c == "\u0983":  # visarga
            if i == len(s) - 1:
                if len(s) <= 3:
                    s[i] = "\u09b9"
                else:
                    del s[i]
            else:
                s[i] = s[i + 1]
        elif c in ("\u09b6", "\u09b7"):  # all sh -> sa
            s[i] = "\u09b8"
        elif c == "\u09a3":  # nna -> na
            s[i] = "\u09a8"
        elif c in ("\u09dc", "\u09dd"):  # rra, rha -> ra
            s[i] = "\u09b0"
        elif c == "\u09ce":  # khanda ta -> ta
            s[i] = "\u09a4"
        i += 1
    return from_utf16_units(s)


def suffix_stemmer(suffixes: tuple[str, ...]) -> Callable[[str], str]:
    """A Lucene stemmer of the Indian languages: the first suffix of the list that ends
    the token and leaves at least two UTF-16 units is removed."""
    groups: dict[int, tuple[str, ...]] = {}
    for suffix in suffixes:  # runs of one length, in order (one endswith per run)
        groups[len(suffix)] = (*groups.get(len(suffix), ()), suffix)
    if list(groups) != sorted(groups, reverse=True):
        raise ValueError("the suffixes are not in order of length, longest first")

    def stem(token: str) -> str:
        for size, group in groups.items():
            if token.endswith(group) and (len(token) > size + 1 or utf16_length(token) > size + 1):
                return token[:-size]
        return token

    return stem


def indic_term(
    normalize: Callable[[str], str], stopwords: frozenset[str], stem: Callable[[str], str]
) -> Callable[[str], str]:
    """After LowerCaseFilter and DecimalDigitFilter: IndicNormalizationFilter, the
    language's normalization filter, StopFilter, the language's stem filter."""
    indic = scanner(indic_spellings())

    def term(token: str) -> str:
        normalized = normalize(indic(token))
        return "" if normalized in stopwords else stem(normalized)

    return term


def chain(language: str) -> Chain:
    if language == "hi":
        normalize = scanner(HINDI_NORMALIZATION)
        suffixes = HINDI_SUFFIXES
    elif language == "bn":
        normalize = normalize_bengali
        suffixes = BENGALI_SUFFIXES
    else:
        normalize = scanner(TELUGU_NORMALIZATION)
        suffixes = TELUGU_SUFFIXES
    stopwords = word_set(f"scripts/{language}/stopwords.txt")
    term = remembering(indic_term(normalize, stopwords, suffix_stemmer(suffixes)))
    return Chain(
        language=language,
        tokenize=standard_tokens,
        filter=chained(decimal_digits, term)
        if language == "te"
        else chained(lowercase, decimal_digits, term),
    )
