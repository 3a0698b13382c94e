"""A stand-in for MIRACL's two hub repositories in all 18 languages, laid out as
miracl/miracl-corpus and miracl/miracl are (data files, loading scripts, READMEs), small
enough for a test: each language's documents are real texts of that language (the
analyzer references of tests/analysis/data, ADI for English, a few sentences for Swahili
and Yoruba), its dev queries the opening words of some of them, each judged relevant to
its document and non-relevant to the next."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from conftest import REPO, SHARED

from sparsebench.data.miracl import MIRACL_SPLITS

LANGUAGES = list(MIRACL_SPLITS)  # all 18
DOCUMENTS = 24
QUERIES = 8
_SENTENCES = {
    "sw": [
        "Jua ni nyota inayoangaza dunia kila siku",
        "Mwezi huzunguka dunia na kusababisha maji kujaa na kupwa",
        "Mkate hutengenezwa kwa unga maji na chachu",
        "Simba huishi katika mbuga za Afrika Mashariki",
        "Mvua nyingi hunyesha katika msimu wa masika",
        "Kiswahili ni lugha inayozungumzwa Afrika Mashariki",
    ],
    "yo": [
        "Oorun jẹ irawọ ti o tan imọlẹ si aye",
        "Oṣupa n yi aye ka o si n fa omi okun",
        "A n ṣe akara pẹlu iyẹfun omi ati iwukara",
        "Kiniun n gbe ninu igbo nla Afirika",
        "Ojo pupọ n rọ ni akoko ojo",
        "Ede Yoruba ni a n sọ ni iwọ oorun Afirika",
    ],
}


def _texts(language: str) -> list[str]:
    if language == "en":
        lines = (SHARED / "data" / "adi" / "corpus.jsonl").read_text().splitlines()
        return [json.loads(line)["text"] for line in lines[:DOCUMENTS]]
    if language in _SENTENCES:
        base = _SENTENCES[language]
        return [f"{base[i % len(base)]} {base[(i + 1) % len(base)]} {i}" for i in range(DOCUMENTS)]
    data = REPO / "tests" / "analysis" / "data" / f"{language}.tsv.gz"
    with gzip.open(data, "rt", encoding="utf-8") as lines:
        texts = [line.split("\t", 1)[0] for line in lines if len(line.split("\t")) > 4]
    return texts[:DOCUMENTS]


def _query(text: str) -> str:
    words = text.split()
    return " ".join(words[:3]) if len(words) >= 3 else text[:8]


def build_miracl_hub(root: Path) -> Path:
    """root/miracl/miracl-corpus and root/miracl/miracl for every language -> root."""
    corpus = root / "miracl" / "miracl-corpus"
    topics = root / "miracl" / "miracl"
    for language in LANGUAGES:
        texts = _texts(language)
        folder = corpus / f"miracl-corpus-v1.0-{language}"
        folder.mkdir(parents=True)
        with gzip.open(folder / "docs-0.jsonl.gz", "wt", encoding="utf-8") as out:
            for i, text in enumerate(texts):
                record = {"docid": f"{i}#0", "title": f"{language} {i}", "text": text}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
        prefix = f"miracl-v1.0-{language}"
        for sub in ("topics", "qrels"):
            (topics / prefix / sub).mkdir(parents=True)
        chosen = range(0, len(texts) - 1, max(1, len(texts) // QUERIES))
        (topics / prefix / "topics" / f"topics.{prefix}-dev.tsv").write_text(
            "".join(f"{q}\t{_query(texts[q])}\n" for q in chosen), encoding="utf-8"
        )
        (topics / prefix / "qrels" / f"qrels.{prefix}-dev.tsv").write_text(
            "".join(f"{q}\tQ0\t{q}#0\t1\n{q}\tQ0\t{q + 1}#0\t0\n" for q in chosen)
        )
    for repo, script in ((corpus, "miracl-corpus.py"), (topics, "miracl.py")):
        (repo / script).write_text("# the repository's loading script (never run)\n")
        (repo / "README.md").write_text(f"---\nlicense: apache-2.0\n---\n# {repo.name}\n")
    return root
