"""Arrays of .npz files come back mapped, and aligned whoever wrote the file."""

from __future__ import annotations

import zipfile

import numpy as np
import pytest

from sparsebench.core.npzmembers import aligned_member, mapped_members


def test_members_written_aligned_are_mapped_in_place(tmp_path):
    path = tmp_path / "aligned.npz"
    arrays = {"a": np.arange(5, dtype=np.int64), "bb": np.linspace(0, 1, 7), "c": np.int32(3)}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, array in arrays.items():
            with aligned_member(archive, name) as member:
                np.lib.format.write_array(member, np.asarray(array))
    mapped = mapped_members(path)
    for name in ("a", "bb"):
        assert np.array_equal(mapped[name], arrays[name])
        assert mapped[name].ctypes.data % 64 == 0
        assert not mapped[name].flags.owndata  # a view of the mapping, not a copy
    assert mapped["c"] == 3
    with np.load(path) as loaded:  # numpy reads the padded headers too
        assert np.array_equal(loaded["bb"], arrays["bb"])


def test_members_another_writer_left_unaligned_are_copied_aligned(tmp_path):
    path = tmp_path / "numpy.npz"
    # numpy's writer: the data of member x.npy start at 30 + 5 + 20 + the .npy header, odd
    np.savez(path, x=np.arange(10, dtype=np.int64))
    with zipfile.ZipFile(path) as archive:
        offset = archive.getinfo("x.npy").header_offset
    local = path.read_bytes()[offset : offset + 30]  # the local header: name, extra lengths
    npy = (
        offset
        + 30
        + int.from_bytes(local[26:28], "little")
        + int.from_bytes(local[28:30], "little")
    )
    assert npy % 8 != 0  # the .npy (and its data, 64 bytes per header line on) unaligned
    mapped = mapped_members(path)
    assert mapped["x"].flags.aligned and np.array_equal(mapped["x"], np.arange(10))
    kept = mapped_members(path, aligned=False)["x"]  # mapped as written: no copy
    assert not kept.flags.aligned and not kept.flags.writeable
    assert np.array_equal(kept, np.arange(10))


def test_a_mapped_csr_reads_its_rows_from_the_file(tmp_path):
    """Feedback reads a few documents of the corpus matrix: mapped, the matrix's arrays
    are views of the file, not copies in memory, and its rows are save_csr's."""
    import scipy.sparse as sp

    from sparsebench.core.csrfiles import load_csr, map_csr, save_csr
    from sparsebench.core.errors import DataError

    matrix = sp.random(300, 50, density=0.1, format="csr", random_state=3, dtype=np.float32)
    save_csr(tmp_path / "corpus.npz", matrix)
    mapped = map_csr(tmp_path / "corpus.npz")
    assert mapped.shape == matrix.shape and (mapped != load_csr(tmp_path / "corpus.npz")).nnz == 0
    for array in (mapped.data, mapped.indices, mapped.indptr):
        assert isinstance(array.base, np.memmap) and not array.flags.writeable
    assert np.array_equal(mapped[[7, 123]].toarray(), matrix[[7, 123]].toarray())
    np.savez(tmp_path / "other.npz", data=np.ones(3))
    with pytest.raises(DataError, match="not a CSR matrix as save_csr writes one"):
        map_csr(tmp_path / "other.npz")
