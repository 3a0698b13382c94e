"""Documents per second and peak memory of the SPLADE encoder against a plain
transformers loop, same model, same texts, same machine.

The plain loop is the usual recipe: batches in corpus order, padded to the longest text,
the full (batch x length x vocabulary) logits, log(1 + relu) and the mask applied on
them, max over tokens, then the dense rows converted to CSR on the CPU. Each
implementation runs in its own process; vectors are compared afterwards. With
--baseline, the SpladeEncoder of another checkout runs beside this one.

    python benchmarks/bench_encode.py            # ../shared splade-tiny, 256 SciFact docs
    python benchmarks/bench_encode.py --docs 512 --model PATH
    python benchmarks/bench_encode.py --baseline ../old-checkout
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import scipy.sparse as sp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_metrics import peak_rss_mb  # noqa: E402

SHARED = HERE.parent.parent / "shared"


def load_texts(corpus: Path, n: int) -> list[str]:
    texts = []
    with open(corpus, encoding="utf-8") as handle:
        for line in handle:
            doc = json.loads(line)
            texts.append(f"{doc.get('title', '')} {doc.get('text', '')}".strip())
            if len(texts) == n:
                break
    return texts


def plain_loop(model_path: str, texts: list[str], max_length: int, batch_size: int):
    import torch
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_path)
    model = AutoModelForMaskedLM.from_pretrained(model_path).eval()
    rows = []
    start = time.perf_counter()
    with torch.no_grad():
        for i in range(0, len(texts), batch_size):
            encoded = tokenizer(
                texts[i : i + batch_size],
                padding=True,
                truncation=True,
                max_length=max_length,
                return_tensors="pt",
            )
            logits = model(**encoded).logits
            weights = torch.log1p(torch.relu(logits)) * encoded["attention_mask"].unsqueeze(-1)
            rows.append(sp.csr_matrix(weights.max(dim=1).values.numpy()))
    seconds = time.perf_counter() - start
    matrix = sp.vstack(rows).tocsr()
    special = tokenizer.all_special_ids
    matrix[:, special] = 0
    matrix.eliminate_zeros()
    return matrix, seconds


def sparsebench_encoder(model_path: str, texts: list[str], max_length: int, batch_size: int):
    from sparsebench.encode.splade import SpladeEncoder, SpladeSettings

    encoder = SpladeEncoder(
        SpladeSettings(model=model_path, max_length=max_length, batch_size=batch_size, device="cpu")
    )
    start = time.perf_counter()
    matrix = encoder.encode(texts).matrix
    return matrix, time.perf_counter() - start


def child(impl: str, model: str, corpus: str, n: int, max_length: int, batch: int, out: str):
    import torch

    torch.set_num_threads(max(1, len(__import__("os").sched_getaffinity(0))))
    texts = load_texts(Path(corpus), n)
    run = plain_loop if impl == "plain" else sparsebench_encoder  # baseline: via PYTHONPATH
    matrix, seconds = run(model, texts, max_length, batch)
    sp.save_npz(out + ".npz", matrix)
    Path(out).write_text(
        json.dumps(
            {
                "seconds": seconds,
                "docs": len(texts),
                "peak_rss_mb": peak_rss_mb(),
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default=str(SHARED / "models" / "splade-tiny"))
    parser.add_argument("--corpus", default=str(SHARED / "data" / "beir-scifact" / "corpus.jsonl"))
    parser.add_argument("--docs", type=int, default=256)
    parser.add_argument("--max-length", type=int, default=256)
    parser.add_argument(
        "--batch-size", type=int, default=8, help="sparsebench's block rows (its default)"
    )
    parser.add_argument(
        "--baseline-batch-size",
        type=int,
        default=32,
        help="the plain loop's and the baseline's batch (the former default)",
    )
    parser.add_argument("--baseline", help="another sparsebench checkout to measure beside this")
    parser.add_argument("--child", nargs=7)
    args = parser.parse_args()
    if args.child:
        impl, model, corpus, n, max_length, batch, out = args.child
        child(impl, model, corpus, int(n), int(max_length), int(batch), out)
        return
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for impl in ("plain", "sparsebench") + (("baseline",) if args.baseline else ()):
            out = str(Path(tmp) / impl)
            env = dict(os.environ)
            if impl == "baseline":  # the other checkout's sparsebench comes first
                env["PYTHONPATH"] = os.pathsep.join(
                    filter(None, [str(Path(args.baseline).resolve()), env.get("PYTHONPATH")])
                )
            subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    impl,
                    args.model,
                    args.corpus,
                    str(args.docs),
                    str(args.max_length),
                    str(args.batch_size if impl == "sparsebench" else args.baseline_batch_size),
                    out,
                ],
                check=True,
                env=env,
            )
            results[impl] = json.loads(Path(out).read_text())
            results[impl]["matrix"] = sp.load_npz(out + ".npz")
    plain, ours = results["plain"], results["sparsebench"]
    difference = abs(plain["matrix"] - ours["matrix"]).max()
    same_terms = (plain["matrix"] != 0).astype(int) - (ours["matrix"] != 0).astype(int)
    sys.path.insert(0, str(HERE))
    from bench_metrics import machine

    print(
        f"model: {args.model}; {args.docs} SciFact documents (title + text), max_length "
        f"{args.max_length}, batch {args.batch_size} (plain loop and baseline: "
        f"{args.baseline_batch_size}), CPU"
    )
    print(f"machine: {machine()}")
    print(
        f"largest weight difference: {difference:.1e}; terms present in one only: "
        f"{abs(same_terms).sum()}\n"
    )
    print("| implementation | seconds | documents / s | peak RSS (MiB) |")
    print("|---|---:|---:|---:|")
    rows = [("plain transformers loop", plain), ("sparsebench SpladeEncoder", ours)]
    if args.baseline:
        rows.append((f"baseline SpladeEncoder ({args.baseline})", results["baseline"]))
    for impl, r in rows:
        print(
            f"| {impl} | {r['seconds']:.1f} | {r['docs'] / r['seconds']:.1f} | "
            f"{r['peak_rss_mb']:.0f} |"
        )
    print(f"\nspeed-up: {plain['seconds'] / ours['seconds']:.2f}x")
    if args.baseline:
        ratio = ours["seconds"] / results["baseline"]["seconds"]
        print(f"sparsebench / baseline time: {ratio:.3f}")


if __name__ == "__main__":
    main()
