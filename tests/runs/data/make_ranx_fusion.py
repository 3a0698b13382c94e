"""Writes ranx_fusion.json: ranx 0.3.21 fuse over a seeded random case (run with ranx
installed: python make_ranx_fusion.py > ranx_fusion.json). Not run by the tests: ranx
compiles with numba for about 25 s; its outputs are the literals the tests read."""

import json
import random

import ranx
from ranx import Run, fuse

rng = random.Random(20261125)
runs = {}
for name in ("bm25", "splade", "dense"):
    run = {}
    for q in ("q1", "q2", "q3", "q4"):
        docs = rng.sample([f"d{i:02d}" for i in range(20)], rng.randint(4, 12))
        scores = rng.sample(range(1, 400), len(docs))
        scale = {"bm25": 8.0, "splade": 1.0, "dense": 256.0}[name]
        run[q] = {d: s / scale for d, s in zip(docs, scores, strict=True)}
    runs[name] = run
cases = [
    ("rrf", None, {"k": 60}),
    ("rrf", None, {"k": 10}),
    ("sum", "min-max", {}),
    ("sum", "zmuv", {}),
    ("sum", "sum", {}),
    ("sum", "rank", {}),
    ("sum", None, {}),
    ("mnz", "min-max", {}),
    ("mnz", "zmuv", {}),
    ("max", "min-max", {}),
    ("max", "rank", {}),
    ("max", "zmuv", {}),
    ("wsum", "min-max", {"weights": [0.2, 0.5, 0.3]}),
    ("wsum", "zmuv", {"weights": [1.0, 2.0, 0.5]}),
    ("isr", None, {}),
    ("isr", "min-max", {}),  # ranks only: the norm changes nothing
]
out = {"ranx": getattr(ranx, "__version__", "0.3"), "runs": runs, "fused": []}
for method, norm, params in cases:
    rs = [Run(runs[n], name=n) for n in ("bm25", "splade", "dense")]
    fused = fuse(runs=rs, method=method, norm=norm, params=params)
    out["fused"].append(
        {
            "method": method,
            "norm": norm,
            "params": params,
            "run": {q: dict(v) for q, v in fused.to_dict().items()},
        }
    )
print(json.dumps(out, indent=1, sort_keys=True))
