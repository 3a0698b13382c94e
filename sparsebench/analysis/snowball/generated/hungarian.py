"""Lucene 9.9.1's HungarianStemmer (org.tartarus.snowball.ext), in Python.

Kept as one module: the mechanical translation of one generated Java class, made
and remade whole (sparsebench/resources/lucene/snowball/README.md); do not edit.
Translated from org/tartarus/snowball/ext/HungarianStemmer.java (Snowball 2.0.0 with
Lucene's patch); SnowballProgram's port is snowball/program.py. Derived from Apache
Lucene (Apache License 2.0) and the Snowball project (BSD licence): see
sparsebench/resources/lucene/snowball/NOTICE."""

# ruff: noqa: E501, SIM102, SIM103, SIM201, SIM300
from sparsebench.analysis.snowball.program import Among, SnowballProgram, grouping

_A_0 = Among(
    (
        ("cs", -1, -1),
        ("dzs", -1, -1),
        ("gy", -1, -1),
        ("ly", -1, -1),
        ("ny", -1, -1),
        ("sz", -1, -1),
        ("ty", -1, -1),
        ("zs", -1, -1),
    )
)
_A_1 = Among(
    (
        ("\u00e1", -1, 1),
        ("\u00e9", -1, 2),
    )
)
_A_2 = Among(
    (
        ("bb", -1, -1),
        ("cc", -1, -1),
        ("dd", -1, -1),
        ("ff", -1, -1),
        ("gg", -1, -1),
        ("jj", -1, -1),
        ("kk", -1, -1),
        ("ll", -1, -1),
        ("mm", -1, -1),
        ("nn", -1, -1),
        ("pp", -1, -1),
        ("rr", -1, -1),
        ("ccs", -1, -1),
        ("ss", -1, -1),
        ("zzs", -1, -1),
        ("tt", -1, -1),
        ("vv", -1, -1),
        ("ggy", -1, -1),
        ("lly", -1, -1),
        ("nny", -1, -1),
        ("tty", -1, -1),
        ("ssz", -1, -1),
        ("zz", -1, -1),
    )
)
_A_3 = Among(
    (
        ("al", -1, 1),
        ("el", -1, 1),
    )
)
_A_4 = Among(
    (
        ("ba", -1, -1),
        ("ra", -1, -1),
        ("be", -1, -1),
        ("re", -1, -1),
        ("ig", -1, -1),
        ("nak", -1, -1),
        ("nek", -1, -1),
        ("val", -1, -1),
        ("vel", -1, -1),
        ("ul", -1, -1),
        ("n\u00e1l", -1, -1),
        ("n\u00e9l", -1, -1),
        ("b\u00f3l", -1, -1),
        ("r\u00f3l", -1, -1),
        ("t\u00f3l", -1, -1),
        ("\u00fcl", -1, -1),
        ("b\u0151l", -1, -1),
        ("r\u0151l", -1, -1),
        ("t\u0151l", -1, -1),
        ("n", -1, -1),
        ("an", 19, -1),
        ("ban", 20, -1),
        ("en", 19, -1),
        ("ben", 22, -1),
        ("k\u00e9ppen", 22, -1),
        ("on", 19, -1),
        ("\u00f6n", 19, -1),
        ("k\u00e9pp", -1, -1),
        ("kor", -1, -1),
        ("t", -1, -1),
        ("at", 29, -1),
        ("et", 29, -1),
        ("k\u00e9nt", 29, -1),
        ("ank\u00e9nt", 32, -1),
        ("enk\u00e9nt", 32, -1),
        ("onk\u00e9nt", 32, -1),
        ("ot", 29, -1),
        ("\u00e9rt", 29, -1),
        ("\u00f6t", 29, -1),
        ("hez", -1, -1),
        ("hoz", -1, -1),
        ("h\u00f6z", -1, -1),
        ("v\u00e1", -1, -1),
        ("v\u00e9", -1, -1),
    )
)
_A_5 = Among(
    (
        ("\u00e1n", -1, 2),
        ("\u00e9n", -1, 1),
        ("\u00e1nk\u00e9nt", -1, 2),
    )
)
_A_6 = Among(
    (
        ("stul", -1, 1),
        ("astul", 0, 1),
        ("\u00e1stul", 0, 2),
        ("st\u00fcl", -1, 1),
        ("est\u00fcl", 3, 1),
        ("\u00e9st\u00fcl", 3, 3),
    )
)
_A_7 = Among(
    (
        ("\u00e1", -1, 1),
        ("\u00e9", -1, 1),
    )
)
_A_8 = Among(
    (
        ("k", -1, 3),
        ("ak", 0, 3),
        ("ek", 0, 3),
        ("ok", 0, 3),
        ("\u00e1k", 0, 1),
        ("\u00e9k", 0, 2),
        ("\u00f6k", 0, 3),
    )
)
_A_9 = Among(
    (
        ("\u00e9i", -1, 1),
        ("\u00e1\u00e9i", 0, 3),
        ("\u00e9\u00e9i", 0, 2),
        ("\u00e9", -1, 1),
        ("k\u00e9", 3, 1),
        ("ak\u00e9", 4, 1),
        ("ek\u00e9", 4, 1),
        ("ok\u00e9", 4, 1),
        ("\u00e1k\u00e9", 4, 3),
        ("\u00e9k\u00e9", 4, 2),
        ("\u00f6k\u00e9", 4, 1),
        ("\u00e9\u00e9", 3, 2),
    )
)
_A_10 = Among(
    (
        ("a", -1, 1),
        ("ja", 0, 1),
        ("d", -1, 1),
        ("ad", 2, 1),
        ("ed", 2, 1),
        ("od", 2, 1),
        ("\u00e1d", 2, 2),
        ("\u00e9d", 2, 3),
        ("\u00f6d", 2, 1),
        ("e", -1, 1),
        ("je", 9, 1),
        ("nk", -1, 1),
        ("unk", 11, 1),
        ("\u00e1nk", 11, 2),
        ("\u00e9nk", 11, 3),
        ("\u00fcnk", 11, 1),
        ("uk", -1, 1),
        ("juk", 16, 1),
        ("\u00e1juk", 17, 2),
        ("\u00fck", -1, 1),
        ("j\u00fck", 19, 1),
        ("\u00e9j\u00fck", 20, 3),
        ("m", -1, 1),
        ("am", 22, 1),
        ("em", 22, 1),
        ("om", 22, 1),
        ("\u00e1m", 22, 2),
        ("\u00e9m", 22, 3),
        ("o", -1, 1),
        ("\u00e1", -1, 2),
        ("\u00e9", -1, 3),
    )
)
_A_11 = Among(
    (
        ("id", -1, 1),
        ("aid", 0, 1),
        ("jaid", 1, 1),
        ("eid", 0, 1),
        ("jeid", 3, 1),
        ("\u00e1id", 0, 2),
        ("\u00e9id", 0, 3),
        ("i", -1, 1),
        ("ai", 7, 1),
        ("jai", 8, 1),
        ("ei", 7, 1),
        ("jei", 10, 1),
        ("\u00e1i", 7, 2),
        ("\u00e9i", 7, 3),
        ("itek", -1, 1),
        ("eitek", 14, 1),
        ("jeitek", 15, 1),
        ("\u00e9itek", 14, 3),
        ("ik", -1, 1),
        ("aik", 18, 1),
        ("jaik", 19, 1),
        ("eik", 18, 1),
        ("jeik", 21, 1),
        ("\u00e1ik", 18, 2),
        ("\u00e9ik", 18, 3),
        ("ink", -1, 1),
        ("aink", 25, 1),
        ("jaink", 26, 1),
        ("eink", 25, 1),
        ("jeink", 28, 1),
        ("\u00e1ink", 25, 2),
        ("\u00e9ink", 25, 3),
        ("aitok", -1, 1),
        ("jaitok", 32, 1),
        ("\u00e1itok", -1, 2),
        ("im", -1, 1),
        ("aim", 35, 1),
        ("jaim", 36, 1),
        ("eim", 35, 1),
        ("jeim", 38, 1),
        ("\u00e1im", 35, 2),
        ("\u00e9im", 35, 3),
    )
)
_G_V_97_369 = grouping(
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
        1,
        17,
        36,
        10,
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
        1,
        0,
        0,
        0,
        1,
    ),
    97,
    369,
)


class HungarianStemmer(SnowballProgram):
    __slots__ = ("I_p1",)
    FIELDS = ("I_p1",)

    def __init__(self):
        super().__init__()
        self.I_p1 = 0

    def r_mark_regions(self):
        _jump = 0
        self.I_p1 = self.limit
        while True:  # lab0
            v_1 = self.cursor
            while True:  # lab1
                if not self.in_grouping(_G_V_97_369):
                    break
                if not self.goto_out_grouping(_G_V_97_369):
                    break
                while True:  # lab4
                    v_3 = self.cursor
                    if not (self.find_among(_A_0) == 0):
                        break
                    self.cursor = v_3
                    if self.cursor >= self.limit:
                        _jump = 1
                        break
                    self.cursor += 1
                    break
                if _jump == 1:
                    _jump = 0
                    break
                self.I_p1 = self.cursor
                _jump = 2
                break
            if _jump == 2:
                _jump = 0
                break
            self.cursor = v_1
            if not self.out_grouping(_G_V_97_369):
                return False
            if not self.gopast_in_grouping(_G_V_97_369):
                return False
            self.I_p1 = self.cursor
            break
        return True

    def r_R1(self):
        if not (self.I_p1 <= self.cursor):
            return False
        return True

    def r_v_ending(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_1)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        if among_var == 1:
            self.slice_from("a")
        elif among_var == 2:
            self.slice_from("e")
        return True

    def r_double(self):
        v_1 = self.limit - self.cursor
        if self.find_among_b(_A_2) == 0:
            return False
        self.cursor = self.limit - v_1
        return True

    def r_undouble(self):
        if self.cursor <= self.limit_backward:
            return False
        self.cursor -= 1
        self.ket = self.cursor
        c = self.cursor - 1
        if (self.limit_backward > c) or (c > self.limit):
            return False
        self.cursor = c
        self.bra = self.cursor
        self.slice_del()
        return True

    def r_instrum(self):
        self.ket = self.cursor
        if self.find_among_b(_A_3) == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        if not self.r_double():
            return False
        self.slice_del()
        if not self.r_undouble():
            return False
        return True

    def r_case(self):
        self.ket = self.cursor
        if self.find_among_b(_A_4) == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        self.slice_del()
        if not self.r_v_ending():
            return False
        return True

    def r_case_special(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_5)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        if among_var == 1:
            self.slice_from("e")
        elif among_var == 2:
            self.slice_from("a")
        return True

    def r_case_other(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_6)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        if among_var == 1:
            self.slice_del()
        elif among_var == 2:
            self.slice_from("a")
        elif among_var == 3:
            self.slice_from("e")
        return True

    def r_factive(self):
        self.ket = self.cursor
        if self.find_among_b(_A_7) == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        if not self.r_double():
            return False
        self.slice_del()
        if not self.r_undouble():
            return False
        return True

    def r_plural(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_8)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        if among_var == 1:
            self.slice_from("a")
        elif among_var == 2:
            self.slice_from("e")
        elif among_var == 3:
            self.slice_del()
        return True

    def r_owned(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_9)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        if among_var == 1:
            self.slice_del()
        elif among_var == 2:
            self.slice_from("e")
        elif among_var == 3:
            self.slice_from("a")
        return True

    def r_sing_owner(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_10)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        if among_var == 1:
            self.slice_del()
        elif among_var == 2:
            self.slice_from("a")
        elif among_var == 3:
            self.slice_from("e")
        return True

    def r_plur_owner(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_11)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if not self.r_R1():
            return False
        if among_var == 1:
            self.slice_del()
        elif among_var == 2:
            self.slice_from("a")
        elif among_var == 3:
            self.slice_from("e")
        return True

    def _stem(self):
        v_1 = self.cursor
        self.r_mark_regions()
        self.cursor = v_1
        self.limit_backward = self.cursor
        self.cursor = self.limit
        v_2 = self.limit - self.cursor
        self.r_instrum()
        self.cursor = self.limit - v_2
        v_3 = self.limit - self.cursor
        self.r_case()
        self.cursor = self.limit - v_3
        v_4 = self.limit - self.cursor
        self.r_case_special()
        self.cursor = self.limit - v_4
        v_5 = self.limit - self.cursor
        self.r_case_other()
        self.cursor = self.limit - v_5
        v_6 = self.limit - self.cursor
        self.r_factive()
        self.cursor = self.limit - v_6
        v_7 = self.limit - self.cursor
        self.r_owned()
        self.cursor = self.limit - v_7
        v_8 = self.limit - self.cursor
        self.r_sing_owner()
        self.cursor = self.limit - v_8
        v_9 = self.limit - self.cursor
        self.r_plur_owner()
        self.cursor = self.limit - v_9
        v_10 = self.limit - self.cursor
        self.r_plural()
        self.cursor = self.limit - v_10
        self.cursor = self.limit_backward
        return True

    def stem(self, word):
        """The stem of one word (a str of UTF-16 code units)."""
        self.set_current(word)
        self._stem()
        return self.current[: self.limit]
