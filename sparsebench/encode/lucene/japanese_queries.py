"""The pieces of a layout of chunk texts (cut at the Java search's commit points), and the
best paths the chunks in context ("keys") need of them: a query is a piece, the lane of
the search (what the chunk starts after, for a piece starting it) and what follows it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sparsebench.encode.lucene.japanese_chunks import EOS
from sparsebench.encode.lucene.japanese_lattice import ranges


@dataclass(frozen=True)
class Pieces:
    """Chunks cut at the positions where the Java search commits whatever the costs."""

    start: np.ndarray
    end: np.ndarray
    chunk: np.ndarray
    start_right: np.ndarray  # right id of the word a piece starts after
    end_left: np.ndarray  # EOS, or the SPACE word's left id after a chunk's last piece

    def __getitem__(self, part: slice) -> Pieces:
        return self.take(part)

    def take(self, index: slice | np.ndarray) -> Pieces:
        return Pieces(
            self.start[index],
            self.end[index],
            self.chunk[index],
            self.start_right[index],
            self.end_left[index],
        )


@dataclass(frozen=True)
class Queries(Pieces):
    """Pieces to take a best path of: a piece, the lane of the search (what the chunk
    starts after, for a piece starting it), and what follows (EOS for an inner piece:
    the Java search commits at its end)."""

    piece: np.ndarray
    lane: np.ndarray

    def take(self, index: slice | np.ndarray, piece_base: int = 0) -> Queries:
        rows = super().take(index)
        return Queries(
            *(getattr(rows, f) for f in ("start", "end", "chunk", "start_right", "end_left")),
            piece=self.piece[index] - piece_base,
            lane=self.lane[index],
        )


def key_queries(
    pieces: Pieces,
    first: np.ndarray,
    last: np.ndarray,
    key_chunk: np.ndarray,
    key_right: np.ndarray,
    key_left: np.ndarray,
    rights: np.ndarray,
) -> tuple[Queries, np.ndarray, np.ndarray]:
    """The distinct queries the keys need, by piece; a row per piece of each key, in key
    then text order: the query of each row, and the number of rows of each key."""
    lane = np.searchsorted(rights, key_right)
    piece_first = np.searchsorted(pieces.chunk, np.arange(int(key_chunk.max(initial=-1)) + 2))
    count = (piece_first[1:] - piece_first[:-1])[key_chunk]
    piece = ranges(piece_first[key_chunk], count)
    row_lane = np.where(first[piece], np.repeat(lane, count), 0)
    row_left = np.where(last[piece], np.repeat(key_left, count), EOS)
    code = (piece * len(rights) + row_lane) * (1 << 16) + (row_left - EOS)
    codes, row_query = np.unique(code, return_inverse=True)
    q_piece = codes // (1 << 16) // len(rights)
    q_lane = codes // (1 << 16) % len(rights)
    rows = pieces.take(q_piece)
    query = Queries(
        rows.start,
        rows.end,
        rows.chunk,
        np.where(first[q_piece], rights[q_lane], rows.start_right),
        codes % (1 << 16) + EOS,
        piece=q_piece,
        lane=q_lane,
    )
    return query, row_query.ravel(), count
