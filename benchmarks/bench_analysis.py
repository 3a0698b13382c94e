"""BM25 analysis speed, two comparisons in one script.

`--mode languages` (the default): each language's Lucene analyzer against the English
one on the same documents. Each language's documents are built from the Debian
translation catalogues installed on the machine (/usr/share/locale/*/LC_MESSAGES: GTK,
GLib, PAM, AT-SPI, shared-mime-info, ...): the messages a language translates, each
document --messages-per-document of them drawn at random (seeded); the English side is
the same documents made of the same messages' English originals (their msgids). So
"documents per second" carries the same content in both, and the ratio is the
language's speed relative to English's. Each measurement is a process of its own (cold
caches, as a fresh encode job), the analyzer built and its data loaded before the clock
starts, the language's and English's runs interleaved, best of --repeat.

`--mode baseline`: the English analyzer now (sparsebench.analysis.analyzer) against the
analysis module of another commit (--baseline-commit, HEAD by default), in one run.

Each analyzer runs as the encode stage runs it (TermCountEncoder: analyze_batch over
batches of 20,000 texts), in its own process (peak RSS is per process), best of
--repeat runs; the new analyzer's caches (Porter stems, DFA runs) are emptied before
each run, so every run starts cold as a fresh encode job does. Texts are
(title + " " + text).strip(), as prepare builds them.

Collections: BEIR SciFact (shared/data/beir-scifact); the same with a character that only
the DFA handles glued to 5% of the words (the new tokenizer's slow path); and all nine
shared collections concatenated --copies times (a larger set; the copies repeat the
vocabulary, which favours both analyzers' stem caches alike).

With --anserini-jar (Anserini's fatjar, e.g. the one in Pyserini's wheel) and --java (a
JDK's java, javac beside it), the table gains Lucene's own analyzers on the same
documents, in a JVM (LuceneAnalysisSpeed.java): each language's documents/s, English's,
and their ratio (and the terms Lucene counts, to set beside sparsebench's), the best of
--repeat runs after two that warm the JIT (so Lucene is measured warm, sparsebench
cold). Documents go to Lucene as they are, separated by NUL characters.

    python benchmarks/bench_analysis.py                       # every language against English
    python benchmarks/bench_analysis.py --java /usr/lib/jvm/jdk-21/bin/java \
        --anserini-jar anserini-1.7.1-fatjar.jar                # and Lucene's own
    python benchmarks/bench_analysis.py --languages ja zh --repeat 3
    python benchmarks/bench_analysis.py --mode baseline --copies 2 --baseline-commit 72ea4db
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_metrics import machine, peak_rss_mb  # noqa: E402

ROOT = HERE.parent
SHARED = ROOT.parent / "shared" / "data"
BATCH = 20_000  # TermCountEncoder.batch_size


def read_texts(paths: list[Path], copies: int = 1) -> list[str]:
    texts = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                doc = json.loads(line)
                texts.append(f"{doc.get('title') or ''} {doc.get('text') or ''}".strip())
    return texts * copies


def collection(name: str, copies: int) -> list[str]:
    if name == "scifact":
        return read_texts([SHARED / "beir-scifact" / "corpus.jsonl"])
    if name == "mixed":
        return mixed(read_texts([SHARED / "beir-scifact" / "corpus.jsonl"]))
    return read_texts(sorted(SHARED.glob("*/corpus.jsonl")), copies)


def mixed(texts: list[str], share: float = 0.05, seed: int = 0) -> list[str]:
    """The texts with a character that only the DFA handles (an emoji, ©, a combining
    accent, an ideograph, a Hebrew letter, an Arabic digit, a soft hyphen) glued to 5% of
    the words: the DFA's worst case is much text outside the ten ASCII classes."""
    rng = np.random.default_rng(seed)
    pool = ["\U0001f600", "\u00a9", "\u0301", "\u4e2d", "\u05d0", "\u0661", "\u00ad"]
    out = []
    for text in texts:
        words = text.split(" ")
        for i in np.flatnonzero(rng.random(len(words)) < share):
            words[i] += pool[rng.integers(len(pool))]
        out.append(" ".join(words))
    return out


def old_analyzer_module(commit: str, folder: Path):
    """The analysis module of `commit` (sparsebench/analysis/analyzer.py), imported as a
    module of its own."""
    where = "sparsebench/analysis/analyzer.py"
    shown = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:{where}"], capture_output=True, text=True
    )
    if shown.returncode != 0:
        raise SystemExit(f"commit {commit} has no {where}")
    source = shown.stdout
    path = folder / "old_analysis.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_analysis", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_analysis"] = module  # dataclasses look the module up
    spec.loader.exec_module(module)
    return module


def dfa_share(texts: list[str]) -> float:
    """The share of the characters that the new tokenizer leaves to the DFA: runs
    between separators holding a character outside the ten classes of ASCII."""
    from sparsebench.analysis import standard_tokenizer as lt
    from sparsebench.core.strings import string_buffers

    offsets, data = string_buffers(pa.array(texts, pa.string()))
    position = np.flatnonzero((data & 0xC0) != 0x80)
    classes = lt.character_classes(lt._decode_utf8(data, position))
    text_start = np.searchsorted(position, offsets[:-1])
    starts, ends = lt._runs(classes != lt._SEPARATOR, np.unique(text_start))
    dfa = (classes >= lt._N_SIMPLE) & ~lt._IS_ATTACHED[classes]
    complex_before = np.concatenate([[0], np.cumsum(dfa)])
    complex_run = complex_before[ends] > complex_before[starts]
    return float((ends - starts)[complex_run].sum() / max(len(classes), 1))


# Language -> its folder under /usr/share/locale.
LOCALE_FOLDERS = {"no": "nb", "zh": "zh_CN"}
CATALOGUES = (
    "gtk20", "glib20", "Linux-PAM", "at-spi2-core", "gdk-pixbuf", "gtk20-properties",
    "shared-mime-info", "xdg-user-dirs", "PackageKit", "software-properties",
)  # fmt: skip
LOCALES = Path("/usr/share/locale")


def translated_messages(language: str) -> list[tuple[str, str]]:
    """(English original, translation) of every message the catalogues translate into
    `language`, in a fixed order."""
    import gettext

    pairs = {}
    for catalogue in CATALOGUES:
        folder = LOCALE_FOLDERS.get(language, language)
        path = LOCALES / folder / "LC_MESSAGES" / f"{catalogue}.mo"
        if not path.exists():
            continue
        with open(path, "rb") as handle:
            translations = gettext.GNUTranslations(handle)
        for original, translated in translations._catalog.items():
            if isinstance(original, str) and original and translated and translated != original:
                pairs[original] = translated
    return sorted(pairs.items())


def parallel_documents(language: str, n_docs: int, per_doc: int) -> tuple[list[str], list[str]]:
    """`n_docs` documents of `per_doc` random messages each: in `language`, and the same
    documents in English."""
    pairs = translated_messages(language)
    if not pairs:
        raise SystemExit(f"no translation catalogues for {language!r} under {LOCALES}")
    picks = np.random.default_rng(0).integers(len(pairs), size=(n_docs, per_doc))
    english = [" ".join(pairs[i][0] for i in row) for row in picks]
    translated = [" ".join(pairs[i][1] for i in row) for row in picks]
    return translated, english


def language_child(language: str, side: str, n_docs: int, per_doc: int, out: str) -> None:
    """Time one analyzer over one language's documents (or their English originals)."""
    from sparsebench.analysis.analyzer import Analyzer

    translated, english = parallel_documents(language, n_docs, per_doc)
    texts = english if side == "en" else translated
    analyzer = Analyzer(lucene=side)
    analyzer.analyze_batch(["\u2205"])  # data loaded, caches still cold for real words
    array = pa.array(texts, pa.string())
    start = time.perf_counter()
    n_tokens = 0
    for first in range(0, len(array), BATCH):
        n_tokens += len(analyzer.analyze_batch(array.slice(first, BATCH)).term_ids)
    seconds = time.perf_counter() - start
    Path(out).write_text(
        json.dumps(
            {
                "seconds": seconds,
                "docs": len(texts),
                "characters": sum(map(len, texts)),
                "tokens": n_tokens,
                "peak_rss_mb": peak_rss_mb(),
            }
        )
    )


class LuceneReference:
    """Lucene's own analyzers (Anserini's choice per language) timed in a JVM over the
    same documents (LuceneAnalysisSpeed.java, compiled into `folder`)."""

    def __init__(self, java: Path, jar: Path, folder: Path) -> None:
        javac = java.with_name("javac")
        source = HERE / "LuceneAnalysisSpeed.java"
        subprocess.run([str(javac), "-cp", str(jar), "-d", str(folder), str(source)], check=True)
        self.java, self.class_path, self.folder = java, f"{jar}:{folder}", folder
        self.java_version = "?"  # the JVM's, from its first measurement

    def documents_per_second(self, language: str, texts: list[str], repeat: int) -> dict:
        """Lucene's analyzer of `language` ("en": Anserini's DefaultEnglishAnalyzer)."""
        from sparsebench.analysis.languages import ANSERINI_ANALYZERS

        path = self.folder / f"{language}.txt"
        path.write_text("\0".join(texts), encoding="utf-8")
        name = "en" if language == "en" else ANSERINI_ANALYZERS[language]
        shown = subprocess.run(
            [str(self.java), "-cp", self.class_path, "LuceneAnalysisSpeed", name]
            + [str(path), str(repeat)],
            check=True,
            capture_output=True,
            text=True,
        )
        result = json.loads(shown.stdout)
        self.java_version = result["java"]
        return {**result, "documents_per_second": result["docs"] / result["seconds"]}


def compare_languages(
    languages: list[str],
    n_docs: int,
    per_doc: int,
    repeat: int,
    lucene: tuple[Path, Path] | None = None,
) -> None:
    """The per-language table: each language's documents/s against English's on the
    same documents (and Lucene's, given a JVM and Anserini's jar)."""
    print(f"Machine: {machine(('pyarrow', 'PyStemmer'))}")
    print(f"{n_docs:,} documents of {per_doc} messages per language; best of {repeat}")
    columns = "| language | analyzer | messages | characters | terms | documents/s "
    columns += "| English documents/s | language / English |"
    rule = "|---|---|---:|---:|---:|---:|---:|---:|"
    if lucene:
        columns += " Lucene terms | Lucene documents/s | Lucene English documents/s"
        columns += " | Lucene's ratio |"
        rule += "---:|---:|---:|---:|"
    from sparsebench.analysis.languages import analyzer_name

    with tempfile.TemporaryDirectory() as tmp:
        reference = LuceneReference(*lucene, Path(tmp)) if lucene else None
        print()
        print(columns)
        print(rule)
        for language in languages:
            best = {}
            for attempt in range(repeat):
                for side in (language, "en"):
                    out = str(Path(tmp) / f"{language}-{side}-{attempt}.json")
                    subprocess.run(
                        [sys.executable, __file__, "--language-child", language, side]
                        + [str(n_docs), str(per_doc), out],
                        check=True,
                    )
                    result = json.loads(Path(out).read_text())
                    if side not in best or result["seconds"] < best[side]["seconds"]:
                        best[side] = result
            ours, english = best[language], best["en"]
            row = (
                f"| {language} | {analyzer_name(language)} "
                f"| {len(translated_messages(language)):,} | {ours['characters']:,} "
                f"| {ours['tokens']:,} | {ours['docs'] / ours['seconds']:,.0f} "
                f"| {english['docs'] / english['seconds']:,.0f} "
                f"| {english['seconds'] / ours['seconds']:.2f} |"
            )
            if reference:
                translated, originals = parallel_documents(language, n_docs, per_doc)
                theirs = reference.documents_per_second(language, translated, repeat)
                theirs_en = reference.documents_per_second("en", originals, repeat)
                row += (
                    f" {theirs['tokens']:,} | {theirs['documents_per_second']:,.0f}"
                    f" | {theirs_en['documents_per_second']:,.0f}"
                    f" | {theirs['documents_per_second'] / theirs_en['documents_per_second']:.2f} |"
                )
            print(row, flush=True)
        if reference:
            print(f"\nLucene: {lucene[1].name} on Java {reference.java_version}, warm (see above)")


def child(impl: str, name: str, copies: int, repeat: int, commit: str, out: str) -> None:
    texts = collection(name, copies)
    array = pa.array(texts, pa.string())
    with tempfile.TemporaryDirectory() as folder:
        if impl == "old":
            module = old_analyzer_module(commit, Path(folder))
        else:
            from sparsebench.analysis import analyzer as module
        analyzer = module.Analyzer()
        best = float("inf")
        for _ in range(repeat):
            if impl == "new":
                from sparsebench.analysis import standard_tokenizer as lucene_tokenizer
                from sparsebench.analysis.en import porter as lucene_porter

                lucene_porter.PorterStemmer._cache.clear()
                lucene_tokenizer._short_run_spans.cache_clear()
            start = time.perf_counter()
            n_tokens = 0
            terms = []
            for first in range(0, len(array), BATCH):
                batch = analyzer.analyze_batch(array.slice(first, BATCH))
                n_tokens += len(batch.term_ids)
                terms.append(batch)
            best = min(best, time.perf_counter() - start)
    # Term lists per document, to count the documents on which the analyzers differ.
    digests = []
    for batch in terms:
        words = batch.terms.take(pa.array(batch.term_ids)).to_numpy(zero_copy_only=False)
        split = np.searchsorted(batch.text_index, np.arange(1, batch.n_texts))
        digests += [
            hashlib.md5("\n".join(part).encode()).hexdigest() for part in np.split(words, split)
        ]
    Path(out).write_text(
        json.dumps(
            {
                "seconds": best,
                "docs": len(texts),
                "megabytes": sum(len(t.encode()) for t in texts) / 1e6,
                "tokens": n_tokens,
                "digests": digests,
                "peak_rss_mb": peak_rss_mb(),
            }
        )
    )


def main() -> None:
    from sparsebench.analysis.languages import PORTED

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mode", choices=("languages", "baseline"), default="languages")
    parser.add_argument("--languages", nargs="+", help="default: every ported language")
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--messages-per-document", type=int, default=10)
    parser.add_argument("--copies", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline-commit", default="HEAD")
    parser.add_argument("--java", type=Path, help="a JDK's java, for Lucene's columns")
    parser.add_argument("--anserini-jar", type=Path, help="Anserini's fatjar")
    parser.add_argument("--child", nargs=6)
    parser.add_argument("--language-child", nargs=5)
    args = parser.parse_args()
    if args.child:
        impl, name, copies, repeat, commit, out = args.child
        child(impl, name, int(copies), int(repeat), commit, out)
        return
    if args.language_child:
        language, side, n_docs, per_doc, out = args.language_child
        language_child(language, side, int(n_docs), int(per_doc), out)
        return
    if args.mode == "languages":
        catalogued = [
            code
            for code in sorted(PORTED)
            if code != "en" and (LOCALES / LOCALE_FOLDERS.get(code, code)).is_dir()
        ]
        languages = args.languages or [c for c in catalogued if translated_messages(c)]
        if bool(args.java) != bool(args.anserini_jar):
            raise SystemExit("--java and --anserini-jar go together")
        lucene = (args.java, args.anserini_jar) if args.java else None
        compare_languages(
            languages, args.documents, args.messages_per_document, args.repeat, lucene
        )
        return
    print(f"Machine: {machine(('pyarrow', 'PyStemmer'))}")
    print()
    header = "| collection | documents | MB | analyzer | seconds | documents/s | MB/s | tokens |"
    print(header + " peak RSS (MiB) |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|")
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("scifact", "mixed", "all9"):
            results = {}
            for impl in ("old", "new"):
                out = str(Path(tmp) / f"{name}-{impl}.json")
                subprocess.run(
                    [sys.executable, __file__, "--child", impl, name, str(args.copies)]
                    + [str(args.repeat), args.baseline_commit, out],
                    check=True,
                )
                r = results[impl] = json.loads(Path(out).read_text())
                label = f"{name} x{args.copies}" if name == "all9" else name
                print(
                    f"| {label} | {r['docs']:,} | {r['megabytes']:.1f} | {impl} "
                    f"| {r['seconds']:.2f} | {r['docs'] / r['seconds']:,.0f} "
                    f"| {r['megabytes'] / r['seconds']:.1f} | {r['tokens']:,} "
                    f"| {r['peak_rss_mb']:.0f} |"
                )
            old, new = results["old"], results["new"]
            differ = sum(a != b for a, b in zip(old["digests"], new["digests"], strict=True))
            share = dfa_share(collection(name, 1))
            summary.append(
                f"{name}: new/old speed {old['seconds'] / new['seconds']:.2f}x; "
                f"characters left to the DFA {share:.4%}; "
                f"documents whose terms differ {differ:,} of {old['docs']:,} "
                f"({differ / old['docs']:.1%})"
            )
    print()
    for line in summary:
        print(line)


if __name__ == "__main__":
    main()
