"""The tuning stage (rule in workflow/rules/tune.smk): a parameter sweep's variants
scored, one chosen honestly, its run composed.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sparsebench.core.fileio import atomic_path, read_json
from sparsebench.tune import selection, sweeps

log = logging.getLogger(__name__)


def tune(
    model: str,
    dataset: str,
    sweep: dict[str, Any],
    dataset_info: str | Path,
    per_query_files: list[str],
    run_files: list[str],
    outputs: dict[str, str],
) -> None:
    """The tuned model's run, the choice (per fold, or once on the training split) and the
    metric surface. `per_query_files` hold the variants' scores on the queries they are
    chosen on: the training split's, or the evaluated ones for cross-validation."""
    settings = sweeps.Sweep.from_dict(model, sweep)
    variants = list(settings.variants)
    scores = selection.per_query_scores(
        dict(zip(variants, per_query_files, strict=True)), settings.metric
    )
    info = read_json(dataset_info)
    split = info["tuning_split"] if sweeps.uses_training_split(model, sweep, info) else None
    if split:
        result = selection.choose_on_split(scores, settings, split)
        chosen: dict[str, list[str] | None] = {result.choices[0]["variant"]: None}
    else:
        result = selection.cross_validate(scores, settings)
        chosen = {}
        for choice in result.choices:
            chosen.setdefault(choice["variant"], []).extend(choice["held_out_queries"])
    for choice in result.choices:
        log.info(
            "%s on %s%s: %s (%s %.4f on %d training queries)",
            model,
            dataset,
            f", split {split}" if split else f", fold {choice['fold']}",
            choice["variant"],
            settings.metric,
            choice["train_score"],
            choice["train_queries"],
        )
    runs = dict(zip(variants, run_files, strict=True))
    selection.compose_run(runs, chosen, model, outputs["run"])
    selection.write_selection(result, settings, dataset, outputs["selection"], split)
    with atomic_path(outputs["surface"]) as tmp:
        result.surface.to_csv(tmp, sep="\t", lineterminator="\n", float_format="%.6f")
