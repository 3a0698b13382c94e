"""Lucene's German, Spanish, French, Italian, Portuguese and Indonesian analyzers, term
for term.

Every expected output here was produced by the real Java: the analyzers of Lucene 9.9.1
(GermanAnalyzer, SpanishAnalyzer, FrenchAnalyzer, ItalianAnalyzer, PortugueseAnalyzer,
IndonesianAnalyzer, built by their default constructors as Anserini 1.7.1's AnalyzerMap
builds them) in the Anserini 1.7.1 fatjar. CASES holds, per language, hand cases
(elision in any case, İ and ſ before an apostrophe, ß and ẞ, umlauts spelled out,
stopwords, plurals, characters outside the BMP), then words that take every branch of
the stemmer's port (chosen by tracing it over vocabularies and random words), then 30
random words of the language's snowball-data vocabulary. data/<lang>.tsv.gz holds 2,000
texts per language (faker's locale text, sentences of vocabulary words, mixed case,
digits, punctuation, elided articles) with Lucene's terms: see data/README.md.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pyarrow as pa
import pytest
from support.lucene_terms import unescape

from sparsebench.analysis import languages
from sparsebench.analysis.code_units import from_units, to_units
from sparsebench.analysis.filters import snowball_word_set, word_set
from sparsebench.analysis.light.analyzer import FRENCH_ARTICLES, chain, elision

DATA = Path(__file__).parent / "data"

# language -> (text, Java's terms joined by spaces)
CASES = {
    "de": [
        ("Die Straße, STRASSE und strasse", "strass strass strass"),
        ("Mädchen Maedchen MÄDCHEN", "madch madch madch"),
        ("Häuser Hauses Häusern", "haus haus haus"),
        ("Bücher über Schönheit", "buch schonheit"),
        ("Äpfel ÄPFEL aepfel Apfels", "apfel apfel apfel apfel"),
        ("Queue Quelle bauen Bauer Treue", "queu quell bau bau treu"),
        ("GROẞEN großen Größe", "gross gross gross"),
        ("die Katze und der Hund", "katz hund"),
        ("das kleinste Kind", "klein kind"),
        ("Bergsteigern lernen", "bergsteig lern"),
        ("𝐀ußen, Fußgänger", "𝐀uss fussgang"),
        ("à la carte über-über", "a la cart"),
        ("tanzte tanzest", "tanzt tanz"),
        ("3,14 Jahre 2023", "3,14 jahr 2023"),
        ("atmens", "atm"),
        ("fuß", "fuss"),
        ("gΩigp𝐀vrveaeuẞt", "gωigp𝐀vrveausst"),
        ("priestern", "pri"),
        ("zwölfjähÜrigen", "zwolfjahurig"),
        ("ängste", "ang"),
        ("einfliessenden", "einfliessend"),
        ("anwendeten", "anwendet"),
        ("kurzem", "kurz"),
        ("insonderheit", "insonderheit"),
        ("herrschens", "herrsch"),
        ("erworbene", "erworb"),
        ("duht", "duht"),
        ("busen", "bus"),
        ("tierheit", "tierheit"),
        ("aufgehenden", "aufgehend"),
        ("auen", "auen"),
        ("dehnte", "dehnt"),
        ("hemdchen", "hemdch"),
        ("hinken", "hink"),
        ("wiedergeboren", "wiedergebor"),
        ("ara", "ara"),
        ("glückseliger", "gluckselig"),
        ("teilnimmt", "teilnimmt"),
        ("herauskommt", "herauskommt"),
        ("unterbrechend", "unterbrechend"),
        ("langjährige", "langjahrig"),
        ("abwechselnder", "abwechselnd"),
        ("frischduftende", "frischduftend"),
        ("tobendes", "tobend"),
        ("preisträger", "preistrag"),
        ("landstriches", "landstrich"),
        ("fortgejagt", "fortgejagt"),
        ("häuslichen", "hauslich"),
        ("pispernd", "pispernd"),
        ("drüppeln", "druppeln"),
    ],
    "es": [
        ("Las canciones de los niños", "cancion niñ"),
        ("ACCIONES, peces, luces", "accion pez luz"),
        ("Él está aquí", "aquí"),
        ("mesas meses", "mes mes"),
        ("El Niño y la Niña", "niño niña"),
        ("corazón CORAZONES", "corazon corazon"),
        ("frases crees", "fras cre"),
        ("1.000 pesos", "1.000 pes"),
        ("Qíl𝐀", "qil𝐀"),
        ("a", ""),
        ("actas", "act"),
        ("dices", "diz"),
        ("fã😀s", "fã 😀 s"),
        ("f😀qe", "f 😀 qe"),
        ("jesés", "jes"),
        ("baby", "baby"),
        ("frecuentes", "frecuent"),
        ("barbacoa", "barbaco"),
        ("facturación", "facturacion"),
        ("villahermosa", "villahermos"),
        ("europeo", "europe"),
        ("pascal", "pascal"),
        ("desprotegerán", "desprotegeran"),
        ("torcer", "torcer"),
        ("amarren", "amarren"),
        ("roosevelt", "roosevelt"),
        ("interesan", "interesan"),
        ("milli", "milli"),
        ("calmar", "calmar"),
        ("franca", "franc"),
        ("atacados", "atacad"),
        ("munícipe", "municip"),
        ("eau", "eau"),
        ("urnas", "urn"),
        ("platique", "platiqu"),
        ("perspectivas", "perspectiv"),
        ("zapatera", "zapater"),
        ("fanático", "fanatic"),
        ("oculten", "oculten"),
        ("consagró", "consagr"),
        ("renovando", "renovand"),
        ("arrendador", "arrendador"),
        ("amiguita", "amiguit"),
        ("propietarios", "propietari"),
        ("curiosas", "curios"),
    ],
    "fr": [
        ("L'avion l’avion L’AVION", "avion avion avion"),
        ("QU'IL jusqu'à aujourd'hui lorsqu'il puisqu'elle", "aujourd'hui"),
        ("QUOİQU'il ſ'il s'il", "ſ'il"),
        ("d'd'eau l'l'homme", "d'eau l'hom"),
        ("Les châteaux des rois", "chateau roi"),
        ("nationalisation nationaux", "national national"),
        ("rapidement heureusement", "rapid heureus"),
        ("une actrice, des acteurs", "acteu acteu"),
        ("chanteuse chanteur", "chant chant"),
        ("J'aime l'été C'est", "aime été est"),
        ("xx'yy aujourd’hui", "x'y aujourd’hui"),
        ("œuvres Œuvre", "œuvr œuvr"),
        ("folle molle", "fou mou"),
        ("poète première", "poet premier"),
        ("OTUGAOSESSEIQUE", "otugaos"),
        ("abaissant", "abai"),
        ("adoration", "ador"),
        ("aoxisation", "aox"),
        ("azginage", "azgin"),
        ("banquière", "banqui"),
        ("bmxa'cõbvse𝐀xxzx", "bmxa'cõbvse𝐀xz"),
        ("bêtement", "bête"),
        ("condition", "cond"),
        ("d'utilisateur", "utilis"),
        ("dkissement", "dkir"),
        ("douteuse", "dout"),
        ("décisive", "decisif"),
        ("ernficateur", "ernfi"),
        ("ficatrice", "fic"),
        ("folle", "fou"),
        ("hìáweceieisation", "hìawec"),
        ("kdtàkmnnel", "kdtakmn"),
        ("lectrice", "lect"),
        ("loyaux", "loyal"),
        ("pieuse", "pieu"),
        ("poète", "poet"),
        ("solennelle", "solen"),
        ("unième", "un"),
        ("vivement", "vif"),
        ("wnécatrice", "wnequ"),
        ("wstficatrice", "wstfi"),
        ("xficateur", "xfiqu"),
        ("zaqualisations", "zaquel"),
        ("zeement", "zee"),
        ("áqnioisateurique", "aqnio"),
        ("îoísx", "îoí"),
        ("hochant", "hochant"),
        ("bronché", "bronch"),
        ("estafette", "estafet"),
        ("charing", "charing"),
        ("mielleuse", "mieleu"),
        ("griefs", "grief"),
        ("policeman", "policeman"),
        ("weber", "web"),
        ("maintenait", "maintenait"),
        ("d'étoiles", "etoil"),
        ("marchandise", "marchandis"),
        ("lip", "lip"),
        ("effarouches", "efarouch"),
        ("fénelon", "fenelon"),
        ("éloigne", "eloign"),
        ("boats", "boat"),
        ("tromper", "tromp"),
        ("vêtements", "vête"),
        ("devoirs", "devoi"),
        ("rémission", "remision"),
        ("fardeau", "fardeau"),
        ("daignez", "daignez"),
        ("prie", "prie"),
        ("meurtres", "meurtr"),
        ("garder", "gard"),
        ("échangés", "echang"),
        ("servirait", "servirait"),
        ("enflée", "enfl"),
        ("isolés", "isol"),
        ("avancent", "avancent"),
    ],
    "it": [
        ("dell'anno L'UNIONE gl'italiani un'amica c'è", "anno union italian amica"),
        ("nell’anima sull'isola DALL'ALTO", "anima isola alto"),
        ("all'inizio pell'anima coll'aiuto", "iniz anima aiuto"),
        (
            "degl'Italiani dagl'inizi sugl'alberi negl'occhi agl'amici",
            "italian inizi alber occhi amici",
        ),
        ("v'è m'ha t'ho s'è d'oro", "oro"),
        ("amiche amici buoni buona", "amic amici buoni buona"),
        ("città perché caffè", "città caffè"),
        ("l'l'anno", "l'ann"),
        ("Suc😀o", "suc 😀"),
        ("WAL𝐀I", "wal𝐀"),
        ("a", ""),
        ("d'église", "eglis"),
        ("gç𝐀ǅ’", "gç𝐀ǆ"),
        ("impadronirsene", "impadronirsen"),
        ("antti", "antti"),
        ("nozioni", "nozion"),
        ("ridotti", "ridott"),
        ("laurentii", "laurent"),
        ("bimbo", "bimbo"),
        ("giannini", "giannin"),
        ("notati", "notat"),
        ("giovanili", "giovanil"),
        ("terminare", "terminar"),
        ("ribaldo", "ribald"),
        ("smontando", "smontand"),
        ("dente", "dente"),
        ("lambiccarsi", "lambiccars"),
        ("decine", "decin"),
        ("insaccato", "insaccat"),
        ("wilson", "wilson"),
        ("karaoke", "karaok"),
        ("santino", "santin"),
        ("ricordare", "ricordar"),
        ("presentata", "presentat"),
        ("grinfie", "grinf"),
        ("datogli", "datogl"),
        ("trasformare", "trasformar"),
        ("tangentopoli", "tangentopol"),
        ("centomila", "centomil"),
        ("attesoché", "attesoc"),
        ("compresse", "compress"),
        ("dirla", "dirla"),
        ("divertire", "divertir"),
    ],
    "pt": [
        ("As canções dos pássaros", "canca passar"),
        ("ações nações pães", "acao naca pao"),
        ("papéis anéis fáceis", "papel anel facel"),
        ("lençóis espanhóis", "lencol espanhol"),
        ("homens bens jardins", "homem bem jardim"),
        ("rapidamente felizmente", "rapid feliz"),
        ("bonitinha portuguesa", "bonitinh portugues"),
        ("é à às", "é"),
        ("maçã coração", "maca coraca"),
        ("senhora leitora", "senhor leitor"),
        ("francesa pessoas", "frances pesso"),
        ("a", ""),
        ("afetivamente", "afetiv"),
        ("aires", "air"),
        ("amazonas", "amaza"),
        ("apavora", "apavor"),
        ("assis", "assil"),
        ("baixinha", "baixinh"),
        ("bens", "bem"),
        ("chinesa", "chines"),
        ("cães", "cao"),
        ("leais", "leal"),
        ("m𝐀arihuana", "m𝐀arihuan"),
        ("ágeis", "agel"),
        ("áßóis", "aßol"),
        ("ë𝐀a", "e𝐀a"),
        ("😀ulloa", "😀 ullo"),
        ("reeleição", "reeleica"),
        ("outra", "outr"),
        ("ferroviária", "ferroviari"),
        ("mantemos", "mantem"),
        ("apologia", "apologi"),
        ("estariam", "estariam"),
        ("esquerdistas", "esquerdist"),
        ("manipulava", "manipulav"),
        ("gotinhas", "gotinh"),
        ("interessada", "interessad"),
        ("cruéis", "cruel"),
        ("weg", "weg"),
        ("justificáveis", "justificavel"),
        ("simone", "simon"),
        ("vagão", "vaga"),
        ("acm", "acm"),
        ("ousado", "ousad"),
        ("piolho", "piolh"),
        ("bebia", "bebi"),
        ("oxalá", "oxala"),
        ("superfaturamento", "superfaturament"),
        ("iôs", "iôs"),
        ("probabilidade", "probabilidad"),
        ("defendem", "defendem"),
        ("puxaram", "puxaram"),
        ("multidão", "multida"),
        ("embicando", "embicand"),
        ("bastaria", "bastari"),
        ("desobediente", "desobedient"),
        ("fokker", "fokker"),
    ],
    "id": [
        ("Mereka sedang membaca buku-buku", "baca buku buku"),
        ("menyapu penyanyi pengajaran", "sapu sanyi ajar"),
        ("diberikan kepadanya", "beri"),
        ("bukunya rumahku milikmu", "buku rumah milik"),
        ("bacalah apakah siapapun", "baca"),
        ("pembelajaran belajar pelajaran", "ajar ajar lajar"),
        ("bekerja berlari", "kerja lari"),
        ("terbaik kebersihan", "baik bersih"),
        ("memperbaiki perbaikan", "baik bai"),
        ("MENYANYIKAN", "sanyi"),
        ("mempelajari", "ajar"),
        ("BEIO", "beio"),
        ("Menymea", "ymea"),
        ("a", "a"),
        ("acakan", "aca"),
        ("beberaa", "beraa"),
        ("bedengan", "bedeng"),
        ("diberlakukannya", "laku"),
        ("keperawanan", "awan"),
        ("mempelajari", "ajar"),
        ("mengei", "ei"),
        ("menpeouxi", "oux"),
        ("menyatkaan", "satkaan"),
        ("meua", "ua"),
        ("pembelajaran", "ajar"),
        ("penai", "tai"),
        ("penbelajarkan", "belajark"),
        ("pengea", "ea"),
        ("penypee", "pee"),
        ("penyue", "sue"),
        ("terii", "ii"),
        ("teurkulah", "teur"),
        ("😀essai", "😀 essa"),
        ("crowley", "crowley"),
        ("kosmis", "kosmis"),
        ("acquired", "acquired"),
        ("undulasi", "undulasi"),
        ("persia", "sia"),
        ("suntik", "suntik"),
        ("perobekan", "obe"),
        ("empatik", "empatik"),
        ("warfare", "warfare"),
        ("manca", "manca"),
        ("puser", "puser"),
        ("diagendakan", "agenda"),
        ("masukkan", "masuk"),
        ("terkuatnya", "kuat"),
        ("bicoloripennis", "bicoloripennis"),
        ("subscriber", "subscriber"),
        ("nigritarsis", "nigritarsis"),
        ("gaek", "gaek"),
        ("silakan", "sila"),
        ("oligonukleotida", "oligonukleotida"),
        ("masuki", "masuk"),
        ("muazin", "muazin"),
        ("diistirahatkan", "istirahat"),
        ("contained", "contained"),
        ("jaring", "jaring"),
        ("putihan", "putih"),
        ("dad", "dad"),
        ("menasihatkan", "asihat"),
        ("undatus", "undatus"),
        ("remained", "remained"),
    ],
}

CLASSES = {
    "de": "org.apache.lucene.analysis.de.GermanAnalyzer",
    "es": "org.apache.lucene.analysis.es.SpanishAnalyzer",
    "fr": "org.apache.lucene.analysis.fr.FrenchAnalyzer",
    "it": "org.apache.lucene.analysis.it.ItalianAnalyzer",
    "pt": "org.apache.lucene.analysis.pt.PortugueseAnalyzer",
    "id": "org.apache.lucene.analysis.id.IndonesianAnalyzer",
}


def analyze(language: str, texts: list[str]) -> list[list[str]]:
    """Each text's terms, through the chain as a BM25 encoder runs it: the tokens of the
    batch, their distinct values filtered once."""
    lucene = chain(language)
    text_index, tokens = lucene.tokenize(pa.array(texts, pa.string()))
    distinct = tokens.unique()
    term_of = dict(zip(distinct.to_pylist(), lucene.filter(distinct).to_pylist(), strict=True))
    out: list[list[str]] = [[] for _ in texts]
    for i, token in zip(text_index.tolist(), tokens.to_pylist(), strict=True):
        if term_of[token]:
            out[i].append(term_of[token])
    return out


def first_difference(texts, expected, got) -> tuple | None:
    return next(
        (
            (text, want, have)
            for text, want, have in zip(texts, expected, got, strict=True)
            if want != have
        ),
        None,
    )


@pytest.mark.parametrize("language", sorted(CASES))
def test_hand_cases_equal_lucenes(language):
    texts = [text for text, _ in CASES[language]]
    expected = [terms.split() for _, terms in CASES[language]]
    assert first_difference(texts, expected, analyze(language, texts)) is None


@pytest.mark.parametrize("language", sorted(CLASSES))
def test_real_text_equals_lucenes(language):
    """2,000 texts of the language; on a failure, the first differing one."""
    with gzip.open(DATA / f"{language}.tsv.gz", "rt", encoding="utf-8") as lines:
        rows = [[unescape(field) for field in line.rstrip("\n").split("\t")] for line in lines]
    texts, expected = [row[0] for row in rows], [row[1:] for row in rows]
    assert len(texts) == 2000
    assert first_difference(texts, expected, analyze(language, texts)) is None


@pytest.mark.parametrize("language", sorted(CLASSES))
def test_chains_map_to_this_module(language):
    entry = languages.LANGUAGES[language]
    assert entry.builder == "sparsebench.analysis.light.analyzer"
    assert languages.chain(language).language == language
    assert entry.lucene_class == CLASSES[language]
    assert entry.exact


def test_stopword_sets_are_lucenes():
    """The sizes of the analyzers' getDefaultStopSet() in Lucene 9.9.1."""
    sizes = {
        name: len(snowball_word_set(f"light/snowball/{name}_stop.txt"))
        for name in ("german", "spanish", "french", "italian", "portuguese")
    }
    assert sizes == {
        "german": 231, "spanish": 308, "french": 154, "italian": 279, "portuguese": 203
    }  # fmt: skip
    assert len(word_set("light/id/stopwords.txt")) == 355
    assert {"und", "über", "daß"} <= snowball_word_set("light/snowball/german_stop.txt")
    assert {"yang", "adalah"} <= word_set("light/id/stopwords.txt")


def test_elision_ignores_case_as_java_does():
    """CharArraySet ignores case by Character.toLowerCase: İ is i and the Kelvin sign k,
    but ſ (long s) is not s, though a case-insensitive regex takes it for one."""
    tokens = ["L'avion", "QUO\u0130QU\u2019il", "\u017f'il", "S'il", "x'y", "d'l'eau", "l'"]
    elided = elision(FRENCH_ARTICLES)(pa.array(tokens)).to_pylist()
    assert elided == ["avion", "il", "\u017f'il", "il", "x'y", "l'eau", ""]


def test_dropped_tokens_stay_dropped():
    """A stopword is "" after the StopFilter; no normaliser or stemmer revives it."""
    for language in CLASSES:
        assert chain(language).filter(pa.array(["", "und"])).to_pylist()[0] == ""


@pytest.mark.parametrize("token", ["", "abc", "𝐀", "a😀b𝐀", "ẞ\U0010ffff\uffff"])
def test_utf16_units_round_trip(token):
    units = to_units(token)
    assert len(units) == len(token.encode("utf-16-le")) // 2
    assert from_units(units) == token


def test_a_lone_surrogate_becomes_a_replacement_character():
    """As Lucene's UTF-16 to UTF-8 conversion of a term makes it."""
    assert from_units(to_units("a😀")[:-1]) == "a\ufffd"


def test_astral_characters_count_as_two_units():
    """SpanishLightStemmer leaves words of fewer than 5 units alone: "𝐀bos" has 4
    characters but 5 units, so it loses its -os as in Java (Lucene 9.9.1 gives 𝐀b, abos)."""
    assert chain("es").filter(pa.array(["𝐀bos", "abos"])).to_pylist() == ["𝐀b", "abos"]
