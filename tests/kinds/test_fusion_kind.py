"""The fusion kind's entries: weights swept as any parameter, bad fusions refused when the
config is read, fusions planned only where every member has a run, and a sweep chosen on
a training split running its members there."""

from __future__ import annotations

import pytest

from sparsebench.core.errors import ConfigError
from sparsebench.kinds.registry import kind_of
from sparsebench.workflow.config import validate_config
from sparsebench.workflow.plan import Plan

MINIMAL = {
    "datasets": {"d": {"source": "builtin", "name": "minibeir"}},
    "models": {"bm25": {"kind": "bm25"}},
}


FUSED = {
    "bm25": {"kind": "bm25"},
    "qld": {"kind": "qld"},
    "outside": {"kind": "run", "path": "runs/{dataset}.trec"},
}


def test_a_fusion_sweep_over_weights_makes_one_variant_per_point():
    models = {
        **FUSED,
        "mix": {
            "kind": "fusion",
            "runs": ["bm25", "qld"],
            "method": "wsum",
            "weights": {"bm25": {"grid": [0.2, 0.8]}, "qld": 0.5},
            "tune": {"method": "cv"},
        },
    }
    resolved = validate_config({**MINIMAL, "models": models})["models"]
    assert resolved["mix"]["kind"] == "tuned"
    assert resolved["mix"]["base"]["weights"] == {"qld": 0.5}
    assert resolved["mix"]["sweep"]["parameters"] == {"weights.bm25": [0.2, 0.8]}
    assert resolved["mix+weights.bm25_0.8"]["weights"] == {"qld": 0.5, "bm25": 0.8}
    assert resolved["mix+weights.bm25_0.8"]["variant_of"] == "mix"


@pytest.mark.parametrize(
    ("fusion", "message"),
    [
        ({"runs": ["bm25", "dense"]}, r"config.models.f.runs: \['dense'\] are not models"),
        ({"runs": ["bm25", "f"]}, r"config.models.f.runs: the fusion fuses itself"),
        ({"runs": ["bm25"]}, r"config.models.f.runs: \['bm25'\] is too short"),
        ({"runs": ["bm25", "qld"], "weights": {"bm25": 2.0}}, "for method wsum, not rrf"),
        (
            {"runs": ["bm25", "outside"], "k": {"grid": [10, 60]}},
            r"the training queries, which \['outside'\] do not have",
        ),
        ({"runs": ["bm25", "qld"], "method": "borda"}, "config.models.f.method"),
    ],
)
def test_bad_fusions_are_refused(fusion, message):
    with pytest.raises(ConfigError, match=message):
        validate_config({**MINIMAL, "models": {**FUSED, "f": {"kind": "fusion", **fusion}}})


def test_fusions_of_fusions_may_not_loop():
    models = {
        **FUSED,
        "a": {"kind": "fusion", "runs": ["bm25", "b"]},
        "b": {"kind": "fusion", "runs": ["qld", "a"]},
    }
    with pytest.raises(ConfigError, match="the fusion fuses itself"):
        validate_config({**MINIMAL, "models": models})


def test_a_fusion_runs_only_where_every_member_has_a_run(tmp_path):
    (tmp_path / "local.trec").write_text("q1 Q0 d1 1 1.0 x\n")
    models = {
        **FUSED,
        "external": {"kind": "run", "path": str(tmp_path / "{dataset}.trec")},
        "f": {"kind": "fusion", "runs": ["bm25", "external"]},
    }
    datasets = {
        "local": MINIMAL["datasets"][next(iter(MINIMAL["datasets"]))],
        "other": MINIMAL["datasets"][next(iter(MINIMAL["datasets"]))],
    }
    plan = Plan(validate_config({**MINIMAL, "datasets": datasets, "models": models}))
    assert ("f", "local") in plan.evaluated_pairs and ("f", "other") not in plan.evaluated_pairs
    assert kind_of(plan.models["f"]).run_rule == "fuse"


def test_fusions_chosen_on_a_training_split_run_their_members_on_it():
    """The jobs of a fusion sweep chosen on a training split: each point fuses its
    members' runs of the training queries (fuse_tuning) and is scored on them only; the
    members, reported models, run those queries too but are scored on the evaluated
    ones."""
    from sparsebench.workflow.jobs import pipeline_jobs

    models = {
        **FUSED,
        "hybrid": {"kind": "fusion", "runs": ["bm25", "qld"]},
        "mix": {"kind": "fusion", "runs": ["hybrid", "qld"], "k": {"grid": [10, 60]}},
    }
    plan = Plan(validate_config({**MINIMAL, "models": models}))
    jobs = pipeline_jobs(plan, {c: 1 for c in plan.corpora}, {"d": True}, downloads=False)
    found = {(j.rule, j.wildcards.get("model", "")) for j in jobs}
    for point in ("mix+k_10", "mix+k_60"):
        assert {("fuse", point), ("fuse_tuning", point), ("evaluate_tuning", point)} <= found
        assert ("evaluate", point) not in found
    for member in ("bm25", "qld"):
        assert {("retrieve", member), ("retrieve_tuning", member), ("evaluate", member)} <= found
        assert ("evaluate_tuning", member) not in found
    assert {("fuse", "hybrid"), ("fuse_tuning", "hybrid"), ("evaluate", "hybrid")} <= found
    assert ("tune", "mix") in found
    # without a training split: cross-validation over the evaluated queries, no tuning runs
    jobs = pipeline_jobs(plan, {c: 1 for c in plan.corpora}, {"d": False}, downloads=False)
    assert not {j.rule for j in jobs} & {"fuse_tuning", "retrieve_tuning", "evaluate_tuning"}


def test_the_schema_lists_the_registered_methods_and_norms():
    from sparsebench.runs.fusion.norms import NORMS
    from sparsebench.runs.fusion.registry import METHODS

    properties = kind_of({"kind": "fusion"}).schema["properties"]
    assert properties["method"]["enum"] == list(METHODS)
    assert properties["norm"]["enum"] == list(NORMS)
