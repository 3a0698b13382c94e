"""Lucene 9.9.1's FinnishStemmer (org.tartarus.snowball.ext), in Python.

Kept as one module: the mechanical translation of one generated Java class, made
and remade whole (sparsebench/resources/lucene/snowball/README.md); do not edit.
Translated from org/tartarus/snowball/ext/FinnishStemmer.java (Snowball 2.0.0 with
Lucene's patch); SnowballProgram's port is snowball/program.py. Derived from Apache
Lucene (Apache License 2.0) and the Snowball project (BSD licence): see
sparsebench/resources/lucene/snowball/NOTICE."""

# ruff: noqa: E501, SIM102, SIM103, SIM201, SIM300
from sparsebench.analysis.snowball.program import Among, SnowballProgram, grouping

_A_0 = Among(
    (
        ("pa", -1, 1),
        ("sti", -1, 2),
        ("kaan", -1, 1),
        ("han", -1, 1),
        ("kin", -1, 1),
        ("h\u00e4n", -1, 1),
        ("k\u00e4\u00e4n", -1, 1),
        ("ko", -1, 1),
        ("p\u00e4", -1, 1),
        ("k\u00f6", -1, 1),
    )
)
_A_1 = Among(
    (
        ("lla", -1, -1),
        ("na", -1, -1),
        ("ssa", -1, -1),
        ("ta", -1, -1),
        ("lta", 3, -1),
        ("sta", 3, -1),
    )
)
_A_2 = Among(
    (
        ("ll\u00e4", -1, -1),
        ("n\u00e4", -1, -1),
        ("ss\u00e4", -1, -1),
        ("t\u00e4", -1, -1),
        ("lt\u00e4", 3, -1),
        ("st\u00e4", 3, -1),
    )
)
_A_3 = Among(
    (
        ("lle", -1, -1),
        ("ine", -1, -1),
    )
)
_A_4 = Among(
    (
        ("nsa", -1, 3),
        ("mme", -1, 3),
        ("nne", -1, 3),
        ("ni", -1, 2),
        ("si", -1, 1),
        ("an", -1, 4),
        ("en", -1, 6),
        ("\u00e4n", -1, 5),
        ("ns\u00e4", -1, 3),
    )
)
_A_5 = Among(
    (
        ("aa", -1, -1),
        ("ee", -1, -1),
        ("ii", -1, -1),
        ("oo", -1, -1),
        ("uu", -1, -1),
        ("\u00e4\u00e4", -1, -1),
        ("\u00f6\u00f6", -1, -1),
    )
)
_A_6 = Among(
    (
        ("a", -1, 8),
        ("lla", 0, -1),
        ("na", 0, -1),
        ("ssa", 0, -1),
        ("ta", 0, -1),
        ("lta", 4, -1),
        ("sta", 4, -1),
        ("tta", 4, 2),
        ("lle", -1, -1),
        ("ine", -1, -1),
        ("ksi", -1, -1),
        ("n", -1, 7),
        ("han", 11, 1),
        ("den", 11, -1, "r_VI"),
        ("seen", 11, -1, "r_LONG"),
        ("hen", 11, 2),
        ("tten", 11, -1, "r_VI"),
        ("hin", 11, 3),
        ("siin", 11, -1, "r_VI"),
        ("hon", 11, 4),
        ("h\u00e4n", 11, 5),
        ("h\u00f6n", 11, 6),
        ("\u00e4", -1, 8),
        ("ll\u00e4", 22, -1),
        ("n\u00e4", 22, -1),
        ("ss\u00e4", 22, -1),
        ("t\u00e4", 22, -1),
        ("lt\u00e4", 26, -1),
        ("st\u00e4", 26, -1),
        ("tt\u00e4", 26, 2),
    )
)
_A_7 = Among(
    (
        ("eja", -1, -1),
        ("mma", -1, 1),
        ("imma", 1, -1),
        ("mpa", -1, 1),
        ("impa", 3, -1),
        ("mmi", -1, 1),
        ("immi", 5, -1),
        ("mpi", -1, 1),
        ("impi", 7, -1),
        ("ej\u00e4", -1, -1),
        ("mm\u00e4", -1, 1),
        ("imm\u00e4", 10, -1),
        ("mp\u00e4", -1, 1),
        ("imp\u00e4", 12, -1),
    )
)
_A_8 = Among(
    (
        ("i", -1, -1),
        ("j", -1, -1),
    )
)
_A_9 = Among(
    (
        ("mma", -1, 1),
        ("imma", 0, -1),
    )
)
_G_V1_97_246 = grouping(
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
        8,
        0,
        32,
    ),
    97,
    246,
)
_G_PARTICLE_END_97_246 = grouping(
    (
        17,
        97,
        24,
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
        8,
        0,
        32,
    ),
    97,
    246,
)
_G_V2_97_246 = grouping(
    (
        17,
        65,
        16,
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
        0,
        8,
        0,
        32,
    ),
    97,
    246,
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
_G_AEI_97_228 = grouping(
    (
        17,
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
        0,
        0,
        8,
    ),
    97,
    228,
)


class FinnishStemmer(SnowballProgram):
    __slots__ = ("B_ending_removed", "S_x", "I_p2", "I_p1")
    FIELDS = ("B_ending_removed", "S_x", "I_p2", "I_p1")

    def __init__(self):
        super().__init__()
        self.B_ending_removed = False
        self.S_x = ""
        self.I_p2 = 0
        self.I_p1 = 0

    def r_mark_regions(self):
        self.I_p1 = self.limit
        self.I_p2 = self.limit
        if not self.goto_in_grouping(_G_V1_97_246):
            return False
        if not self.gopast_out_grouping(_G_V1_97_246):
            return False
        self.I_p1 = self.cursor
        if not self.goto_in_grouping(_G_V1_97_246):
            return False
        if not self.gopast_out_grouping(_G_V1_97_246):
            return False
        self.I_p2 = self.cursor
        return True

    def r_R2(self):
        if not (self.I_p2 <= self.cursor):
            return False
        return True

    def r_particle_etc(self):
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
            if not self.in_grouping_b(_G_PARTICLE_END_97_246):
                return False
        elif among_var == 2:
            if not self.r_R2():
                return False
        self.slice_del()
        return True

    def r_possessive(self):
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        among_var = self.find_among_b(_A_4)
        if among_var == 0:
            self.limit_backward = v_2
            return False
        self.bra = self.cursor
        self.limit_backward = v_2
        if among_var == 1:
            v_3 = self.limit - self.cursor
            if self.current.endswith("k", self.limit_backward, self.cursor):
                self.cursor -= 1
                return False
            self.cursor = self.limit - v_3
            self.slice_del()
        elif among_var == 2:
            self.slice_del()
            self.ket = self.cursor
            if not self.current.endswith("kse", self.limit_backward, self.cursor):
                return False
            self.cursor -= 3
            self.bra = self.cursor
            self.slice_from("ksi")
        elif among_var == 3:
            self.slice_del()
        elif among_var == 4:
            if self.find_among_b(_A_1) == 0:
                return False
            self.slice_del()
        elif among_var == 5:
            if self.find_among_b(_A_2) == 0:
                return False
            self.slice_del()
        elif among_var == 6:
            if self.find_among_b(_A_3) == 0:
                return False
            self.slice_del()
        return True

    def r_LONG(self):
        if self.find_among_b(_A_5) == 0:
            return False
        return True

    def r_VI(self):
        if not self.current.endswith("i", self.limit_backward, self.cursor):
            return False
        self.cursor -= 1
        if not self.in_grouping_b(_G_V2_97_246):
            return False
        return True

    def r_case_ending(self):
        _jump = 0
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        among_var = self.find_among_b(_A_6)
        if among_var == 0:
            self.limit_backward = v_2
            return False
        self.bra = self.cursor
        self.limit_backward = v_2
        if among_var == 1:
            if not self.current.endswith("a", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
        elif among_var == 2:
            if not self.current.endswith("e", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
        elif among_var == 3:
            if not self.current.endswith("i", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
        elif among_var == 4:
            if not self.current.endswith("o", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
        elif among_var == 5:
            if not self.current.endswith("\u00e4", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
        elif among_var == 6:
            if not self.current.endswith("\u00f6", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
        elif among_var == 7:
            v_3 = self.limit - self.cursor
            while True:  # lab0
                v_4 = self.limit - self.cursor
                while True:  # lab1
                    v_5 = self.limit - self.cursor
                    if self.r_LONG():
                        break
                    self.cursor = self.limit - v_5
                    if not self.current.endswith("ie", self.limit_backward, self.cursor):
                        self.cursor = self.limit - v_3
                        _jump = 1
                        break
                    self.cursor -= 2
                    break
                if _jump == 1:
                    _jump = 0
                    break
                self.cursor = self.limit - v_4
                if self.cursor <= self.limit_backward:
                    self.cursor = self.limit - v_3
                    break
                self.cursor -= 1
                self.bra = self.cursor
                break
        elif among_var == 8:
            if not self.in_grouping_b(_G_V1_97_246):
                return False
            if not self.in_grouping_b(_G_C_98_122):
                return False
        self.slice_del()
        self.B_ending_removed = True
        return True

    def r_other_endings(self):
        if self.cursor < self.I_p2:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p2
        self.ket = self.cursor
        among_var = self.find_among_b(_A_7)
        if among_var == 0:
            self.limit_backward = v_2
            return False
        self.bra = self.cursor
        self.limit_backward = v_2
        if among_var == 1:
            v_3 = self.limit - self.cursor
            if self.current.endswith("po", self.limit_backward, self.cursor):
                self.cursor -= 2
                return False
            self.cursor = self.limit - v_3
        self.slice_del()
        return True

    def r_i_plural(self):
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        if self.find_among_b(_A_8) == 0:
            self.limit_backward = v_2
            return False
        self.bra = self.cursor
        self.limit_backward = v_2
        self.slice_del()
        return True

    def r_t_plural(self):
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        self.ket = self.cursor
        if not self.current.endswith("t", self.limit_backward, self.cursor):
            self.limit_backward = v_2
            return False
        self.cursor -= 1
        self.bra = self.cursor
        v_3 = self.limit - self.cursor
        if not self.in_grouping_b(_G_V1_97_246):
            self.limit_backward = v_2
            return False
        self.cursor = self.limit - v_3
        self.slice_del()
        self.limit_backward = v_2
        if self.cursor < self.I_p2:
            return False
        v_5 = self.limit_backward
        self.limit_backward = self.I_p2
        self.ket = self.cursor
        among_var = self.find_among_b(_A_9)
        if among_var == 0:
            self.limit_backward = v_5
            return False
        self.bra = self.cursor
        self.limit_backward = v_5
        if among_var == 1:
            v_6 = self.limit - self.cursor
            if self.current.endswith("po", self.limit_backward, self.cursor):
                self.cursor -= 2
                return False
            self.cursor = self.limit - v_6
        self.slice_del()
        return True

    def r_tidy(self):
        _jump = 0
        if self.cursor < self.I_p1:
            return False
        v_2 = self.limit_backward
        self.limit_backward = self.I_p1
        v_3 = self.limit - self.cursor
        v_4 = self.limit - self.cursor
        if self.r_LONG():
            self.cursor = self.limit - v_4
            self.ket = self.cursor
            if not (self.cursor <= self.limit_backward):
                self.cursor -= 1
                self.bra = self.cursor
                self.slice_del()
        self.cursor = self.limit - v_3
        v_5 = self.limit - self.cursor
        self.ket = self.cursor
        if self.in_grouping_b(_G_AEI_97_228):
            self.bra = self.cursor
            if self.in_grouping_b(_G_C_98_122):
                self.slice_del()
        self.cursor = self.limit - v_5
        v_6 = self.limit - self.cursor
        while True:  # lab2
            self.ket = self.cursor
            if not self.current.endswith("j", self.limit_backward, self.cursor):
                break
            self.cursor -= 1
            self.bra = self.cursor
            while True:  # lab3
                v_7 = self.limit - self.cursor
                if self.current.endswith("o", self.limit_backward, self.cursor):
                    self.cursor -= 1
                    break
                self.cursor = self.limit - v_7
                if not self.current.endswith("u", self.limit_backward, self.cursor):
                    _jump = 1
                    break
                self.cursor -= 1
                break
            if _jump == 1:
                _jump = 0
                break
            self.slice_del()
            break
        self.cursor = self.limit - v_6
        v_8 = self.limit - self.cursor
        self.ket = self.cursor
        if self.current.endswith("o", self.limit_backward, self.cursor):
            self.cursor -= 1
            self.bra = self.cursor
            if self.current.endswith("j", self.limit_backward, self.cursor):
                self.cursor -= 1
                self.slice_del()
        self.cursor = self.limit - v_8
        self.limit_backward = v_2
        if not self.goto_out_grouping_b(_G_V1_97_246):
            return False
        self.ket = self.cursor
        if not self.in_grouping_b(_G_C_98_122):
            return False
        self.bra = self.cursor
        self.S_x = self.slice_to()
        if not self.eq_s_b(self.S_x):
            return False
        self.slice_del()
        return True

    def _stem(self):
        v_1 = self.cursor
        self.r_mark_regions()
        self.cursor = v_1
        self.B_ending_removed = False
        self.limit_backward = self.cursor
        self.cursor = self.limit
        v_2 = self.limit - self.cursor
        self.r_particle_etc()
        self.cursor = self.limit - v_2
        v_3 = self.limit - self.cursor
        self.r_possessive()
        self.cursor = self.limit - v_3
        v_4 = self.limit - self.cursor
        self.r_case_ending()
        self.cursor = self.limit - v_4
        v_5 = self.limit - self.cursor
        self.r_other_endings()
        self.cursor = self.limit - v_5
        while True:  # lab0
            if self.B_ending_removed:
                v_7 = self.limit - self.cursor
                self.r_i_plural()
                self.cursor = self.limit - v_7
                break
            v_8 = self.limit - self.cursor
            self.r_t_plural()
            self.cursor = self.limit - v_8
            break
        v_9 = self.limit - self.cursor
        self.r_tidy()
        self.cursor = self.limit - v_9
        self.cursor = self.limit_backward
        return True

    def stem(self, word):
        """The stem of one word (a str of UTF-16 code units)."""
        self.set_current(word)
        self._stem()
        return self.current[: self.limit]
