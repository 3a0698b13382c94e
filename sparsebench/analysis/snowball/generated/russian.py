"""Lucene 9.9.1's RussianStemmer (org.tartarus.snowball.ext), in Python.

Kept as one module: the mechanical translation of one generated Java class, made
and remade whole (sparsebench/resources/lucene/snowball/README.md); do not edit.
Translated from org/tartarus/snowball/ext/RussianStemmer.java (Snowball 2.0.0 with
Lucene's patch); SnowballProgram's port is snowball/program.py. Derived from Apache
Lucene (Apache License 2.0) and the Snowball project (BSD licence): see
sparsebench/resources/lucene/snowball/NOTICE."""

# ruff: noqa: E501, SIM102, SIM103, SIM201, SIM300
from sparsebench.analysis.snowball.program import Among, SnowballProgram, grouping

_A_0 = Among(
    (
        ("\u0432", -1, 1),
        ("\u0438\u0432", 0, 2),
        ("\u044b\u0432", 0, 2),
        ("\u0432\u0448\u0438", -1, 1),
        ("\u0438\u0432\u0448\u0438", 3, 2),
        ("\u044b\u0432\u0448\u0438", 3, 2),
        ("\u0432\u0448\u0438\u0441\u044c", -1, 1),
        ("\u0438\u0432\u0448\u0438\u0441\u044c", 6, 2),
        ("\u044b\u0432\u0448\u0438\u0441\u044c", 6, 2),
    )
)
_A_1 = Among(
    (
        ("\u0435\u0435", -1, 1),
        ("\u0438\u0435", -1, 1),
        ("\u043e\u0435", -1, 1),
        ("\u044b\u0435", -1, 1),
        ("\u0438\u043c\u0438", -1, 1),
        ("\u044b\u043c\u0438", -1, 1),
        ("\u0435\u0439", -1, 1),
        ("\u0438\u0439", -1, 1),
        ("\u043e\u0439", -1, 1),
        ("\u044b\u0439", -1, 1),
        ("\u0435\u043c", -1, 1),
        ("\u0438\u043c", -1, 1),
        ("\u043e\u043c", -1, 1),
        ("\u044b\u043c", -1, 1),
        ("\u0435\u0433\u043e", -1, 1),
        ("\u043e\u0433\u043e", -1, 1),
        ("\u0435\u043c\u0443", -1, 1),
        ("\u043e\u043c\u0443", -1, 1),
        ("\u0438\u0445", -1, 1),
        ("\u044b\u0445", -1, 1),
        ("\u0435\u044e", -1, 1),
        ("\u043e\u044e", -1, 1),
        ("\u0443\u044e", -1, 1),
        ("\u044e\u044e", -1, 1),
        ("\u0430\u044f", -1, 1),
        ("\u044f\u044f", -1, 1),
    )
)
_A_2 = Among(
    (
        ("\u0435\u043c", -1, 1),
        ("\u043d\u043d", -1, 1),
        ("\u0432\u0448", -1, 1),
        ("\u0438\u0432\u0448", 2, 2),
        ("\u044b\u0432\u0448", 2, 2),
        ("\u0449", -1, 1),
        ("\u044e\u0449", 5, 1),
        ("\u0443\u044e\u0449", 6, 2),
    )
)
_A_3 = Among(
    (
        ("\u0441\u044c", -1, 1),
        ("\u0441\u044f", -1, 1),
    )
)
_A_4 = Among(
    (
        ("\u043b\u0430", -1, 1),
        ("\u0438\u043b\u0430", 0, 2),
        ("\u044b\u043b\u0430", 0, 2),
        ("\u043d\u0430", -1, 1),
        ("\u0435\u043d\u0430", 3, 2),
        ("\u0435\u0442\u0435", -1, 1),
        ("\u0438\u0442\u0435", -1, 2),
        ("\u0439\u0442\u0435", -1, 1),
        ("\u0435\u0439\u0442\u0435", 7, 2),
        ("\u0443\u0439\u0442\u0435", 7, 2),
        ("\u043b\u0438", -1, 1),
        ("\u0438\u043b\u0438", 10, 2),
        ("\u044b\u043b\u0438", 10, 2),
        ("\u0439", -1, 1),
        ("\u0435\u0439", 13, 2),
        ("\u0443\u0439", 13, 2),
        ("\u043b", -1, 1),
        ("\u0438\u043b", 16, 2),
        ("\u044b\u043b", 16, 2),
        ("\u0435\u043c", -1, 1),
        ("\u0438\u043c", -1, 2),
        ("\u044b\u043c", -1, 2),
        ("\u043d", -1, 1),
        ("\u0435\u043d", 22, 2),
        ("\u043b\u043e", -1, 1),
        ("\u0438\u043b\u043e", 24, 2),
        ("\u044b\u043b\u043e", 24, 2),
        ("\u043d\u043e", -1, 1),
        ("\u0435\u043d\u043e", 27, 2),
        ("\u043d\u043d\u043e", 27, 1),
        ("\u0435\u0442", -1, 1),
        ("\u0443\u0435\u0442", 30, 2),
        ("\u0438\u0442", -1, 2),
        ("\u044b\u0442", -1, 2),
        ("\u044e\u0442", -1, 1),
        ("\u0443\u044e\u0442", 34, 2),
        ("\u044f\u0442", -1, 2),
        ("\u043d\u044b", -1, 1),
        ("\u0435\u043d\u044b", 37, 2),
        ("\u0442\u044c", -1, 1),
        ("\u0438\u0442\u044c", 39, 2),
        ("\u044b\u0442\u044c", 39, 2),
        ("\u0435\u0448\u044c", -1, 1),
        ("\u0438\u0448\u044c", -1, 2),
        ("\u044e", -1, 2),
        ("\u0443\u044e", 44, 2),
    )
)
_A_5 = Among(
    (
        ("\u0430", -1, 1),
        ("\u0435\u0432", -1, 1),
        ("\u043e\u0432", -1, 1),
        ("\u0435", -1, 1),
        ("\u0438\u0435", 3, 1),
        ("\u044c\u0435", 3, 1),
        ("\u0438", -1, 1),
        ("\u0435\u0438", 6, 1),
        ("\u0438\u0438", 6, 1),
        ("\u0430\u043c\u0438", 6, 1),
        ("\u044f\u043c\u0438", 6, 1),
        ("\u0438\u044f\u043c\u0438", 10, 1),
        ("\u0439", -1, 1),
        ("\u0435\u0439", 12, 1),
        ("\u0438\u0435\u0439", 13, 1),
        ("\u0438\u0439", 12, 1),
        ("\u043e\u0439", 12, 1),
        ("\u0430\u043c", -1, 1),
        ("\u0435\u043c", -1, 1),
        ("\u0438\u0435\u043c", 18, 1),
        ("\u043e\u043c", -1, 1),
        ("\u044f\u043c", -1, 1),
        ("\u0438\u044f\u043c", 21, 1),
        ("\u043e", -1, 1),
        ("\u0443", -1, 1),
        ("\u0430\u0445", -1, 1),
        ("\u044f\u0445", -1, 1),
        ("\u0438\u044f\u0445", 26, 1),
        ("\u044b", -1, 1),
        ("\u044c", -1, 1),
        ("\u044e", -1, 1),
        ("\u0438\u044e", 30, 1),
        ("\u044c\u044e", 30, 1),
        ("\u044f", -1, 1),
        ("\u0438\u044f", 33, 1),
        ("\u044c\u044f", 33, 1),
    )
)
_A_6 = Among(
    (
        ("\u043e\u0441\u0442", -1, 1),
        ("\u043e\u0441\u0442\u044c", -1, 1),
    )
)
_A_7 = Among(
    (
        ("\u0435\u0439\u0448\u0435", -1, 1),
        ("\u043d", -1, 2),
        ("\u0435\u0439\u0448", -1, 1),
        ("\u044c", -1, 3),
    )
)
_G_V_1072_1103 = grouping(
    (
        33,
        65,
        8,
        232,
    ),
    1072,
    1103,
)


class RussianStemmer(SnowballProgram):
    __slots__ = ("I_p2", "I_pV")
    FIELDS = ("I_p2", "I_pV")

    def __init__(self):
        super().__init__()
        self.I_p2 = 0
        self.I_pV = 0

    def r_mark_regions(self):
        self.I_pV = self.limit
        self.I_p2 = self.limit
        v_1 = self.cursor
        if self.gopast_in_grouping(_G_V_1072_1103):
            self.I_pV = self.cursor
            if self.gopast_out_grouping(_G_V_1072_1103):
                if self.gopast_in_grouping(_G_V_1072_1103):
                    if self.gopast_out_grouping(_G_V_1072_1103):
                        self.I_p2 = self.cursor
        self.cursor = v_1
        return True

    def r_R2(self):
        if not (self.I_p2 <= self.cursor):
            return False
        return True

    def r_perfective_gerund(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_0)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if among_var == 1:
            while True:  # lab0
                v_1 = self.limit - self.cursor
                if self.current.endswith("\u0430", self.limit_backward, self.cursor):
                    self.cursor -= 1
                    break
                self.cursor = self.limit - v_1
                if not self.current.endswith("\u044f", self.limit_backward, self.cursor):
                    return False
                self.cursor -= 1
                break
            self.slice_del()
        elif among_var == 2:
            self.slice_del()
        return True

    def r_adjective(self):
        self.ket = self.cursor
        if self.find_among_b(_A_1) == 0:
            return False
        self.bra = self.cursor
        self.slice_del()
        return True

    def r_adjectival(self):
        _jump = 0
        if not self.r_adjective():
            return False
        v_1 = self.limit - self.cursor
        while True:  # lab0
            self.ket = self.cursor
            among_var = self.find_among_b(_A_2)
            if among_var == 0:
                self.cursor = self.limit - v_1
                break
            self.bra = self.cursor
            if among_var == 1:
                while True:  # lab1
                    v_2 = self.limit - self.cursor
                    if self.current.endswith("\u0430", self.limit_backward, self.cursor):
                        self.cursor -= 1
                        break
                    self.cursor = self.limit - v_2
                    if not self.current.endswith("\u044f", self.limit_backward, self.cursor):
                        self.cursor = self.limit - v_1
                        _jump = 1
                        break
                    self.cursor -= 1
                    break
                if _jump == 1:
                    _jump = 0
                    break
                self.slice_del()
            elif among_var == 2:
                self.slice_del()
            break
        return True

    def r_reflexive(self):
        self.ket = self.cursor
        if self.find_among_b(_A_3) == 0:
            return False
        self.bra = self.cursor
        self.slice_del()
        return True

    def r_verb(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_4)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if among_var == 1:
            while True:  # lab0
                v_1 = self.limit - self.cursor
                if self.current.endswith("\u0430", self.limit_backward, self.cursor):
                    self.cursor -= 1
                    break
                self.cursor = self.limit - v_1
                if not self.current.endswith("\u044f", self.limit_backward, self.cursor):
                    return False
                self.cursor -= 1
                break
            self.slice_del()
        elif among_var == 2:
            self.slice_del()
        return True

    def r_noun(self):
        self.ket = self.cursor
        if self.find_among_b(_A_5) == 0:
            return False
        self.bra = self.cursor
        self.slice_del()
        return True

    def r_derivational(self):
        self.ket = self.cursor
        if self.find_among_b(_A_6) == 0:
            return False
        self.bra = self.cursor
        if not self.r_R2():
            return False
        self.slice_del()
        return True

    def r_tidy_up(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_7)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if among_var == 1:
            self.slice_del()
            self.ket = self.cursor
            if not self.current.endswith("\u043d", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
            self.bra = self.cursor
            if not self.current.endswith("\u043d", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
            self.slice_del()
        elif among_var == 2:
            if not self.current.endswith("\u043d", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
            self.slice_del()
        elif among_var == 3:
            self.slice_del()
        return True

    def _stem(self):
        _jump = 0
        v_1 = self.cursor
        while True:
            v_2 = self.cursor
            while True:  # lab1
                while True:
                    v_3 = self.cursor
                    self.bra = self.cursor
                    if self.current.startswith("\u0451", self.cursor, self.limit):
                        self.cursor += 1
                        self.ket = self.cursor
                        self.cursor = v_3
                        break
                    self.cursor = v_3
                    if self.cursor >= self.limit:
                        _jump = 1
                        break
                    self.cursor += 1
                if _jump == 1:
                    _jump = 0
                    break
                self.slice_from("\u0435")
                _jump = 2
                break
            if _jump == 2:
                _jump = 0
                continue
            self.cursor = v_2
            break
        self.cursor = v_1
        self.r_mark_regions()
        self.limit_backward = self.cursor
        self.cursor = self.limit
        if self.cursor < self.I_pV:
            return False
        v_6 = self.limit_backward
        self.limit_backward = self.I_pV
        v_7 = self.limit - self.cursor
        while True:  # lab4
            while True:  # lab5
                v_8 = self.limit - self.cursor
                if self.r_perfective_gerund():
                    break
                self.cursor = self.limit - v_8
                v_9 = self.limit - self.cursor
                if not self.r_reflexive():
                    self.cursor = self.limit - v_9
                while True:  # lab8
                    v_10 = self.limit - self.cursor
                    if self.r_adjectival():
                        break
                    self.cursor = self.limit - v_10
                    if self.r_verb():
                        break
                    self.cursor = self.limit - v_10
                    if not self.r_noun():
                        _jump = 3
                        break
                    break
                if _jump:
                    break
                break
            if _jump == 3:
                _jump = 0
                break
            break
        self.cursor = self.limit - v_7
        v_11 = self.limit - self.cursor
        self.ket = self.cursor
        if not self.eq_s_b("\u0438"):
            self.cursor = self.limit - v_11
        else:
            self.bra = self.cursor
            self.slice_del()
        v_12 = self.limit - self.cursor
        self.r_derivational()
        self.cursor = self.limit - v_12
        v_13 = self.limit - self.cursor
        self.r_tidy_up()
        self.cursor = self.limit - v_13
        self.limit_backward = v_6
        self.cursor = self.limit_backward
        return True

    def stem(self, word):
        """The stem of one word (a str of UTF-16 code units)."""
        self.set_current(word)
        self._stem()
        return self.current[: self.limit]
