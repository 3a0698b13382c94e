"""The long rows of packed postings (sparsebench.search.postings): their ids
delta-coded and their weights offset from their least, both bit-packed in chunks of
CHUNK postings (sparsebench.core.bitpack), as PISA's block codecs keep lists.

A row of PACKED_FROM postings or more (a term's list in a block of 65,536 documents)
is cut into chunks of CHUNK postings, its last chunk holding the rest, unless a bit
vector of it takes no more bytes than its chunks (then it is dense:
sparsebench.search.dense_rows). A chunk stores
its first id (uint16, beside it: lookups gallop over the chunks' first ids as over
ids), the differences of its ids (the first difference zero) at the width of the
largest, and its weights less the least (its base, beside it) at the width of the
largest offset. The chunks follow one another in `stream`, ids then weights, rows in
row order; the stream ends with bitpack.SLACK bytes. Where each chunk starts and each
row's first chunk follow from the widths and the rows' lengths, and are computed when
the postings are loaded (`PackedRows.locate`), not stored. Shorter rows, most rows of a
large vocabulary, stay as they are (a uint16 id and a narrow weight a posting): packing
a list of a few postings saves less than its chunk's header costs.

Weights must be integers of at most 16 bits (impacts, quantised weights): float
weights are not packed (postings_build.save_postings refuses them). The compiled reading and
packing of chunks are sparsebench.search.packed_loop's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sparsebench.core.bitpack import MAX_WIDTH, SLACK, packed_bytes
from sparsebench.search.row_directory import LONG

CHUNK = 128  # postings a chunk
PACKED_FROM = LONG + 1  # the shortest row packed: the rows whose lengths are coded LONG
# the arrays of a chunk beside the stream (postings members, in this order)
CHUNK_ARRAYS = ("chunk_first", "chunk_id_bits", "chunk_weight_bits", "chunk_base")


@dataclass(frozen=True)
class PackedRows:
    """The packed rows' chunks: stream (uint8), each chunk's first id (uint16), its ids'
    and its weights' widths (uint8), its weights' base (the weights' type); chunk_at:
    where each chunk starts in the stream (int64, and past the last chunk);
    row_chunks: each long row's first chunk (int64, in row order, and the total; a dense
    row's is the next row's)."""

    stream: np.ndarray
    first: np.ndarray
    id_bits: np.ndarray
    weight_bits: np.ndarray
    base: np.ndarray
    chunk_at: np.ndarray
    row_chunks: np.ndarray

    @classmethod
    def locate(cls, stream, first, id_bits, weight_bits, base, lengths) -> PackedRows:
        """The chunks of packed rows of `lengths` (in row order; 0 for a long row kept
        otherwise, dense: it has no chunk), located (where the chunks' arrays disagree
        with the rows, a damaged file's, nowhere: see fits)."""
        lengths = np.asarray(lengths, dtype=np.int64)
        per_row = -(-lengths // CHUNK)
        row_chunks = np.concatenate([[0], np.cumsum(per_row)])
        n_chunks = int(row_chunks[-1])
        if not len(first) == len(id_bits) == len(weight_bits) == len(base) == n_chunks:
            return cls(stream, first, id_bits, weight_bits, base, np.full(1, -1), row_chunks)
        counts = np.full(n_chunks, CHUNK, dtype=np.int64)
        chunked = per_row > 0
        counts[row_chunks[1:][chunked] - 1] = lengths[chunked] - (per_row[chunked] - 1) * CHUNK
        sizes = packed_bytes(counts, id_bits.astype(np.int64))
        sizes += packed_bytes(counts, weight_bits.astype(np.int64))
        chunk_at = np.concatenate([[0], np.cumsum(sizes)])
        return cls(stream, first, id_bits, weight_bits, base, chunk_at, row_chunks)

    @property
    def n_chunks(self) -> int:
        return len(self.first)

    def fits(self) -> bool:
        """Whether the chunks fit each other, their rows and the stream (a damaged
        file's do not)."""
        return bool(
            self.chunk_at[-1] >= 0
            and (self.n_chunks == 0 or max(self.id_bits.max(), self.weight_bits.max()) <= MAX_WIDTH)
            and len(self.stream) == self.chunk_at[-1] + SLACK
        )

    def arrays(self) -> tuple[np.ndarray, ...]:
        """What the compiled searches take (packed_loop.read_chunk's `packed`)."""
        return (self.stream, self.first, self.id_bits, self.weight_bits, self.base, self.chunk_at)
