"""Lucene 9.9.1's SwedishStemmer (org.tartarus.snowball.ext), in Python.

Kept as one module: the mechanical translation of one generated Java class, made
and remade whole (sparsebench/resources/lucene/snowball/README.md); do not edit.
Translated from org/tartarus/snowball/ext/SwedishStemmer.java (Snowball 2.0.0 with
Lucene's patch); SnowballProgram's port is snowball/program.py. Derived from Apache
Lucene (Apache License 2.0) and the Snowball project (BSD licence): see
sparsebench/resources/lucene/snowball/NOTICE."""

# ruff: noqa: E501, SIM102, SIM103, SIM201, SIM300
from sparsebench.analysis.snowball.program import Among, SnowballProgram, grouping

_A_0 = Among(
    (
        ("a", -1, 1),
        ("arna", 0, 1),
        ("erna", 0, 1),
        ("heterna", 2, 1),
        ("orna", 0, 1),
        ("ad", -1, 1),
        ("e", -1, 1),
        ("ade", 6, 1),
        ("ande", 6, 1),
        ("arne", 6, 1),
        ("are", 6, 1),
        ("aste", 6, 1),
        ("en", -1, 1),
        ("anden", 12, 1),
        ("aren", 12, 1),
        ("heten", 12, 1),
        ("ern", -1, 1),
        ("ar", -1, 1),
        ("er", -1, 1),
        ("heter", 18, 1),
        ("or", -1, 1),
        ("s", -1, 2),
        ("as", 21, 1),
        ("arnas", 22, 1),
        ("ernas", 22, 1),
        ("ornas", 22, 1),
        ("es", 21, 1),
        ("ades", 26, 1),
        ("andes", 26, 1),
        ("ens", 21, 1),
        ("arens", 29, 1),
        ("hetens", 29, 1),
        ("erns", 21, 1),
        ("at", -1, 1),
        ("andet", -1, 1),
        ("het", -1, 1),
        ("ast", -1, 1),
    )
)
_A_1 = Among(
    (
        ("dd", -1, -1),
        ("gd", -1, -1),
        ("nn", -1, -1),
        ("dt", -1, -1),
        ("gt", -1, -1),
        ("kt", -1, -1),
        ("tt", -1, -1),
    )
)
_A_2 = Among(
    (
        ("ig", -1, 1),
        ("lig", 0, 1),
        ("els", -1, 1),
        ("fullt", -1, 3),
        ("l\u00f6st", -1, 2),
    )
)
_G_V_97_246 = grouping(
    (
        17,
        65,
        16,
        1,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        24,
        0,
        32,
    ),
    97,
    246,
)
_G_S_ENDING_98_121 = grouping(
    (
        119,
        127,
        149,
    ),
    98,
    121,
)


class SwedishStemmer(SnowballProgram):
    __slots__ = ("I_x", "I_p1")
    FIELDS = ("I_x", "I_p1")

    def __init__(self):
        super().__init__()
        self.I_x = 0
        self.I_p1 = 0

    def r_mark_regions(self):
        self.I_p1 = self.limit
        v_1 = self.cursor
        c = self.cursor + 3
        if (0 > c) or (c > self.limit):
            return False
        self.cursor = c
        self.I_x = self.cursor
        self.cursor = v_1
        if not self.goto_in_grouping(_G_V_97_246):
            return False
        if not self.gopast_out_grouping(_G_V_97_246):
            return False
        self.I_p1 = self.cursor
        if self.I_p1 < self.I_x:
            self.I_p1 = self.I_x
        return True

    def r_main_suffix(self):
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        among_var = self.find_among_b(_A_0)
        if among_var == 0:
            self.limit_backward = v_2
            return False
        self.bra = self.cursor
        self.limit_backward = v_2
        if among_var == 1:
            self.slice_del()
        elif among_var == 2:
            if not self.in_grouping_b(_G_S_ENDING_98_121):
                return False
            self.slice_del()
        return True

    def r_consonant_pair(self):
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        v_3 = self.limit - self.cursor
        if self.find_among_b(_A_1) == 0:
            self.limit_backward = v_2
            return False
        self.cursor = self.limit - v_3
        self.ket = self.cursor
        if self.cursor <= self.limit_backward:
            self.limit_backward = v_2
            return False
        self.cursor -= 1
        self.bra = self.cursor
        self.slice_del()
        self.limit_backward = v_2
        return True

    def r_other_suffix(self):
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        among_var = self.find_among_b(_A_2)
        if among_var == 0:
            self.limit_backward = v_2
            return False
        self.bra = self.cursor
        if among_var == 1:
            self.slice_del()
        elif among_var == 2:
            self.slice_from("l\u00f6s")
        elif among_var == 3:
            self.slice_from("full")
        self.limit_backward = v_2
        return True

    def _stem(self):
        v_1 = self.cursor
        self.r_mark_regions()
        self.cursor = v_1
        self.limit_backward = self.cursor
        self.cursor = self.limit
        v_2 = self.limit - self.cursor
        self.r_main_suffix()
        self.cursor = self.limit - v_2
        v_3 = self.limit - self.cursor
        self.r_consonant_pair()
        self.cursor = self.limit - v_3
        v_4 = self.limit - self.cursor
        self.r_other_suffix()
        self.cursor = self.limit - v_4
        self.cursor = self.limit_backward
        return True

    def stem(self, word):
        """The stem of one word (a str of UTF-16 code units)."""
        self.set_current(word)
        self._stem()
        return self.current[: self.limit]
