"""The BEIR suite as config entries: splits, self-hits, cqadupstack's forums averaged."""

from __future__ import annotations

import hashlib
import zipfile

import pandas as pd
import pytest
from conftest import TINY_DOCS, TINY_QRELS, TINY_QUERIES, prepare_entry, write_collection

from sparsebench.data.sources.beir import CQADUPSTACK_FORUMS
from sparsebench.evaluate.leaderboard import leaderboard_table
from sparsebench.workflow.config import validate_config

MODELS = {"bm25": {"kind": "bm25"}}


def test_splits_and_self_hits_follow_beir():
    config = validate_config(
        {
            "models": MODELS,
            "datasets": {
                "msmarco": {"source": "beir"},
                "scifact": {"source": "beir"},
                "arguana": {"source": "beir"},
                "nfc": {"source": "beir", "name": "nfcorpus", "split": "dev"},
            },
        }
    )
    datasets = config["datasets"]
    assert datasets["msmarco"]["split"] == "dev" and datasets["scifact"]["split"] == "test"
    assert datasets["nfc"]["split"] == "dev" and datasets["arguana"]["ignore_identical_ids"]


def test_beir_keeps_judgments_of_documents_its_archives_lack():
    """ArguAna's qrels judge a document its corpus lacks; BEIR's evaluation (and
    Anserini's, on the same qrels) counts it, so its published figures do."""
    config = validate_config(
        {
            "models": MODELS,
            "datasets": {
                "arguana": {"source": "beir"},
                "strict": {
                    "source": "beir",
                    "name": "arguana",
                    "unknown_judged_documents": "error",
                },
                "folder": {"source": "local", "path": "somewhere"},
            },
        }
    )
    policy = {n: d.get("unknown_judged_documents", "error") for n, d in config["datasets"].items()}
    assert policy == {"arguana": "keep", "strict": "error", "folder": "error"}


def test_cqadupstack_becomes_twelve_forums_averaged_into_one_column():
    config = validate_config(
        {
            "models": MODELS,
            "datasets": {"scifact": {"source": "beir"}, "cqadupstack": {"source": "beir"}},
        }
    )
    names = list(config["datasets"])
    assert names == ["scifact"] + [f"cqadupstack-{f}" for f in CQADUPSTACK_FORUMS]
    forum = config["datasets"]["cqadupstack-gis"]
    assert (forum["name"], forum["subset"], forum["group"]) == ("cqadupstack", "gis", "cqadupstack")
    long = pd.DataFrame(
        [("bm25", "scifact", "nDCG@10", 0.6)]
        + [
            ("bm25", f"cqadupstack-{f}", "nDCG@10", i / 100)
            for i, f in enumerate(CQADUPSTACK_FORUMS)
        ],
        columns=["model", "dataset", "metric", "value"],
    )
    groups = {n: e["group"] for n, e in config["datasets"].items() if e.get("group")}
    table = leaderboard_table(long, "nDCG@10", ["bm25"], names, groups)
    assert list(table.columns) == ["scifact", "cqadupstack", "average"]
    assert table.loc["bm25", "cqadupstack"] == pytest.approx(sum(range(12)) / 1200)
    assert table.loc["bm25", "average"] == pytest.approx((0.6 + sum(range(12)) / 1200) / 2)


def test_a_forum_is_read_from_its_folder_of_the_archive(tmp_path):
    archive = tmp_path / "cqadupstack.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for forum, docs in (("gis", TINY_DOCS[:4]), ("tex", TINY_DOCS[4:])):
            folder = write_collection(
                tmp_path / forum,
                docs,
                TINY_QUERIES,
                [r for r in TINY_QRELS if r[1] in {d for d, _, _ in docs}],
            )
            for path in folder.rglob("*"):
                if path.is_file():
                    z.write(path, f"cqadupstack/{forum}/{path.relative_to(folder).as_posix()}")
    md5 = hashlib.md5(archive.read_bytes()).hexdigest()  # not BEIR's: say which it is
    entry = {"source": "beir", "name": "cqadupstack", "subset": "tex", "split": "test", "md5": md5}
    summary = prepare_entry(entry, tmp_path / "out", "cqadupstack-tex", archive=archive)
    assert summary["n_docs"] == 4 and summary["source"]["subset"] == "tex"
