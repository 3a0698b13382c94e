"""Lucene 9.9.1's TurkishStemmer (org.tartarus.snowball.ext), in Python.

Kept as one module: the mechanical translation of one generated Java class, made
and remade whole (sparsebench/resources/lucene/snowball/README.md); do not edit.
Translated from org/tartarus/snowball/ext/TurkishStemmer.java (Snowball 2.0.0 with
Lucene's patch); SnowballProgram's port is snowball/program.py. Derived from Apache
Lucene (Apache License 2.0) and the Snowball project (BSD licence): see
sparsebench/resources/lucene/snowball/NOTICE."""

# ruff: noqa: E501, SIM102, SIM103, SIM201, SIM300
from sparsebench.analysis.snowball.program import Among, SnowballProgram, grouping

_A_0 = Among(
    (
        ("m", -1, -1),
        ("n", -1, -1),
        ("miz", -1, -1),
        ("niz", -1, -1),
        ("muz", -1, -1),
        ("nuz", -1, -1),
        ("m\u00fcz", -1, -1),
        ("n\u00fcz", -1, -1),
        ("m\u0131z", -1, -1),
        ("n\u0131z", -1, -1),
    )
)
_A_1 = Among(
    (
        ("leri", -1, -1),
        ("lar\u0131", -1, -1),
    )
)
_A_2 = Among(
    (
        ("ni", -1, -1),
        ("nu", -1, -1),
        ("n\u00fc", -1, -1),
        ("n\u0131", -1, -1),
    )
)
_A_3 = Among(
    (
        ("in", -1, -1),
        ("un", -1, -1),
        ("\u00fcn", -1, -1),
        ("\u0131n", -1, -1),
    )
)
_A_4 = Among(
    (
        ("a", -1, -1),
        ("e", -1, -1),
    )
)
_A_5 = Among(
    (
        ("na", -1, -1),
        ("ne", -1, -1),
    )
)
_A_6 = Among(
    (
        ("da", -1, -1),
        ("ta", -1, -1),
        ("de", -1, -1),
        ("te", -1, -1),
    )
)
_A_7 = Among(
    (
        ("nda", -1, -1),
        ("nde", -1, -1),
    )
)
_A_8 = Among(
    (
        ("dan", -1, -1),
        ("tan", -1, -1),
        ("den", -1, -1),
        ("ten", -1, -1),
    )
)
_A_9 = Among(
    (
        ("ndan", -1, -1),
        ("nden", -1, -1),
    )
)
_A_10 = Among(
    (
        ("la", -1, -1),
        ("le", -1, -1),
    )
)
_A_11 = Among(
    (
        ("ca", -1, -1),
        ("ce", -1, -1),
    )
)
_A_12 = Among(
    (
        ("im", -1, -1),
        ("um", -1, -1),
        ("\u00fcm", -1, -1),
        ("\u0131m", -1, -1),
    )
)
_A_13 = Among(
    (
        ("sin", -1, -1),
        ("sun", -1, -1),
        ("s\u00fcn", -1, -1),
        ("s\u0131n", -1, -1),
    )
)
_A_14 = Among(
    (
        ("iz", -1, -1),
        ("uz", -1, -1),
        ("\u00fcz", -1, -1),
        ("\u0131z", -1, -1),
    )
)
_A_15 = Among(
    (
        ("siniz", -1, -1),
        ("sunuz", -1, -1),
        ("s\u00fcn\u00fcz", -1, -1),
        ("s\u0131n\u0131z", -1, -1),
    )
)
_A_16 = Among(
    (
        ("lar", -1, -1),
        ("ler", -1, -1),
    )
)
_A_17 = Among(
    (
        ("niz", -1, -1),
        ("nuz", -1, -1),
        ("n\u00fcz", -1, -1),
        ("n\u0131z", -1, -1),
    )
)
_A_18 = Among(
    (
        ("dir", -1, -1),
        ("tir", -1, -1),
        ("dur", -1, -1),
        ("tur", -1, -1),
        ("d\u00fcr", -1, -1),
        ("t\u00fcr", -1, -1),
        ("d\u0131r", -1, -1),
        ("t\u0131r", -1, -1),
    )
)
_A_19 = Among(
    (
        ("cas\u0131na", -1, -1),
        ("cesine", -1, -1),
    )
)
_A_20 = Among(
    (
        ("di", -1, -1),
        ("ti", -1, -1),
        ("dik", -1, -1),
        ("tik", -1, -1),
        ("duk", -1, -1),
        ("tuk", -1, -1),
        ("d\u00fck", -1, -1),
        ("t\u00fck", -1, -1),
        ("d\u0131k", -1, -1),
        ("t\u0131k", -1, -1),
        ("dim", -1, -1),
        ("tim", -1, -1),
        ("dum", -1, -1),
        ("tum", -1, -1),
        ("d\u00fcm", -1, -1),
        ("t\u00fcm", -1, -1),
        ("d\u0131m", -1, -1),
        ("t\u0131m", -1, -1),
        ("din", -1, -1),
        ("tin", -1, -1),
        ("dun", -1, -1),
        ("tun", -1, -1),
        ("d\u00fcn", -1, -1),
        ("t\u00fcn", -1, -1),
        ("d\u0131n", -1, -1),
        ("t\u0131n", -1, -1),
        ("du", -1, -1),
        ("tu", -1, -1),
        ("d\u00fc", -1, -1),
        ("t\u00fc", -1, -1),
        ("d\u0131", -1, -1),
        ("t\u0131", -1, -1),
    )
)
_A_21 = Among(
    (
        ("sa", -1, -1),
        ("se", -1, -1),
        ("sak", -1, -1),
        ("sek", -1, -1),
        ("sam", -1, -1),
        ("sem", -1, -1),
        ("san", -1, -1),
        ("sen", -1, -1),
    )
)
_A_22 = Among(
    (
        ("mi\u015f", -1, -1),
        ("mu\u015f", -1, -1),
        ("m\u00fc\u015f", -1, -1),
        ("m\u0131\u015f", -1, -1),
    )
)
_A_23 = Among(
    (
        ("b", -1, 1),
        ("c", -1, 2),
        ("d", -1, 3),
        ("\u011f", -1, 4),
    )
)
_G_VOWEL_97_305 = grouping(
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
        0,
        0,
        32,
        8,
        0,
        0,
        0,
        0,
        0,
        0,
        1,
    ),
    97,
    305,
)
_G_VOWEL1_97_305 = grouping(
    (
        1,
        64,
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
    ),
    97,
    305,
)
_G_VOWEL2_101_252 = grouping(
    (
        17,
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
        0,
        0,
        0,
        130,
    ),
    101,
    252,
)
_G_VOWEL3_97_305 = grouping(
    (
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
    ),
    97,
    305,
)
_G_VOWEL4_101_105 = grouping((17,), 101, 105)
_G_VOWEL5_111_117 = grouping((65,), 111, 117)
_G_VOWEL6_246_252 = grouping((65,), 246, 252)
_G_U_105_305 = grouping(
    (
        1,
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
        0,
        0,
        0,
        8,
        0,
        0,
        0,
        0,
        0,
        0,
        1,
    ),
    105,
    305,
)


class TurkishStemmer(SnowballProgram):
    __slots__ = ("B_continue_stemming_noun_suffixes",)
    FIELDS = ("B_continue_stemming_noun_suffixes",)

    def __init__(self):
        super().__init__()
        self.B_continue_stemming_noun_suffixes = False

    def r_check_vowel_harmony(self):
        v_1 = self.limit - self.cursor
        if not self.goto_in_grouping_b(_G_VOWEL_97_305):
            return False
        while True:  # lab2
            v_3 = self.limit - self.cursor
            if self.current.endswith("a", self.limit_backward, self.cursor):
                self.cursor -= 1
                if self.goto_in_grouping_b(_G_VOWEL1_97_305):
                    break
            self.cursor = self.limit - v_3
            if self.current.endswith("e", self.limit_backward, self.cursor):
                self.cursor -= 1
                if self.goto_in_grouping_b(_G_VOWEL2_101_252):
                    break
            self.cursor = self.limit - v_3
            if self.current.endswith("\u0131", self.limit_backward, self.cursor):
                self.cursor -= 1
                if self.goto_in_grouping_b(_G_VOWEL3_97_305):
                    break
            self.cursor = self.limit - v_3
            if self.current.endswith("i", self.limit_backward, self.cursor):
                self.cursor -= 1
                if self.goto_in_grouping_b(_G_VOWEL4_101_105):
                    break
            self.cursor = self.limit - v_3
            if self.current.endswith("o", self.limit_backward, self.cursor):
                self.cursor -= 1
                if self.goto_in_grouping_b(_G_VOWEL5_111_117):
                    break
            self.cursor = self.limit - v_3
            if self.current.endswith("\u00f6", self.limit_backward, self.cursor):
                self.cursor -= 1
                if self.goto_in_grouping_b(_G_VOWEL6_246_252):
                    break
            self.cursor = self.limit - v_3
            if self.current.endswith("u", self.limit_backward, self.cursor):
                self.cursor -= 1
                if self.goto_in_grouping_b(_G_VOWEL5_111_117):
                    break
            self.cursor = self.limit - v_3
            if not self.current.endswith("\u00fc", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
            if not self.goto_in_grouping_b(_G_VOWEL6_246_252):
                return False
            break
        self.cursor = self.limit - v_1
        return True

    def r_mark_suffix_with_optional_n_consonant(self):
        while True:  # lab0
            v_1 = self.limit - self.cursor
            if self.current.endswith("n", self.limit_backward, self.cursor):
                self.cursor -= 1
                v_2 = self.limit - self.cursor
                if self.in_grouping_b(_G_VOWEL_97_305):
                    self.cursor = self.limit - v_2
                    break
            self.cursor = self.limit - v_1
            v_3 = self.limit - self.cursor
            v_4 = self.limit - self.cursor
            if self.current.endswith("n", self.limit_backward, self.cursor):
                self.cursor -= 1
                self.cursor = self.limit - v_4
                return False
            self.cursor = self.limit - v_3
            v_5 = self.limit - self.cursor
            if self.cursor <= self.limit_backward:
                return False
            self.cursor -= 1
            if not self.in_grouping_b(_G_VOWEL_97_305):
                return False
            self.cursor = self.limit - v_5
            break
        return True

    def r_mark_suffix_with_optional_s_consonant(self):
        while True:  # lab0
            v_1 = self.limit - self.cursor
            if self.current.endswith("s", self.limit_backward, self.cursor):
                self.cursor -= 1
                v_2 = self.limit - self.cursor
                if self.in_grouping_b(_G_VOWEL_97_305):
                    self.cursor = self.limit - v_2
                    break
            self.cursor = self.limit - v_1
            v_3 = self.limit - self.cursor
            v_4 = self.limit - self.cursor
            if self.current.endswith("s", self.limit_backward, self.cursor):
                self.cursor -= 1
                self.cursor = self.limit - v_4
                return False
            self.cursor = self.limit - v_3
            v_5 = self.limit - self.cursor
            if self.cursor <= self.limit_backward:
                return False
            self.cursor -= 1
            if not self.in_grouping_b(_G_VOWEL_97_305):
                return False
            self.cursor = self.limit - v_5
            break
        return True

    def r_mark_suffix_with_optional_y_consonant(self):
        while True:  # lab0
            v_1 = self.limit - self.cursor
            if self.current.endswith("y", self.limit_backward, self.cursor):
                self.cursor -= 1
                v_2 = self.limit - self.cursor
                if self.in_grouping_b(_G_VOWEL_97_305):
                    self.cursor = self.limit - v_2
                    break
            self.cursor = self.limit - v_1
            v_3 = self.limit - self.cursor
            v_4 = self.limit - self.cursor
            if self.current.endswith("y", self.limit_backward, self.cursor):
                self.cursor -= 1
                self.cursor = self.limit - v_4
                return False
            self.cursor = self.limit - v_3
            v_5 = self.limit - self.cursor
            if self.cursor <= self.limit_backward:
                return False
            self.cursor -= 1
            if not self.in_grouping_b(_G_VOWEL_97_305):
                return False
            self.cursor = self.limit - v_5
            break
        return True

    def r_mark_suffix_with_optional_U_vowel(self):
        while True:  # lab0
            v_1 = self.limit - self.cursor
            if self.in_grouping_b(_G_U_105_305):
                v_2 = self.limit - self.cursor
                if self.out_grouping_b(_G_VOWEL_97_305):
                    self.cursor = self.limit - v_2
                    break
            self.cursor = self.limit - v_1
            v_3 = self.limit - self.cursor
            v_4 = self.limit - self.cursor
            if self.in_grouping_b(_G_U_105_305):
                self.cursor = self.limit - v_4
                return False
            self.cursor = self.limit - v_3
            v_5 = self.limit - self.cursor
            if self.cursor <= self.limit_backward:
                return False
            self.cursor -= 1
            if not self.out_grouping_b(_G_VOWEL_97_305):
                return False
            self.cursor = self.limit - v_5
            break
        return True

    def r_mark_possessives(self):
        if self.find_among_b(_A_0) == 0:
            return False
        if not self.r_mark_suffix_with_optional_U_vowel():
            return False
        return True

    def r_mark_sU(self):
        if not self.r_check_vowel_harmony():
            return False
        if not self.in_grouping_b(_G_U_105_305):
            return False
        if not self.r_mark_suffix_with_optional_s_consonant():
            return False
        return True

    def r_mark_lArI(self):
        if self.find_among_b(_A_1) == 0:
            return False
        return True

    def r_mark_yU(self):
        if not self.r_check_vowel_harmony():
            return False
        if not self.in_grouping_b(_G_U_105_305):
            return False
        if not self.r_mark_suffix_with_optional_y_consonant():
            return False
        return True

    def r_mark_nU(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_2) == 0:
            return False
        return True

    def r_mark_nUn(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_3) == 0:
            return False
        if not self.r_mark_suffix_with_optional_n_consonant():
            return False
        return True

    def r_mark_yA(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_4) == 0:
            return False
        if not self.r_mark_suffix_with_optional_y_consonant():
            return False
        return True

    def r_mark_nA(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_5) == 0:
            return False
        return True

    def r_mark_DA(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_6) == 0:
            return False
        return True

    def r_mark_ndA(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_7) == 0:
            return False
        return True

    def r_mark_DAn(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_8) == 0:
            return False
        return True

    def r_mark_ndAn(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_9) == 0:
            return False
        return True

    def r_mark_ylA(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_10) == 0:
            return False
        if not self.r_mark_suffix_with_optional_y_consonant():
            return False
        return True

    def r_mark_ki(self):
        if not self.current.endswith("ki", self.limit_backward, self.cursor):
            return False
        self.cursor -= 2
        return True

    def r_mark_ncA(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_11) == 0:
            return False
        if not self.r_mark_suffix_with_optional_n_consonant():
            return False
        return True

    def r_mark_yUm(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_12) == 0:
            return False
        if not self.r_mark_suffix_with_optional_y_consonant():
            return False
        return True

    def r_mark_sUn(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_13) == 0:
            return False
        return True

    def r_mark_yUz(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_14) == 0:
            return False
        if not self.r_mark_suffix_with_optional_y_consonant():
            return False
        return True

    def r_mark_sUnUz(self):
        if self.find_among_b(_A_15) == 0:
            return False
        return True

    def r_mark_lAr(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_16) == 0:
            return False
        return True

    def r_mark_nUz(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_17) == 0:
            return False
        return True

    def r_mark_DUr(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_18) == 0:
            return False
        return True

    def r_mark_cAsInA(self):
        if self.find_among_b(_A_19) == 0:
            return False
        return True

    def r_mark_yDU(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_20) == 0:
            return False
        if not self.r_mark_suffix_with_optional_y_consonant():
            return False
        return True

    def r_mark_ysA(self):
        if self.find_among_b(_A_21) == 0:
            return False
        if not self.r_mark_suffix_with_optional_y_consonant():
            return False
        return True

    def r_mark_ymUs_(self):
        if not self.r_check_vowel_harmony():
            return False
        if self.find_among_b(_A_22) == 0:
            return False
        if not self.r_mark_suffix_with_optional_y_consonant():
            return False
        return True

    def r_mark_yken(self):
        if not self.current.endswith("ken", self.limit_backward, self.cursor):
            return False
        self.cursor -= 3
        if not self.r_mark_suffix_with_optional_y_consonant():
            return False
        return True

    def r_stem_nominal_verb_suffixes(self):
        _jump = 0
        self.ket = self.cursor
        self.B_continue_stemming_noun_suffixes = True
        while True:  # lab0
            v_1 = self.limit - self.cursor
            while True:  # lab1
                while True:  # lab2
                    v_2 = self.limit - self.cursor
                    if self.r_mark_ymUs_():
                        break
                    self.cursor = self.limit - v_2
                    if self.r_mark_yDU():
                        break
                    self.cursor = self.limit - v_2
                    if self.r_mark_ysA():
                        break
                    self.cursor = self.limit - v_2
                    if not self.r_mark_yken():
                        _jump = 1
                        break
                    break
                if _jump == 1:
                    _jump = 0
                    break
                _jump = 2
                break
            if _jump == 2:
                _jump = 0
                break
            self.cursor = self.limit - v_1
            if self.r_mark_cAsInA():
                while True:  # lab7
                    v_3 = self.limit - self.cursor
                    if self.r_mark_sUnUz():
                        break
                    self.cursor = self.limit - v_3
                    if self.r_mark_lAr():
                        break
                    self.cursor = self.limit - v_3
                    if self.r_mark_yUm():
                        break
                    self.cursor = self.limit - v_3
                    if self.r_mark_sUn():
                        break
                    self.cursor = self.limit - v_3
                    if self.r_mark_yUz():
                        break
                    self.cursor = self.limit - v_3
                    break
                if self.r_mark_ymUs_():
                    break
            self.cursor = self.limit - v_1
            if self.r_mark_lAr():
                self.bra = self.cursor
                self.slice_del()
                v_4 = self.limit - self.cursor
                while True:  # lab14
                    self.ket = self.cursor
                    while True:  # lab15
                        v_5 = self.limit - self.cursor
                        if self.r_mark_DUr():
                            break
                        self.cursor = self.limit - v_5
                        if self.r_mark_yDU():
                            break
                        self.cursor = self.limit - v_5
                        if self.r_mark_ysA():
                            break
                        self.cursor = self.limit - v_5
                        if not self.r_mark_ymUs_():
                            self.cursor = self.limit - v_4
                            _jump = 3
                            break
                        break
                    if _jump == 3:
                        _jump = 0
                        break
                    break
                self.B_continue_stemming_noun_suffixes = False
                break
            self.cursor = self.limit - v_1
            while True:  # lab19
                if not self.r_mark_nUz():
                    break
                while True:  # lab20
                    v_6 = self.limit - self.cursor
                    if self.r_mark_yDU():
                        break
                    self.cursor = self.limit - v_6
                    if not self.r_mark_ysA():
                        _jump = 4
                        break
                    break
                if _jump == 4:
                    _jump = 0
                    break
                _jump = 5
                break
            if _jump == 5:
                _jump = 0
                break
            self.cursor = self.limit - v_1
            while True:  # lab22
                while True:  # lab23
                    v_7 = self.limit - self.cursor
                    if self.r_mark_sUnUz():
                        break
                    self.cursor = self.limit - v_7
                    if self.r_mark_yUz():
                        break
                    self.cursor = self.limit - v_7
                    if self.r_mark_sUn():
                        break
                    self.cursor = self.limit - v_7
                    if not self.r_mark_yUm():
                        _jump = 6
                        break
                    break
                if _jump == 6:
                    _jump = 0
                    break
                self.bra = self.cursor
                self.slice_del()
                v_8 = self.limit - self.cursor
                self.ket = self.cursor
                if not self.r_mark_ymUs_():
                    self.cursor = self.limit - v_8
                _jump = 7
                break
            if _jump == 7:
                _jump = 0
                break
            self.cursor = self.limit - v_1
            if not self.r_mark_DUr():
                return False
            self.bra = self.cursor
            self.slice_del()
            v_9 = self.limit - self.cursor
            self.ket = self.cursor
            while True:  # lab29
                v_10 = self.limit - self.cursor
                if self.r_mark_sUnUz():
                    break
                self.cursor = self.limit - v_10
                if self.r_mark_lAr():
                    break
                self.cursor = self.limit - v_10
                if self.r_mark_yUm():
                    break
                self.cursor = self.limit - v_10
                if self.r_mark_sUn():
                    break
                self.cursor = self.limit - v_10
                if self.r_mark_yUz():
                    break
                self.cursor = self.limit - v_10
                break
            if not self.r_mark_ymUs_():
                self.cursor = self.limit - v_9
            break
        self.bra = self.cursor
        self.slice_del()
        return True

    def r_stem_suffix_chain_before_ki(self):
        _jump = 0
        self.ket = self.cursor
        if not self.r_mark_ki():
            return False
        while True:  # lab0
            v_1 = self.limit - self.cursor
            if self.r_mark_DA():
                self.bra = self.cursor
                self.slice_del()
                v_2 = self.limit - self.cursor
                while True:  # lab2
                    self.ket = self.cursor
                    while True:  # lab3
                        v_3 = self.limit - self.cursor
                        if self.r_mark_lAr():
                            self.bra = self.cursor
                            self.slice_del()
                            v_4 = self.limit - self.cursor
                            if not self.r_stem_suffix_chain_before_ki():
                                self.cursor = self.limit - v_4
                            break
                        self.cursor = self.limit - v_3
                        if not self.r_mark_possessives():
                            self.cursor = self.limit - v_2
                            _jump = 1
                            break
                        self.bra = self.cursor
                        self.slice_del()
                        v_5 = self.limit - self.cursor
                        self.ket = self.cursor
                        if not self.r_mark_lAr():
                            self.cursor = self.limit - v_5
                        else:
                            self.bra = self.cursor
                            self.slice_del()
                            if not self.r_stem_suffix_chain_before_ki():
                                self.cursor = self.limit - v_5
                        break
                    if _jump == 1:
                        _jump = 0
                        break
                    break
                break
            self.cursor = self.limit - v_1
            if self.r_mark_nUn():
                self.bra = self.cursor
                self.slice_del()
                v_6 = self.limit - self.cursor
                while True:  # lab8
                    self.ket = self.cursor
                    while True:  # lab9
                        v_7 = self.limit - self.cursor
                        if self.r_mark_lArI():
                            self.bra = self.cursor
                            self.slice_del()
                            break
                        self.cursor = self.limit - v_7
                        while True:  # lab11
                            self.ket = self.cursor
                            while True:  # lab12
                                v_8 = self.limit - self.cursor
                                if self.r_mark_possessives():
                                    break
                                self.cursor = self.limit - v_8
                                if not self.r_mark_sU():
                                    _jump = 2
                                    break
                                break
                            if _jump == 2:
                                _jump = 0
                                break
                            self.bra = self.cursor
                            self.slice_del()
                            v_9 = self.limit - self.cursor
                            self.ket = self.cursor
                            if not self.r_mark_lAr():
                                self.cursor = self.limit - v_9
                            else:
                                self.bra = self.cursor
                                self.slice_del()
                                if not self.r_stem_suffix_chain_before_ki():
                                    self.cursor = self.limit - v_9
                            _jump = 3
                            break
                        if _jump == 3:
                            _jump = 0
                            break
                        self.cursor = self.limit - v_7
                        if not self.r_stem_suffix_chain_before_ki():
                            self.cursor = self.limit - v_6
                            _jump = 4
                            break
                        break
                    if _jump == 4:
                        _jump = 0
                        break
                    break
                break
            self.cursor = self.limit - v_1
            if not self.r_mark_ndA():
                return False
            while True:  # lab15
                v_10 = self.limit - self.cursor
                if self.r_mark_lArI():
                    self.bra = self.cursor
                    self.slice_del()
                    break
                self.cursor = self.limit - v_10
                if self.r_mark_sU():
                    self.bra = self.cursor
                    self.slice_del()
                    v_11 = self.limit - self.cursor
                    self.ket = self.cursor
                    if not self.r_mark_lAr():
                        self.cursor = self.limit - v_11
                    else:
                        self.bra = self.cursor
                        self.slice_del()
                        if not self.r_stem_suffix_chain_before_ki():
                            self.cursor = self.limit - v_11
                    break
                self.cursor = self.limit - v_10
                if not self.r_stem_suffix_chain_before_ki():
                    return False
                break
            break
        return True

    def r_stem_noun_suffixes(self):
        _jump = 0
        while True:  # lab0
            v_1 = self.limit - self.cursor
            self.ket = self.cursor
            if self.r_mark_lAr():
                self.bra = self.cursor
                self.slice_del()
                v_2 = self.limit - self.cursor
                if not self.r_stem_suffix_chain_before_ki():
                    self.cursor = self.limit - v_2
                break
            self.cursor = self.limit - v_1
            self.ket = self.cursor
            if self.r_mark_ncA():
                self.bra = self.cursor
                self.slice_del()
                v_3 = self.limit - self.cursor
                while True:  # lab4
                    while True:  # lab5
                        v_4 = self.limit - self.cursor
                        self.ket = self.cursor
                        if self.r_mark_lArI():
                            self.bra = self.cursor
                            self.slice_del()
                            break
                        self.cursor = self.limit - v_4
                        while True:  # lab7
                            self.ket = self.cursor
                            while True:  # lab8
                                v_5 = self.limit - self.cursor
                                if self.r_mark_possessives():
                                    break
                                self.cursor = self.limit - v_5
                                if not self.r_mark_sU():
                                    _jump = 1
                                    break
                                break
                            if _jump == 1:
                                _jump = 0
                                break
                            self.bra = self.cursor
                            self.slice_del()
                            v_6 = self.limit - self.cursor
                            self.ket = self.cursor
                            if not self.r_mark_lAr():
                                self.cursor = self.limit - v_6
                            else:
                                self.bra = self.cursor
                                self.slice_del()
                                if not self.r_stem_suffix_chain_before_ki():
                                    self.cursor = self.limit - v_6
                            _jump = 2
                            break
                        if _jump == 2:
                            _jump = 0
                            break
                        self.cursor = self.limit - v_4
                        self.ket = self.cursor
                        if not self.r_mark_lAr():
                            self.cursor = self.limit - v_3
                            _jump = 3
                            break
                        self.bra = self.cursor
                        self.slice_del()
                        if not self.r_stem_suffix_chain_before_ki():
                            self.cursor = self.limit - v_3
                            _jump = 4
                            break
                        break
                    if _jump == 3:
                        _jump = 0
                        break
                    if _jump == 4:
                        _jump = 0
                        break
                    break
                break
            self.cursor = self.limit - v_1
            while True:  # lab11
                self.ket = self.cursor
                while True:  # lab12
                    v_7 = self.limit - self.cursor
                    if self.r_mark_ndA():
                        break
                    self.cursor = self.limit - v_7
                    if not self.r_mark_nA():
                        _jump = 5
                        break
                    break
                if _jump == 5:
                    _jump = 0
                    break
                while True:  # lab14
                    v_8 = self.limit - self.cursor
                    if self.r_mark_lArI():
                        self.bra = self.cursor
                        self.slice_del()
                        break
                    self.cursor = self.limit - v_8
                    if self.r_mark_sU():
                        self.bra = self.cursor
                        self.slice_del()
                        v_9 = self.limit - self.cursor
                        self.ket = self.cursor
                        if not self.r_mark_lAr():
                            self.cursor = self.limit - v_9
                        else:
                            self.bra = self.cursor
                            self.slice_del()
                            if not self.r_stem_suffix_chain_before_ki():
                                self.cursor = self.limit - v_9
                        break
                    self.cursor = self.limit - v_8
                    if not self.r_stem_suffix_chain_before_ki():
                        _jump = 6
                        break
                    break
                if _jump == 6:
                    _jump = 0
                    break
                _jump = 7
                break
            if _jump == 7:
                _jump = 0
                break
            self.cursor = self.limit - v_1
            while True:  # lab18
                self.ket = self.cursor
                while True:  # lab19
                    v_10 = self.limit - self.cursor
                    if self.r_mark_ndAn():
                        break
                    self.cursor = self.limit - v_10
                    if not self.r_mark_nU():
                        _jump = 8
                        break
                    break
                if _jump == 8:
                    _jump = 0
                    break
                while True:  # lab21
                    v_11 = self.limit - self.cursor
                    if self.r_mark_sU():
                        self.bra = self.cursor
                        self.slice_del()
                        v_12 = self.limit - self.cursor
                        self.ket = self.cursor
                        if not self.r_mark_lAr():
                            self.cursor = self.limit - v_12
                        else:
                            self.bra = self.cursor
                            self.slice_del()
                            if not self.r_stem_suffix_chain_before_ki():
                                self.cursor = self.limit - v_12
                        break
                    self.cursor = self.limit - v_11
                    if not self.r_mark_lArI():
                        _jump = 9
                        break
                    break
                if _jump == 9:
                    _jump = 0
                    break
                _jump = 10
                break
            if _jump == 10:
                _jump = 0
                break
            self.cursor = self.limit - v_1
            self.ket = self.cursor
            if self.r_mark_DAn():
                self.bra = self.cursor
                self.slice_del()
                v_13 = self.limit - self.cursor
                while True:  # lab25
                    self.ket = self.cursor
                    while True:  # lab26
                        v_14 = self.limit - self.cursor
                        if self.r_mark_possessives():
                            self.bra = self.cursor
                            self.slice_del()
                            v_15 = self.limit - self.cursor
                            self.ket = self.cursor
                            if not self.r_mark_lAr():
                                self.cursor = self.limit - v_15
                            else:
                                self.bra = self.cursor
                                self.slice_del()
                                if not self.r_stem_suffix_chain_before_ki():
                                    self.cursor = self.limit - v_15
                            break
                        self.cursor = self.limit - v_14
                        if self.r_mark_lAr():
                            self.bra = self.cursor
                            self.slice_del()
                            v_16 = self.limit - self.cursor
                            if not self.r_stem_suffix_chain_before_ki():
                                self.cursor = self.limit - v_16
                            break
                        self.cursor = self.limit - v_14
                        if not self.r_stem_suffix_chain_before_ki():
                            self.cursor = self.limit - v_13
                            _jump = 11
                            break
                        break
                    if _jump == 11:
                        _jump = 0
                        break
                    break
                break
            self.cursor = self.limit - v_1
            while True:  # lab31
                self.ket = self.cursor
                while True:  # lab32
                    v_17 = self.limit - self.cursor
                    if self.r_mark_nUn():
                        break
                    self.cursor = self.limit - v_17
                    if not self.r_mark_ylA():
                        _jump = 12
                        break
                    break
                if _jump == 12:
                    _jump = 0
                    break
                self.bra = self.cursor
                self.slice_del()
                v_18 = self.limit - self.cursor
                while True:  # lab34
                    while True:  # lab35
                        v_19 = self.limit - self.cursor
                        self.ket = self.cursor
                        if self.r_mark_lAr():
                            self.bra = self.cursor
                            self.slice_del()
                            if self.r_stem_suffix_chain_before_ki():
                                break
                        self.cursor = self.limit - v_19
                        while True:  # lab37
                            self.ket = self.cursor
                            while True:  # lab38
                                v_20 = self.limit - self.cursor
                                if self.r_mark_possessives():
                                    break
                                self.cursor = self.limit - v_20
                                if not self.r_mark_sU():
                                    _jump = 13
                                    break
                                break
                            if _jump == 13:
                                _jump = 0
                                break
                            self.bra = self.cursor
                            self.slice_del()
                            v_21 = self.limit - self.cursor
                            self.ket = self.cursor
                            if not self.r_mark_lAr():
                                self.cursor = self.limit - v_21
                            else:
                                self.bra = self.cursor
                                self.slice_del()
                                if not self.r_stem_suffix_chain_before_ki():
                                    self.cursor = self.limit - v_21
                            _jump = 14
                            break
                        if _jump == 14:
                            _jump = 0
                            break
                        self.cursor = self.limit - v_19
                        if not self.r_stem_suffix_chain_before_ki():
                            self.cursor = self.limit - v_18
                            _jump = 15
                            break
                        break
                    if _jump == 15:
                        _jump = 0
                        break
                    break
                _jump = 16
                break
            if _jump == 16:
                _jump = 0
                break
            self.cursor = self.limit - v_1
            self.ket = self.cursor
            if self.r_mark_lArI():
                self.bra = self.cursor
                self.slice_del()
                break
            self.cursor = self.limit - v_1
            if self.r_stem_suffix_chain_before_ki():
                break
            self.cursor = self.limit - v_1
            while True:  # lab43
                self.ket = self.cursor
                while True:  # lab44
                    v_22 = self.limit - self.cursor
                    if self.r_mark_DA():
                        break
                    self.cursor = self.limit - v_22
                    if self.r_mark_yU():
                        break
                    self.cursor = self.limit - v_22
                    if not self.r_mark_yA():
                        _jump = 17
                        break
                    break
                if _jump == 17:
                    _jump = 0
                    break
                self.bra = self.cursor
                self.slice_del()
                v_23 = self.limit - self.cursor
                while True:  # lab47
                    self.ket = self.cursor
                    while True:  # lab48
                        v_24 = self.limit - self.cursor
                        if self.r_mark_possessives():
                            self.bra = self.cursor
                            self.slice_del()
                            v_25 = self.limit - self.cursor
                            self.ket = self.cursor
                            if not self.r_mark_lAr():
                                self.cursor = self.limit - v_25
                            break
                        self.cursor = self.limit - v_24
                        if not self.r_mark_lAr():
                            self.cursor = self.limit - v_23
                            _jump = 18
                            break
                        break
                    if _jump == 18:
                        _jump = 0
                        break
                    self.bra = self.cursor
                    self.slice_del()
                    self.ket = self.cursor
                    if not self.r_stem_suffix_chain_before_ki():
                        self.cursor = self.limit - v_23
                        break
                    break
                _jump = 19
                break
            if _jump == 19:
                _jump = 0
                break
            self.cursor = self.limit - v_1
            self.ket = self.cursor
            while True:  # lab51
                v_26 = self.limit - self.cursor
                if self.r_mark_possessives():
                    break
                self.cursor = self.limit - v_26
                if not self.r_mark_sU():
                    return False
                break
            self.bra = self.cursor
            self.slice_del()
            v_27 = self.limit - self.cursor
            self.ket = self.cursor
            if not self.r_mark_lAr():
                self.cursor = self.limit - v_27
            else:
                self.bra = self.cursor
                self.slice_del()
                if not self.r_stem_suffix_chain_before_ki():
                    self.cursor = self.limit - v_27
            break
        return True

    def r_post_process_last_consonants(self):
        self.ket = self.cursor
        among_var = self.find_among_b(_A_23)
        if among_var == 0:
            return False
        self.bra = self.cursor
        if among_var == 1:
            self.slice_from("p")
        elif among_var == 2:
            self.slice_from("\u00e7")
        elif among_var == 3:
            self.slice_from("t")
        elif among_var == 4:
            self.slice_from("k")
        return True

    def r_append_U_to_stems_ending_with_d_or_g(self):
        _jump = 0
        v_1 = self.limit - self.cursor
        while True:  # lab0
            v_2 = self.limit - self.cursor
            if self.current.endswith("d", self.limit_backward, self.cursor):
                self.cursor -= 1
                break
            self.cursor = self.limit - v_2
            if not self.current.endswith("g", self.limit_backward, self.cursor):
                return False
            self.cursor -= 1
            break
        self.cursor = self.limit - v_1
        while True:  # lab2
            v_3 = self.limit - self.cursor
            while True:  # lab3
                v_4 = self.limit - self.cursor
                if not self.goto_in_grouping_b(_G_VOWEL_97_305):
                    break
                while True:  # lab6
                    v_6 = self.limit - self.cursor
                    if self.current.endswith("a", self.limit_backward, self.cursor):
                        self.cursor -= 1
                        break
                    self.cursor = self.limit - v_6
                    if not self.current.endswith("\u0131", self.limit_backward, self.cursor):
                        _jump = 1
                        break
                    self.cursor -= 1
                    break
                if _jump == 1:
                    _jump = 0
                    break
                self.cursor = self.limit - v_4
                c = self.cursor
                self.insert(self.cursor, self.cursor, "\u0131")
                self.cursor = c
                _jump = 2
                break
            if _jump == 2:
                _jump = 0
                break
            self.cursor = self.limit - v_3
            while True:  # lab8
                v_7 = self.limit - self.cursor
                if not self.goto_in_grouping_b(_G_VOWEL_97_305):
                    break
                while True:  # lab11
                    v_9 = self.limit - self.cursor
                    if self.current.endswith("e", self.limit_backward, self.cursor):
                        self.cursor -= 1
                        break
                    self.cursor = self.limit - v_9
                    if not self.current.endswith("i", self.limit_backward, self.cursor):
                        _jump = 3
                        break
                    self.cursor -= 1
                    break
                if _jump == 3:
                    _jump = 0
                    break
                self.cursor = self.limit - v_7
                c = self.cursor
                self.insert(self.cursor, self.cursor, "i")
                self.cursor = c
                _jump = 4
                break
            if _jump == 4:
                _jump = 0
                break
            self.cursor = self.limit - v_3
            while True:  # lab13
                v_10 = self.limit - self.cursor
                if not self.goto_in_grouping_b(_G_VOWEL_97_305):
                    break
                while True:  # lab16
                    v_12 = self.limit - self.cursor
                    if self.current.endswith("o", self.limit_backward, self.cursor):
                        self.cursor -= 1
                        break
                    self.cursor = self.limit - v_12
                    if not self.current.endswith("u", self.limit_backward, self.cursor):
                        _jump = 5
                        break
                    self.cursor -= 1
                    break
                if _jump == 5:
                    _jump = 0
                    break
                self.cursor = self.limit - v_10
                c = self.cursor
                self.insert(self.cursor, self.cursor, "u")
                self.cursor = c
                _jump = 6
                break
            if _jump == 6:
                _jump = 0
                break
            self.cursor = self.limit - v_3
            v_13 = self.limit - self.cursor
            if not self.goto_in_grouping_b(_G_VOWEL_97_305):
                return False
            while True:  # lab20
                v_15 = self.limit - self.cursor
                if self.current.endswith("\u00f6", self.limit_backward, self.cursor):
                    self.cursor -= 1
                    break
                self.cursor = self.limit - v_15
                if not self.current.endswith("\u00fc", self.limit_backward, self.cursor):
                    return False
                self.cursor -= 1
                break
            self.cursor = self.limit - v_13
            c = self.cursor
            self.insert(self.cursor, self.cursor, "\u00fc")
            self.cursor = c
            break
        return True

    def r_is_reserved_word(self):
        if not self.current.endswith("ad", self.limit_backward, self.cursor):
            return False
        self.cursor -= 2
        v_1 = self.limit - self.cursor
        if not self.eq_s_b("soy"):
            self.cursor = self.limit - v_1
        if self.cursor > self.limit_backward:
            return False
        return True

    def r_more_than_one_syllable_word(self):
        v_1 = self.cursor
        v_2 = 2
        while True:
            v_3 = self.cursor
            if self.gopast_in_grouping(_G_VOWEL_97_305):
                v_2 -= 1
                continue
            self.cursor = v_3
            break
        if v_2 > 0:
            return False
        self.cursor = v_1
        return True

    def r_postlude(self):
        self.limit_backward = self.cursor
        self.cursor = self.limit
        v_1 = self.limit - self.cursor
        if self.r_is_reserved_word():
            return False
        self.cursor = self.limit - v_1
        v_2 = self.limit - self.cursor
        self.r_append_U_to_stems_ending_with_d_or_g()
        self.cursor = self.limit - v_2
        v_3 = self.limit - self.cursor
        self.r_post_process_last_consonants()
        self.cursor = self.limit - v_3
        self.cursor = self.limit_backward
        return True

    def _stem(self):
        if not self.r_more_than_one_syllable_word():
            return False
        self.limit_backward = self.cursor
        self.cursor = self.limit
        v_1 = self.limit - self.cursor
        self.r_stem_nominal_verb_suffixes()
        self.cursor = self.limit - v_1
        if not self.B_continue_stemming_noun_suffixes:
            return False
        v_2 = self.limit - self.cursor
        self.r_stem_noun_suffixes()
        self.cursor = self.limit - v_2
        self.cursor = self.limit_backward
        if not self.r_postlude():
            return False
        return True

    def stem(self, word):
        """The stem of one word (a str of UTF-16 code units)."""
        self.set_current(word)
        self._stem()
        return self.current[: self.limit]
