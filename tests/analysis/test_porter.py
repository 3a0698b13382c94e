"""Lucene's Porter stemmer: word/stem pairs produced by Lucene 9.9.1's PorterStemFilter
(the Anserini 1.7.1 jar), curated from 383,504 words on which the port and Java agree:
every rule of every step, the words where Lucene's stemmer and Snowball's 'porter'
differ, words of one or two letters, and tokens with digits, punctuation, non-ASCII
and non-BMP characters."""

from __future__ import annotations

import pyarrow as pa
import pytest
import Stemmer

from sparsebench.analysis.en.porter import PorterStemmer, stem

# Words of one or two characters are left alone (Snowball strips "s": us -> u, is -> i).
SHORT = """
as as   ay ay   bs bs   cs cs   ds ds   es es   ey ey   fs fs   gs gs   hs hs   is is
iy iy   js js   ks ks   ls ls   ms ms   ns ns   os os   oy oy   ps ps   qs qs   rs rs   s s
ts ts   us us   uy uy   vs vs   ws ws   xs xs   ys ys   zs zs   a a   xx xx   ed ed   by by
"""

# Where Snowball's 'porter' (PyStemmer) differs: logi -> log, bli -> ble (Snowball has
# abli -> able), any double consonant but l, s, z undoubled after -ed/-ing.
DIFFERS_FROM_SNOWBALL = """
ecology ecolog   pathology patholog   addassembly addassembl   analogy analog
anthologies antholog   anthology antholog   apologies apolog   assemblies assembl
assembly assembl   autospecced autospec   autospeccing autospec   cohomology cohomolog
cryptology cryptolog   dependentassembly dependentassembl   disassembly disassembl
flexibly flexibl   forcibly forcibl   haxxed hax   homology homolog   horribly horribl
imagemorphology imagemorpholog   macrology macrolog   mdlsubmeshtopology mdlsubmeshtopolog
mekking mek   ontology ontolog   outputtopology outputtopolog   possibly possibl
psychology psycholog   reproducibly reproduc   semilogy semilog   sensibly sensibl
specced spec   synology synolog   technologies technolog   technology technolog
terminologies terminolog   terminology terminolog   topology topolog
torictopology torictopolog   vcatechnology vcatechnolog   webassembly webassembl
archaeology archaeolog
"""

# One or two words for each suffix test, replacement and cut of steps 1-6 (chosen by
# tracing the port over the word lists).
RULES = """
keepfiles keepfil   glbindtexture glbindtextur   xsdfractiondigits xsdfractiondigit
avplayeritemaccesslogevent avplayeritemaccesslogev   nullprovider nullprovid
tentative tent   technically technic   timmy timmi   modelspecification modelspecif
unintentionally unintention   asics asic   typically typic
positionalbindfailover positionalbindfailov   kerxcontrolpointaction kerxcontrolpointact
submission submiss   cnmonolinethickness cnmonolinethick   hopefulness hope   goodness good
skbitmapprocstate skbitmapprocst   animations anim   preloading preload
triplestring triplestr   codespeed codespe   reed reed   shuffleable shuffleabl
nonspaceable nonspac   covariance covari   enscaninstance enscaninst   mordred mordr
marshaled marshal   ability abil   doubly doubli   mutability mutabl   sparsity sparsiti
dedications dedic   sharing share   yiming yime   rawequal rawequ   ppval ppval
texsize texsiz   reorganize reorgan   reversible revers
booleanliteralconvertible booleanliteralconvert   implement implement   agreement agreement
georgiou georgiou   bprevious bpreviou   calculated calcul   bloated bloat
versionized version   serialized serial   usefulness us   handful hand
generalization gener   multiprojectivevarieties multiprojectivevarieti   replies repli
parallelism parallel   homomorphism homomorph   metaclasses metaclass   guesses guess
relevant relev   mant mant   llogis llogi   swlogis swlogi   responsibility respons
relatively rel   stridethroughgenerator stridethroughgener
randomaccessiterator randomaccessiter   patience patienc
candidatepreferences candidateprefer   lblabelfontquality lblabelfontqu
tiyaxisfontquality tiyaxisfontqu   macauthorization macauthor   appropriately appropri
extensive extens   primcorecursive primcorecurs   augment augment   gssegments gssegment
buoyancy buoyanc   vacancy vacanc   additional addit   proportional proport
anonymously anonym   seriously serious
entityrotationgesturerecognizer entityrotationgesturerecogn   idealizer ideal   sibling sibl
addprevsibling addprevs   concurrency concurr   agencies agenc   consistently consist
prominently promin   helicity helic   electriciti electr   organizational organiz
operational oper   showactivity showact   resistivity resist   probably probabl
effectiveness effect   ineffectiveness ineffect   freely freeli   felis feli
idealisms ideal   feudalism feudal   rationals ration   nationals nation   nancy nanci
gfrancis gfranci   fsful fsful   ness ness   kwallis kwalli   tallying talli   rical rical
ical ical   sizer sizer   realize realiz   realizing realiz   gently gentli
callousness callous   trivitiing triviti   tryfulness tryful   yousness yous
btional btional   sky sky   skies ski   ties ti   caresses caress   ponies poni   cats cat
feed feed   agreed agre   plastered plaster   bled bled   motoring motor   sing sing
conflated conflat   troubled troubl   sized size   hopping hop   tanned tan   falling fall
hissing hiss   fizzed fizz   failing fail   filing file   happy happi   relational relat
conditional condit   rational ration   valenci valenc   hesitanci hesit   digitizer digit
conformabli conform   radicalli radic   differentli differ   vileli vile
analogousli analog   vietnamization vietnam   predication predic   operator oper
decisiveness decis   formaliti formal   sensitiviti sensit   sensibiliti sensibl
triplicate triplic   formative form   formalize formal   electrical electr   hopeful hope
revival reviv   allowance allow   inference infer   airliner airlin   gyroscopic gyroscop
adjustable adjust   defensible defens   irritant irrit   replacement replac
adjustment adjust   dependent depend   adoption adopt   homologou homolog   communism commun
activate activ   angulariti angular   homologous homolog   effective effect
bowdlerize bowdler   probate probat   rate rate   cease ceas   controll control   roll roll
generalizations gener   oscillators oscil   possible possibl   strasse strass   ing ing
eed eed   ying ying   yyy yyi   boys boi   enjoying enjoi   canning can   ization izat
ement ement   ion ion   sion sion   tion tion
"""

# Tokens of the English analyzer that are not plain lowercase words: every character
# but a, e, i, o, u (and y after a consonant) is a consonant; Java counts UTF-16 units,
# so a character beyond the BMP is two consonants ("𝑥s" has three units and loses its s;
# the two halves of "𝑥𝑥" are not a double consonant).
OTHER = """
'sencis 'senci   u.s u.   i.e i.   node.js node.j   naïve naïv   café café
maßnahme maßnahm   1,000s 1,000   3.14 3.14   x_y x_y   _foo_ _foo_
𝑥𝑥ing 𝑥𝑥ing   a𝑥 a𝑥   𝑥s 𝑥   𝑥ies 𝑥i   b𝑥ed b𝑥ed   ha𝑥𝑥ed ha𝑥𝑥   ééing ééing
naïvety naïveti
"""


def pairs(table: str) -> list[tuple[str, str]]:
    words = table.split()
    return list(zip(words[0::2], words[1::2], strict=True))


ALL = [p for table in (SHORT, DIFFERS_FROM_SNOWBALL, RULES, OTHER) for p in pairs(table)]


def test_stems_equal_lucene():
    assert len(ALL) > 300
    wrong = [(word, stem(word), lucene) for word, lucene in ALL if stem(word) != lucene]
    assert wrong == []


def test_batch_interface_and_cache_give_the_same_stems():
    words = [w for w, _ in ALL]
    expected = [s for _, s in ALL]
    stemmer = PorterStemmer()
    assert stemmer.stemWords(words) == expected
    assert stemmer.stemWords(words) == expected  # from the cache
    assert stemmer.stem_array(pa.array(words)).to_pylist() == expected
    assert stemmer.stemWord("technology") == "technolog"


def test_the_differences_from_snowball_are_real():
    snowball = Stemmer.Stemmer("porter")
    for word, lucene in pairs(DIFFERS_FROM_SNOWBALL) + [("us", "us"), ("s", "s")]:
        assert snowball.stemWord(word) != lucene, word


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("technology", "technolog"),
        ("possibly", "possibl"),
        ("possible", "possibl"),
        ("us", "us"),
        ("s", "s"),
        ("caresses", "caress"),
        ("ponies", "poni"),
        ("generalizations", "gener"),
        ("oscillators", "oscil"),
        ("hopping", "hop"),
        ("falling", "fall"),
        ("hissing", "hiss"),
        ("fizzed", "fizz"),
        ("u.s", "u."),
        ("", ""),
    ],
)
def test_well_known_stems(word, expected):
    assert stem(word) == expected
