"""Lucene 9.9.1's DanishStemmer (org.tartarus.snowball.ext), in Python.

Kept as one module: the mechanical translation of one generated Java class, made
and remade whole (sparsebench/resources/lucene/snowball/README.md); do not edit.
Translated from org/tartarus/snowball/ext/DanishStemmer.java (Snowball 2.0.0 with
Lucene's patch); SnowballProgram's port is snowball/program.py. Derived from Apache
Lucene (Apache License 2.0) and the Snowball project (BSD licence): see
sparsebench/resources/lucene/snowball/NOTICE."""

# ruff: noqa: E501, SIM102, SIM103, SIM201, SIM300
from sparsebench.analysis.snowball.program import Among, SnowballProgram, grouping

_A_0 = Among(
    (
        ("hed", -1, 1),
        ("ethed", 0, 1),
        ("ered", -1, 1),
        ("e", -1, 1),
        ("erede", 3, 1),
        ("ende", 3, 1),
        ("erende", 5, 1),
        ("ene", 3, 1),
        ("erne", 3, 1),
        ("ere", 3, 1),
        ("en", -1, 1),
        ("heden", 10, 1),
        ("eren", 10, 1),
        ("er", -1, 1),
        ("heder", 13, 1),
        ("erer", 13, 1),
        ("s", -1, 2),
        ("heds", 16, 1),
        ("es", 16, 1),
        ("endes", 18, 1),
        ("erendes", 19, 1),
        ("enes", 18, 1),
        ("ernes", 18, 1),
        ("eres", 18, 1),
        ("ens", 16, 1),
        ("hedens", 24, 1),
        ("erens", 24, 1),
        ("ers", 16, 1),
        ("ets", 16, 1),
        ("erets", 28, 1),
        ("et", -1, 1),
        ("eret", 30, 1),
    )
)
_A_1 = Among(
    (
        ("gd", -1, -1),
        ("dt", -1, -1),
        ("gt", -1, -1),
        ("kt", -1, -1),
    )
)
_A_2 = Among(
    (
        ("ig", -1, 1),
        ("lig", 0, 1),
        ("elig", 1, 1),
        ("els", -1, 1),
        ("l\u00f8st", -1, 2),
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
_G_S_ENDING_97_229 = grouping(
    (
        239,
        254,
        42,
        3,
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
        16,
    ),
    97,
    229,
)
_G_C_98_122 = grouping(
    (
        119,
        223,
        119,
        1,
    ),
    98,
    122,
)


class DanishStemmer(SnowballProgram):
    __slots__ = ("I_x", "I_p1", "S_ch")
    FIELDS = ("I_x", "I_p1", "S_ch")

    def __init__(self):
        super().__init__()
        self.I_x = 0
        self.I_p1 = 0
        self.S_ch = ""

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
            if not self.in_grouping_b(_G_S_ENDING_97_229):
                return False
            self.slice_del()
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
        v_1 = self.limit - self.cursor
        self.ket = self.cursor
        if self.current.endswith("st", self.limit_backward, self.cursor):
            self.cursor -= 2
            self.bra = self.cursor
            if self.current.endswith("ig", self.limit_backward, self.cursor):
                self.cursor -= 2
                self.slice_del()
        self.cursor = self.limit - v_1
        if self.cursor < self.I_p1:
            return False
        v_3 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        among_var = self.find_among_b(_A_2)
        if among_var == 0:
            self.limit_backward = v_3
            return False
        self.bra = self.cursor
        self.limit_backward = v_3
        if among_var == 1:
            self.slice_del()
            v_4 = self.limit - self.cursor
            self.r_consonant_pair()
            self.cursor = self.limit - v_4
        elif among_var == 2:
            self.slice_from("l\u00f8s")
        return True

    def r_undouble(self):
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        if not self.in_grouping_b(_G_C_98_122):
            self.limit_backward = v_2
            return False
        self.bra = self.cursor
        self.S_ch = self.slice_to()
        self.limit_backward = v_2
        if not self.eq_s_b(self.S_ch):
            return False
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
        v_5 = self.limit - self.cursor
        self.r_undouble()
        self.cursor = self.limit - v_5
        self.cursor = self.limit_backward
        return True

    def stem(self, word):
        """The stem of one word (a str of UTF-16 code units)."""
        self.set_current(word)
        self._stem()
        return self.current[: self.limit]
