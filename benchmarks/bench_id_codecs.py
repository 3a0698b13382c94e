"""Document ids of the postings' rows (one list per term and block of 65,536 documents,
as sparsebench.search.postings keeps them) coded three ways, side by side on the same
rows: what each costs in bytes a posting, and what reading them costs where the search
reads every posting (the exhaustive block scan: each row's weights added into a
block's 65,536 sums at its ids), against the plain uint16 ids read in the same run.

  raw        the ids as stored today: a uint16 each
  ef         Elias-Fano per row (low bits of a width that the row's length sets, the
             rest in unary), or raw where that is no smaller: its size follows from the
             row's length alone, so the row directory's offsets stay implicit
  bp128      rows of 128 or more: PISA-style blocks of 128, differences to the id four
             places before (D4) bit-packed at the block's widest, four interleaved lanes
             (SIMD-BP128's layout, its decoder written for numba's vectoriser); shorter
             rows as ef
  packed     the library's packed postings (sparsebench.search.packed_rows: chunks of 128
             postings, ids delta-coded and weights offset, both bit-packed, read by its
             vector unpacking, sparsebench.core.bitpack_loop), over the rows it packs
             (those it keeps as bit vectors and short rows aside), ids and weights
             together, against the raw ids and narrow weights of the same rows

Rows are grouped by length (short < 128 <= long), since they differ in both costs. The
decoders are compiled (numba) here, in the benchmark: they measure what a layout would
cost before the library takes one. Synthetic corpora are bench_retrieval.py's; --postings
reads a postings.npz that the term_weights stage wrote.

    python benchmarks/bench_id_codecs.py --sizes 1000000 --shapes bm25-8bit impacts
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_retrieval import make_problem  # noqa: E402

from sparsebench.search.packed_loop import read_chunk  # noqa: E402
from sparsebench.search.packed_rows import CHUNK_ARRAYS  # noqa: E402
from sparsebench.search.postings_build import build_postings, compact_weights  # noqa: E402

BLOCK = 65536
CHUNK = 128
_ONE = np.uint64(1)


class Rows:
    """A corpus's rows: each row's first posting and length, its ids within the block
    (uint16), its block's documents and the weights (as stored: the narrowest exact type,
    widened to float64 as each is added, as the search does)."""

    def __init__(
        self,
        starts: np.ndarray,
        lengths: np.ndarray,
        ids: np.ndarray,
        universe: np.ndarray,
        data: np.ndarray,
    ) -> None:
        self.starts, self.lengths, self.ids = starts, lengths, ids
        self.universe, self.data = universe, data


def rows_of_matrix(term_major: sp.csr_matrix) -> Rows:
    """Rows of a term-major CSR matrix (terms x documents)."""
    n_docs = term_major.shape[1]
    docs = term_major.indices.astype(np.int64)
    terms = np.repeat(np.arange(term_major.shape[0]), np.diff(term_major.indptr))
    key = terms * (n_docs // BLOCK + 1) + (docs >> 16)
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]).astype(np.int64)
    lengths = np.diff(np.r_[starts, len(docs)]).astype(np.int64)
    block = docs[starts] >> 16
    universe = np.minimum(BLOCK, n_docs - block * BLOCK).astype(np.int64)
    data = compact_weights(term_major.data)
    return Rows(starts, lengths, (docs & 0xFFFF).astype(np.uint16), universe, data)


def rows_of_postings(path: Path) -> Rows:
    """Rows of a postings.npz as the term_weights stage writes it (packed rows
    unpacked)."""
    from sparsebench.search.postings import load_postings

    postings = load_postings(path)
    blocks = [postings.block_postings(block) for block in range(postings.n_blocks)]
    lengths = np.concatenate([np.zeros(0, np.int64), *(block[0] for block in blocks)])
    starts = np.cumsum(lengths) - lengths
    block_of_row = np.repeat(np.arange(postings.n_blocks), [len(block[0]) for block in blocks])
    n_docs = postings.shape[1]
    universe = np.minimum(BLOCK, n_docs - block_of_row * BLOCK).astype(np.int64)
    ids = np.concatenate([np.zeros(0, np.uint16), *(block[1] for block in blocks)])
    data = np.concatenate([postings.data[:0], *(block[2] for block in blocks)])
    return Rows(starts, lengths, ids, universe, data)


def ef_low_bits(lengths: np.ndarray, universe: np.ndarray) -> np.ndarray:
    """Elias-Fano's low width per row, 16 (raw) where Elias-Fano is no smaller."""
    low = np.clip(np.floor(np.log2(universe / lengths)), 0, 16).astype(np.int64)
    ef = lengths * (low + 1) + (universe >> low) + 1
    return np.where(ef < 16 * lengths, low, 16)


def ef_row_bits(lengths: np.ndarray, universe: np.ndarray, low: np.ndarray) -> np.ndarray:
    return np.where(low == 16, 16 * lengths, lengths * (low + 1) + (universe >> low) + 1)


@njit(cache=True)
def _put(words, pos, value, width):
    q, off = pos >> 6, pos & 63
    words[q] |= np.uint64(value) << np.uint64(off)
    if off + width > 64:
        words[q + 1] |= np.uint64(value) >> np.uint64(64 - off)


@njit(cache=True)
def ef_encode(ids, starts, lengths, low, bit_start, words):
    for r in range(len(starts)):
        s, m, width, at = starts[r], lengths[r], low[r], bit_start[r]
        mask = (1 << width) - 1
        for i in range(m):
            if width > 0:
                _put(words, at + width * i, np.int64(ids[s + i]) & mask, width)
        if width < 16:
            high = at + width * m
            for i in range(m):
                pos = high + (np.int64(ids[s + i]) >> width) + i
                words[pos >> 6] |= _ONE << np.uint64(pos & 63)


@njit(cache=True)
def _bits_at(words, pos, mask):
    """Bits pos.. of the stream (masked), across a word boundary without a branch."""
    q, off = pos >> np.uint64(6), pos & np.uint64(63)
    return ((words[q] >> off) | ((words[q + _ONE] << _ONE) << (np.uint64(63) - off))) & mask


@njit(cache=True)
def ef_scan(words, data, starts, lengths, low, bit_start, rows, sums):
    for r in rows:
        s, m = np.uint64(starts[r]), np.uint64(lengths[r])
        width, at = np.uint64(low[r]), np.uint64(bit_start[r])
        mask = (_ONE << width) - _ONE
        if width == 16:
            for i in range(m):
                doc = _bits_at(words, at + np.uint64(16) * i, mask)
                sums[doc] += np.float64(data[s + i])
            continue
        high = at + width * m
        q = high >> np.uint64(6)
        word = words[q] & ~((_ONE << (high & np.uint64(63))) - _ONE)
        base = (q << np.uint64(6)) - high
        for i in range(m):
            while word == 0:
                q += _ONE
                word = words[q]
                base += np.uint64(64)
            upper = base + np.uint64(trailing_zeros(word)) - i
            word &= word - _ONE
            doc = (upper << width) | _bits_at(words, at + width * i, mask)
            sums[doc] += np.float64(data[s + i])


@njit(cache=True)
def raw_scan(ids, data, starts, lengths, rows, sums):
    for r in rows:
        s = np.uint64(starts[r])
        for p in range(s, s + np.uint64(lengths[r])):
            sums[np.uint64(ids[p])] += np.float64(data[p])


@njit(cache=True)
def bp_encode(ids, starts, lengths, rows, words, chunk_bits, chunk_word):
    """D4 differences of each row's ids, 128 at a time, bit-packed in four lanes
    (lane l holds positions l, l + 4, ...; its word w at 4 w + l); a row's last
    block is padded with zero differences. Returns the words used."""
    used, chunk = 0, 0
    deltas = np.zeros(CHUNK, np.uint64)
    for r in rows:
        s, m = starts[r], lengths[r]
        for first in range(0, m, CHUNK):
            widest = np.uint64(0)
            for i in range(CHUNK):
                at = first + i
                if at < m:
                    before = np.int64(ids[s + at - 4]) if at >= 4 else 0
                    deltas[i] = np.uint64(np.int64(ids[s + at]) - before)
                else:
                    deltas[i] = 0
                widest |= deltas[i]
            width = 0
            while (widest >> np.uint64(width)) != 0:
                width += 1
            chunk_bits[chunk], chunk_word[chunk] = width, used
            for i in range(CHUNK):
                pos = (i // 4) * width
                lane = i % 4
                q, off = pos >> 5, pos & 31
                words[used + 4 * q + lane] |= np.uint32((deltas[i] << np.uint64(off)) & 0xFFFFFFFF)
                if off + width > 32:
                    words[used + 4 * (q + 1) + lane] |= np.uint32(deltas[i] >> np.uint64(32 - off))
            used += 4 * width
            chunk += 1
    return used


@njit(cache=True, inline="always")
def _lane_bits(words, w, off):
    """A lane's bits from `off` of its word w on, its next word (w + 4) above."""
    return (np.uint64(words[w]) | (np.uint64(words[w + np.uint64(4)]) << np.uint64(32))) >> off


@njit(cache=True, fastmath=True)
def _bp_decode(words, at, width, lanes, out):
    """128 ids of a block into out, lanes carrying each lane's last id."""
    mask = (_ONE << np.uint64(width)) - _ONE
    p0, p1, p2, p3 = lanes[0], lanes[1], lanes[2], lanes[3]
    bits = np.uint64(width)
    for j in range(np.uint64(32)):
        pos = j * bits
        w = np.uint64(at) + np.uint64(4) * (pos >> np.uint64(5))
        off = pos & np.uint64(31)
        a0 = _lane_bits(words, w, off)
        a1 = _lane_bits(words, w + _ONE, off)
        a2 = _lane_bits(words, w + np.uint64(2), off)
        a3 = _lane_bits(words, w + np.uint64(3), off)
        p0 += a0 & mask
        p1 += a1 & mask
        p2 += a2 & mask
        p3 += a3 & mask
        o = np.uint64(4) * j
        out[o], out[o + _ONE], out[o + np.uint64(2)], out[o + np.uint64(3)] = p0, p1, p2, p3
    lanes[0], lanes[1], lanes[2], lanes[3] = p0, p1, p2, p3


@njit(cache=True)
def bp_scan(words, chunk_bits, chunk_word, data, starts, lengths, rows, sums):
    chunk = 0
    lanes = np.zeros(4, np.uint64)
    out = np.zeros(CHUNK, np.uint64)
    for r in rows:
        s, m = np.uint64(starts[r]), np.uint64(lengths[r])
        lanes[:] = 0
        for first in range(np.uint64(0), m, np.uint64(CHUNK)):
            _bp_decode(words, chunk_word[chunk], chunk_bits[chunk], lanes, out)
            for i in range(min(np.uint64(CHUNK), m - first)):
                sums[out[i]] += np.float64(data[s + first + i])
            chunk += 1


@njit(cache=True)
def packed_scan(packed, first_chunks, lengths, ids, weights, sums):
    """raw_scan over packed rows (each its first chunk and length), a chunk unpacked
    into ids and weights at a time, as the block scan reads them."""
    for r in range(len(first_chunks)):
        chunk, m = first_chunks[r], lengths[r]
        for offset in range(0, m, CHUNK):
            count = min(CHUNK, m - offset)
            read_chunk(packed, chunk, count, ids, weights, 0)
            for p in range(np.uint64(count)):
                sums[np.uint64(ids[p])] += np.float64(weights[p])
            chunk += 1


def packed_line(name: str, term_major: sp.csr_matrix, repeat: int) -> str:
    """A table line: the rows the library packs, their bytes a posting (ids and weights:
    the chunks' stream and the arrays beside it) and ns a posting read from the chunks,
    against their raw ids and narrow weights read in the same run (equal sums)."""
    postings = build_postings(term_major.T.tocsr(), packed=True)
    chunks, directory = postings.packed, postings.directory
    lengths, firsts, ids, data = [], [], [], []
    for block in range(postings.n_blocks):
        first = int(directory.block_rows[block])
        rows = np.arange(first, int(directory.block_rows[block + 1]))
        packed = rows[postings.rows_apart(rows, directory.lengths(rows))[0]]
        row_lengths, row_ids, row_data = postings.block_postings(block, packed - first)
        lengths.append(row_lengths)
        firsts.append(chunks.row_chunks[directory.long_ranks(packed)])
        ids.append(row_ids)
        data.append(row_data)
    lengths, firsts = np.concatenate(lengths), np.concatenate(firsts)
    ids, data = np.concatenate(ids), np.concatenate(data)
    n = int(lengths.sum())
    raw_sums, packed_sums = np.zeros(BLOCK), np.zeros(BLOCK)
    everything = np.arange(len(lengths))
    starts = np.cumsum(lengths) - lengths
    raw_s = timed(repeat, raw_scan, ids, data, starts, lengths, everything, raw_sums)
    buffers = (np.empty(CHUNK, np.uint16), np.empty(CHUNK, chunks.base.dtype))
    arrays = chunks.arrays()
    packed_s = timed(repeat, packed_scan, arrays, firsts, lengths, *buffers, packed_sums)
    assert np.array_equal(raw_sums, packed_sums), "the packed chunks held other postings"
    # every chunk is a packed row's: the stream and the arrays beside it, whole
    n_chunks = int(((lengths + CHUNK - 1) // CHUNK).sum())
    assert n_chunks == chunks.n_chunks, "rows left out of the packed ones"
    beside = sum(getattr(chunks, name.removeprefix("chunk_")).itemsize for name in CHUNK_ARRAYS)
    stream = int(chunks.chunk_at[-1] - chunks.chunk_at[0])
    cells = [name, f"{n:,}", f"{n / postings.nnz:.1%}", f"{2 + data.itemsize}"]
    cells += [f"{raw_s / n * 1e9:.2f}", f"{(stream + beside * n_chunks) / n:.2f}"]
    cells.append(_cost(packed_s, n, raw_s))
    return "| " + " | ".join(cells) + " |"


def timed(repeat: int, scan, *args) -> float:
    """The fastest of `repeat` calls of scan(*args)."""
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        scan(*args)
        best = min(best, time.perf_counter() - start)
    return best


def _cost(seconds: float, n: int, raw_seconds: float) -> str:
    return f"{seconds / n * 1e9:.2f} ({seconds / raw_seconds:.2f}x)"


def compare(name: str, rows: Rows, repeat: int) -> list[str]:
    """Table lines: bytes a posting and ns a posting of each coding, per row group; every
    coding's sums equal to the raw ids' (the same additions in the same order)."""
    low = ef_low_bits(rows.lengths, rows.universe)
    bits = ef_row_bits(rows.lengths, rows.universe, low)
    bit_start = np.r_[0, np.cumsum(bits)].astype(np.int64)
    ef_words = np.zeros(bit_start[-1] // 64 + 2, np.uint64)
    ef_encode(rows.ids, rows.starts, rows.lengths, low, bit_start, ef_words)
    lists = (rows.data, rows.starts, rows.lengths)
    groups = (
        ("short (< 128)", rows.lengths < CHUNK),
        ("long (>= 128)", rows.lengths >= CHUNK),
        ("all", np.ones(len(rows.lengths), bool)),
    )
    lines = []
    for group, chosen in groups:
        selected = np.flatnonzero(chosen)
        n = int(rows.lengths[selected].sum())
        if n == 0:
            continue
        raw_sums, ef_sums = np.zeros(BLOCK), np.zeros(BLOCK)
        raw_s = timed(repeat, raw_scan, rows.ids, *lists, selected, raw_sums)
        ef_s = timed(repeat, ef_scan, ef_words, *lists, low, bit_start, selected, ef_sums)
        assert np.array_equal(raw_sums, ef_sums), "Elias-Fano decoded other ids"
        share = n / rows.lengths.sum()
        cells = [name, group, f"{n:,}", f"{share:.1%}", f"{raw_s / n * 1e9:.2f}"]
        cells += [f"{bits[selected].sum() / 8 / n:.2f}", _cost(ef_s, n, raw_s), "", ""]
        if chosen is groups[1][1]:
            chunks = int(((rows.lengths[selected] + CHUNK - 1) // CHUNK).sum())
            bp_words = np.zeros(chunks * 4 * 17 + 8, np.uint32)
            widths, firsts = np.zeros(chunks, np.int64), np.zeros(chunks, np.int64)
            used = bp_encode(
                rows.ids, rows.starts, rows.lengths, selected, bp_words, widths, firsts
            )
            bp_sums = np.zeros(BLOCK)
            bp_s = timed(repeat, bp_scan, bp_words, widths, firsts, *lists, selected, bp_sums)
            assert np.array_equal(raw_sums, bp_sums), "BP128 decoded other ids"
            # a block's width in a byte beside its words
            cells[-2:] = [f"{(4 * used + chunks) / n:.2f}", _cost(bp_s, n, raw_s)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--shapes", nargs="*", default=["bm25-8bit", "impacts"])
    parser.add_argument("--postings", type=Path, nargs="*", default=[], help="postings.npz files")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        "| corpus | rows | postings | share | raw ns/posting | ef bytes/posting | ef ns/posting "
        "| bp128 bytes/posting | bp128 ns/posting |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in args.postings:
        for line in compare(path.parent.name, rows_of_postings(path), args.repeat):
            print(line, flush=True)
    packed_lines = []
    for shape in args.shapes:
        for size in args.sizes:
            with tempfile.TemporaryDirectory() as tmp:
                make_problem(Path(tmp), size, 10, shape)
                corpus = sp.load_npz(Path(tmp) / "postings.npz").tocsr()
            for line in compare(f"{shape} {size:,}", rows_of_matrix(corpus), args.repeat):
                print(line, flush=True)
            if np.array_equal(corpus.data, np.rint(corpus.data)):  # integer weights: packable
                packed_lines.append(packed_line(f"{shape} {size:,}", corpus, args.repeat))
    if packed_lines:
        print(
            "\n| corpus | packed rows' postings | share | raw bytes/posting | raw ns/posting "
            "| packed bytes/posting | packed ns/posting |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        print("\n".join(packed_lines))


if __name__ == "__main__":
    main()
