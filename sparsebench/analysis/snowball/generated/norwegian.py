"""Lucene 9.9.1's NorwegianStemmer (org.tartarus.snowball.ext), in Python.

Kept as one module: the mechanical translation of one generated Java class, made
and remade whole (sparsebench/resources/lucene/snowball/README.md); do not edit.
Translated from org/tartarus/snowball/ext/NorwegianStemmer.java (Snowball 2.0.0 with
Lucene's patch); SnowballProgram's port is snowball/program.py. Derived from Apache
Lucene (Apache License 2.0) and the Snowball project (BSD licence): see
sparsebench/resources/lucene/snowball/NOTICE."""

# ruff: noqa: E501, SIM102, SIM103, SIM201, SIM300
from sparsebench.analysis.snowball.program import Among, SnowballProgram, grouping

_A_0 = Among(
    (
        ("a", -1, 1),
        ("e", -1, 1),
        ("ede", 1, 1),
        ("ande", 1, 1),
        ("ende", 1, 1),
        ("ane", 1, 1),
        ("ene", 1, 1),
        ("hetene", 6, 1),
        ("erte", 1, 3),
        ("en", -1, 1),
        ("heten", 9, 1),
        ("ar", -1, 1),
        ("er", -1, 1),
        ("heter", 12, 1),
        ("s", -1, 2),
        ("as", 14, 1),
        ("es", 14, 1),
        ("edes", 16, 1),
        ("endes", 16, 1),
        ("enes", 16, 1),
        ("hetenes", 19, 1),
        ("ens", 14, 1),
        ("hetens", 21, 1),
        ("ers", 14, 1),
        ("ets", 14, 1),
        ("et", -1, 1),
        ("het", 25, 1),
        ("ert", -1, 3),
        ("ast", -1, 1),
    )
)
_A_1 = Among(
    (
        ("dt", -1, -1),
        ("vt", -1, -1),
    )
)
_A_2 = Among(
    (
        ("leg", -1, 1),
        ("eleg", 0, 1),
        ("ig", -1, 1),
        ("eig", 2, 1),
        ("lig", 2, 1),
        ("elig", 4, 1),
        ("els", -1, 1),
        ("lov", -1, 1),
        ("elov", 7, 1),
        ("slov", 7, 1),
        ("hetslov", 9, 1),
    )
)
_G_V_97_248 = grouping(
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
        48,
        0,
        128,
    ),
    97,
    248,
)
_G_S_ENDING_98_122 = grouping(
    (
        119,
        125,
        149,
        1,
    ),
    98,
    122,
)


class NorwegianStemmer(SnowballProgram):
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
        if not self.goto_in_grouping(_G_V_97_248):
            return False
        if not self.gopast_out_grouping(_G_V_97_248):
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
            while True:  # lab0
                v_3 = self.limit - self.cursor
                if self.in_grouping_b(_G_S_ENDING_98_122):
                    break
                self.cursor = self.limit - v_3
                if not self.current.endswith("k", self.limit_backward, self.cursor):
                    return False
                self.cursor -= 1
                if not self.out_grouping_b(_G_V_97_248):
                    return False
                break
            self.slice_del()
        elif among_var == 3:
            self.slice_from("er")
        return True

    def r_consonant_pair(self):
        v_1 = self.limit - self.cursor
        if self.cursor < self.I_p1:
            return False
        v_3 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        if self.find_among_b(_A_1) == 0:
            self.limit_backward = v_3
            return False
        self.bra = self.cursor
        self.limit_backward = v_3
        self.cursor = self.limit - v_1
        if self.cursor <= self.limit_backward:
            return False
        self.cursor -= 1
        self.bra = self.cursor
        self.slice_del()
        return True

    def r_other_suffix(self):
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        if self.find_among_b(_A_2) == 0:
            self.limit_backward = v_2
            return False
        self.bra = self.cursor
        self.limit_backward = v_2
        self.slice_del()
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
