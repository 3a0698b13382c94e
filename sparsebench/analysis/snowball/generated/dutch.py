"""Lucene 9.9.1's DutchStemmer (org.tartarus.snowball.ext), in Python.

Kept as one module: the mechanical translation of one generated Java class, made
and remade whole (sparsebench/resources/lucene/snowball/README.md); do not edit.
Translated from org/tartarus/snowball/ext/DutchStemmer.java (Snowball 2.0.0 with
Lucene's patch); SnowballProgram's port is snowball/program.py. Derived from Apache
Lucene (Apache License 2.0) and the Snowball project (BSD licence): see
sparsebench/resources/lucene/snowball/NOTICE."""

# ruff: noqa: E501, SIM102, SIM103, SIM201, SIM300
from sparsebench.analysis.snowball.program import Among, SnowballProgram, grouping

_A_0 = Among(
    (
        ("", -1, 6),
        ("\u00e1", 0, 1),
        ("\u00e4", 0, 1),
        ("\u00e9", 0, 2),
        ("\u00eb", 0, 2),
        ("\u00ed", 0, 3),
        ("\u00ef", 0, 3),
        ("\u00f3", 0, 4),
        ("\u00f6", 0, 4),
        ("\u00fa", 0, 5),
        ("\u00fc", 0, 5),
    )
)
_A_1 = Among(
    (
        ("", -1, 3),
        ("I", 0, 2),
        ("Y", 0, 1),
    )
)
_A_2 = Among(
    (
        ("dd", -1, -1),
        ("kk", -1, -1),
        ("tt", -1, -1),
    )
)
_A_3 = Among(
    (
        ("ene", -1, 2),
        ("se", -1, 3),
        ("en", -1, 2),
        ("heden", 2, 1),
        ("s", -1, 3),
    )
)
_A_4 = Among(
    (
        ("end", -1, 1),
        ("ig", -1, 2),
        ("ing", -1, 1),
        ("lijk", -1, 3),
        ("baar", -1, 4),
        ("bar", -1, 5),
    )
)
_A_5 = Among(
    (
        ("aa", -1, -1),
        ("ee", -1, -1),
        ("oo", -1, -1),
        ("uu", -1, -1),
    )
)
_G_V_97_232 = grouping(
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
        128,
    ),
    97,
    232,
)
_G_V_J_97_232 = grouping(
    (
        17,
        67,
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
        128,
    ),
    97,
    232,
)
_G_V_I_73_232 = grouping(
    (
        1,
        0,
        0,
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
        128,
    ),
    73,
    232,
)


class DutchStemmer(SnowballProgram):
    __slots__ = ("I_p2", "I_p1", "B_e_found")
    FIELDS = ("I_p2", "I_p1", "B_e_found")

    def __init__(self):
        super().__init__()
        self.I_p2 = 0
        self.I_p1 = 0
        self.B_e_found = False

    def r_prelude(self):
        _jump = 0
        v_1 = self.cursor
        while True:
            v_2 = self.cursor
            while True:  # lab0
                self.bra = self.cursor
                among_var = self.find_among(_A_0)
                if among_var == 0:
                    break
                self.ket = self.cursor
                if among_var == 1:
                    self.slice_from("a")
                elif among_var == 2:
                    self.slice_from("e")
                elif among_var == 3:
                    self.slice_from("i")
                elif among_var == 4:
                    self.slice_from("o")
                elif among_var == 5:
                    self.slice_from("u")
                elif among_var == 6:
                    if self.cursor >= self.limit:
                        break
                    self.cursor += 1
                _jump = 1
                break
            if _jump == 1:
                _jump = 0
                continue
            self.cursor = v_2
            break
        self.cursor = v_1
        v_3 = self.cursor
        self.bra = self.cursor
        if not self.eq_s("y"):
            self.cursor = v_3
        else:
            self.ket = self.cursor
            self.slice_from("Y")
        while True:
            v_4 = self.cursor
            while True:  # lab2
                while True:
                    v_5 = self.cursor
                    while True:  # lab4
                        if not self.in_grouping(_G_V_97_232):
                            break
                        self.bra = self.cursor
                        while True:  # lab5
                            v_6 = self.cursor
                            if self.current.startswith("i", self.cursor, self.limit):
                                self.cursor += 1
                                self.ket = self.cursor
                                if self.in_grouping(_G_V_97_232):
                                    self.slice_from("I")
                                    break
                            self.cursor = v_6
                            if not self.current.startswith("y", self.cursor, self.limit):
                                _jump = 2
                                break
                            self.cursor += 1
                            self.ket = self.cursor
                            self.slice_from("Y")
                            break
                        if _jump == 2:
                            _jump = 0
                            break
                        self.cursor = v_5
                        _jump = 3
                        break
                    if _jump == 3:
                        _jump = 0
                        break
                    self.cursor = v_5
                    if self.cursor >= self.limit:
                        _jump = 4
                        break
                    self.cursor += 1
                if _jump == 4:
                    _jump = 0
                    break
                _jump = 5
                break
            if _jump == 5:
                _jump = 0
                continue
            self.cursor = v_4
            break
        return True

    def r_mark_regions(self):
        self.I_p1 = self.limit
        self.I_p2 = self.limit
        if not self.gopast_in_grouping(_G_V_97_232):
            return False
        if not self.gopast_out_grouping(_G_V_97_232):
            return False
        self.I_p1 = self.cursor
        if self.I_p1 < 3:
            self.I_p1 = 3
        if not self.gopast_in_grouping(_G_V_97_232):
            return False
        if not self.gopast_out_grouping(_G_V_97_232):
            return False
        self.I_p2 = self.cursor
        return True

    def r_postlude(self):
        _jump = 0
        while True:
            v_1 = self.cursor
            while True:  # lab0
                self.bra = self.cursor
                among_var = self.find_among(_A_1)
                if among_var == 0:
                    break
                self.ket = self.cursor
                if among_var == 1:
                    self.slice_from("y")
                elif among_var == 2:
                    self.slice_from("i")
                elif among_var == 3:
                    if self.cursor >= self.limit:
                        break
                    self.cursor += 1
                _jump = 1
                break
            if _jump == 1:
                _jump = 0
                continue
            self.cursor = v_1
            break
        return True

    def r_R1(self):
        if not (self.I_p1 <= self.cursor):
            return False
        return True

    def r_R2(self):
        if not (self.I_p2 <= self.cursor):
            return False
        return True

    def r_undouble(self):
        v_1 = self.limit - self.cursor
        if self.find_among_b(_A_2) == 0:
            return False
        self.cursor = self.limit - v_1
        self.ket = self.cursor
        if self.cursor <= self.limit_backward:
            return False
        self.cursor -= 1
        self.bra = self.cursor
        self.slice_del()
        return True

    def r_e_ending(self):
        self.B_e_found = False
        self.ket = self.cursor
        if not self.current.endswith("e", self.limit_backward, self.cursor):
            return False
        self.cursor -= 1
        self.bra = self.cursor
        if not self.r_R1():
            return False
        v_1 = self.limit - self.cursor
        if not self.out_grouping_b(_G_V_97_232):
            return False
        self.cursor = self.limit - v_1
        self.slice_del()
        self.B_e_found = True
        if not self.r_undouble():
            return False
        return True

    def r_en_ending(self):
        if not self.r_R1():
            return False
        v_1 = self.limit - self.cursor
        if not self.out_grouping_b(_G_V_97_232):
            return False
        self.cursor = self.limit - v_1
        v_2 = self.limit - self.cursor
        if self.current.endswith("gem", self.limit_backward, self.cursor):
            self.cursor -= 3
            return False
        self.cursor = self.limit - v_2
        self.slice_del()
        if not self.r_undouble():
            return False
        return True

    def r_standard_suffix(self):
        _jump = 0
        v_1 = self.limit - self.cursor
        while True:  # lab0
            self.ket = self.cursor
            among_var = self.find_among_b(_A_3)
            if among_var == 0:
                break
            self.bra = self.cursor
            if among_var == 1:
                if not self.r_R1():
                    break
                self.slice_from("heid")
            elif among_var == 2:
                if not self.r_en_ending():
                    break
            elif among_var == 3:
                if not self.r_R1():
                    break
                if not self.out_grouping_b(_G_V_J_97_232):
                    break
                self.slice_del()
            break
        self.cursor = self.limit - v_1
        v_2 = self.limit - self.cursor
        self.r_e_ending()
        self.cursor = self.limit - v_2
        v_3 = self.limit - self.cursor
        while True:  # lab1
            self.ket = self.cursor
            if not self.current.endswith("heid", self.limit_backward, self.cursor):
                break
            self.cursor -= 4
            self.bra = self.cursor
            if not self.r_R2():
                break
            v_4 = self.limit - self.cursor
            if self.current.endswith("c", self.limit_backward, self.cursor):
                self.cursor -= 1
                break
            self.cursor = self.limit - v_4
            self.slice_del()
            self.ket = self.cursor
            if not self.current.endswith("en", self.limit_backward, self.cursor):
                break
            self.cursor -= 2
            self.bra = self.cursor
            if not self.r_en_ending():
                break
            break
        self.cursor = self.limit - v_3
        v_5 = self.limit - self.cursor
        while True:  # lab3
            self.ket = self.cursor
            among_var = self.find_among_b(_A_4)
            if among_var == 0:
                break
            self.bra = self.cursor
            if among_var == 1:
                if not self.r_R2():
                    break
                self.slice_del()
                while True:  # lab4
                    v_6 = self.limit - self.cursor
                    while True:  # lab5
                        self.ket = self.cursor
                        if not self.current.endswith("ig", self.limit_backward, self.cursor):
                            break
                        self.cursor -= 2
                        self.bra = self.cursor
                        if not self.r_R2():
                            break
                        v_7 = self.limit - self.cursor
                        if self.current.endswith("e", self.limit_backward, self.cursor):
                            self.cursor -= 1
                            break
                        self.cursor = self.limit - v_7
                        self.slice_del()
                        _jump = 1
                        break
                    if _jump == 1:
                        _jump = 0
                        break
                    self.cursor = self.limit - v_6
                    if not self.r_undouble():
                        _jump = 2
                        break
                    break
                if _jump == 2:
                    _jump = 0
                    break
            elif among_var == 2:
                if not self.r_R2():
                    break
                v_8 = self.limit - self.cursor
                if self.current.endswith("e", self.limit_backward, self.cursor):
                    self.cursor -= 1
                    break
                self.cursor = self.limit - v_8
                self.slice_del()
            elif among_var == 3:
                if not self.r_R2():
                    break
                self.slice_del()
                if not self.r_e_ending():
                    break
            elif among_var == 4:
                if not self.r_R2():
                    break
                self.slice_del()
            elif among_var == 5:
                if not self.r_R2():
                    break
                if not self.B_e_found:
                    break
                self.slice_del()
            break
        self.cursor = self.limit - v_5
        v_9 = self.limit - self.cursor
        if self.out_grouping_b(_G_V_I_73_232):
            v_10 = self.limit - self.cursor
            if not (self.find_among_b(_A_5) == 0):
                if self.out_grouping_b(_G_V_97_232):
                    self.cursor = self.limit - v_10
                    self.ket = self.cursor
                    if not (self.cursor <= self.limit_backward):
                        self.cursor -= 1
                        self.bra = self.cursor
                        self.slice_del()
        self.cursor = self.limit - v_9
        return True

    def _stem(self):
        v_1 = self.cursor
        self.r_prelude()
        self.cursor = v_1
        v_2 = self.cursor
        self.r_mark_regions()
        self.cursor = v_2
        self.limit_backward = self.cursor
        self.cursor = self.limit
        self.r_standard_suffix()
        self.cursor = self.limit_backward
        v_4 = self.cursor
        self.r_postlude()
        self.cursor = v_4
        return True

    def stem(self, word):
        """The stem of one word (a str of UTF-16 code units)."""
        self.set_current(word)
        self._stem()
        return self.current[: self.limit]
