"""The leaderboard's files: the primary metric, with Judged@10 beside it."""

from __future__ import annotations

import pandas as pd
import pytest

from sparsebench.evaluate import leaderboard as board
from sparsebench.evaluate.reproduction import measured_from_leaderboard


def long_metrics() -> pd.DataFrame:
    rows = [
        ("bm25", "scifact", "nDCG@10", 0.665),
        ("bm25", "nfcorpus", "nDCG@10", 0.325),
        ("splade", "scifact", "nDCG@10", 0.690),
        ("splade", "nfcorpus", "nDCG@10", 0.334),
        ("bm25", "scifact", "Judged@10", 0.95),
        ("bm25", "nfcorpus", "Judged@10", 0.50),
        ("splade", "scifact", "Judged@10", 0.70),  # below 0.8 x 0.95
        ("splade", "nfcorpus", "Judged@10", 0.45),  # 0.9 x 0.50: not flagged
    ]
    return pd.DataFrame(rows, columns=["model", "dataset", "metric", "value"])


def test_judged_at_10_stands_beside_the_primary_metric(tmp_path):
    out = {name: tmp_path / name for name in ("board.tsv", "long.tsv", "board.md")}
    table = board.write_leaderboard(
        long_metrics(),
        "nDCG@10",
        ["bm25", "splade"],
        ["scifact", "nfcorpus"],
        out["board.tsv"],
        out["long.tsv"],
        out["board.md"],
        ["test"],
    )
    assert list(table.columns) == ["scifact", "nfcorpus", "average"]
    written = pd.read_csv(out["board.tsv"], sep="\t", index_col="model", keep_default_na=False)
    assert written.at["splade", "judged@10:scifact"] == pytest.approx(0.70)
    assert written.at["bm25", "judged@10:nfcorpus"] == pytest.approx(0.50)
    assert board.score_columns(written.columns) == ["scifact", "nfcorpus", "average"]
    measured = measured_from_leaderboard(written, "nDCG@10")
    assert sorted(measured["dataset"].unique()) == ["nfcorpus", "scifact"]
    text = out["board.md"].read_text()
    assert "## Judged@10" in text and "| splade | 0.700 | 0.450 | 0.575 |" in text


def test_a_model_far_less_judged_than_the_baseline_is_flagged():
    judged = board.judged_table(long_metrics(), ["bm25", "splade"], ["scifact", "nfcorpus"])
    notes = board.low_judged_notes(judged, "bm25", "nDCG@10")
    assert len(notes) == 1
    assert notes[0].startswith("LOW JUDGED: splade on scifact: Judged@10 0.700, below 0.8 x")
    assert board.low_judged_notes(judged, "not-a-model", "nDCG@10") == []
    without = long_metrics().query("metric != 'Judged@10'")
    assert board.judged_table(without, ["bm25"], ["scifact"]) is None


def test_the_optimistic_end_stands_beside_a_low_judged_score(tmp_path):
    """optimistic:{dataset} columns hold the score with unjudged documents relevant; the
    markdown gives the band where Judged@10 is low (splade on scifact), nowhere else."""
    upper = [
        ("bm25", "scifact", "nDCG(unjudged=relevant)@10", 0.670),
        ("bm25", "nfcorpus", "nDCG(unjudged=relevant)@10", 0.600),
        ("splade", "scifact", "nDCG(unjudged=relevant)@10", 0.810),
        ("splade", "nfcorpus", "nDCG(unjudged=relevant)@10", 0.640),
    ]
    long = pd.concat(
        [long_metrics(), pd.DataFrame(upper, columns=["model", "dataset", "metric", "value"])]
    )
    out = {name: tmp_path / name for name in ("board.tsv", "long.tsv", "board.md")}
    files = (out["board.tsv"], out["long.tsv"], out["board.md"])
    models, datasets = ["bm25", "splade"], ["scifact", "nfcorpus"]
    board.write_leaderboard(long, "nDCG@10", models, datasets, *files, ["t"])
    written = pd.read_csv(out["board.tsv"], sep="\t", index_col="model", keep_default_na=False)
    assert written.at["splade", "optimistic:scifact"] == pytest.approx(0.81)
    assert board.score_columns(written.columns) == ["scifact", "nfcorpus", "average"]
    text = out["board.md"].read_text()
    band = "| splade | 0.700 (nDCG@10 0.6900-0.8100) | 0.450 | 0.575 (nDCG@10 0.5120-0.7250) |"
    assert band in text
    assert "| bm25 | 0.950 | 0.500 | 0.725 |" in text
