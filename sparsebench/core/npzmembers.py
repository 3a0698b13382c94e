"""Arrays in .npz files written so that they can be mapped in place: each member a
stored (uncompressed) .npy whose data start at a multiple of 64 bytes in the file, and
read back as arrays over a memory map of the file (sparsebench.search.postings).
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path
from typing import IO

import numpy as np

from sparsebench.core.errors import DataError

_ALIGN = 64  # where each member's array data starts in the file
_PADDING_ID = 0xD935  # the zip extra field that pads a local header (as zipalign's)
_EXTRA_HEADER = 4  # an extra field's id and size
_ZIP64_EXTRA = 20  # the zip64 extra field of a member written with force_zip64
_COPY_CHUNK = 1 << 22  # values copied into a member at a time


def aligned_member(archive: zipfile.ZipFile, name: str) -> IO[bytes]:
    """A stored .npy member `name` being written whose array data will start at a
    multiple of 64 bytes in the file: its local header is padded with an extra field
    (.npy headers are multiples of 64 long). Mapped, its arrays are then aligned: numba
    compiles code for unaligned arrays apart, and numpy copies them for many
    operations."""
    info = zipfile.ZipInfo(f"{name}.npy")
    # data start: local header (30 bytes), the name, the extra fields (with zip64's 20)
    start = archive.fp.tell() + 30 + len(info.filename.encode()) + _ZIP64_EXTRA
    padding = -(start + _EXTRA_HEADER) % _ALIGN + _EXTRA_HEADER
    info.extra = struct.pack("<HH", _PADDING_ID, padding - _EXTRA_HEADER) + bytes(
        padding - _EXTRA_HEADER
    )
    return archive.open(info, "w", force_zip64=True)


def copy_member(
    archive: zipfile.ZipFile, name: str, source: Path, stored: np.dtype, kept: np.dtype
) -> None:
    """An .npy member `name` of the values in raw file `source` (of type `stored`), as
    type `kept`, copied a chunk at a time."""
    count = source.stat().st_size // stored.itemsize
    header = {
        "descr": np.lib.format.dtype_to_descr(kept),
        "fortran_order": False,
        "shape": (count,),
    }
    with aligned_member(archive, name) as member, open(source, "rb") as raw:
        np.lib.format.write_array_header_2_0(member, header)
        while chunk := raw.read(_COPY_CHUNK * stored.itemsize):
            member.write(np.frombuffer(chunk, dtype=stored).astype(kept).tobytes())


def mapped_members(path: str | Path, aligned: bool = True) -> dict[str, np.ndarray]:
    """The arrays of an .npz file: stored arrays mapped in place, others (compressed
    members, scalars) read. `aligned`: arrays a writer other than aligned_member left
    unaligned are copied (compiled code needs them aligned); else they stay mapped."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            name = info.filename.removesuffix(".npy")
            if info.compress_type != zipfile.ZIP_STORED:
                with archive.open(info) as member:
                    arrays[name] = np.lib.format.read_array(member)
                continue
            with open(path, "rb") as handle:
                handle.seek(info.header_offset)
                local = handle.read(30)
                start = info.header_offset + 30 + int.from_bytes(local[26:28], "little")
                start += int.from_bytes(local[28:30], "little")
                handle.seek(start)
                version = np.lib.format.read_magic(handle)
                read_header = (
                    np.lib.format.read_array_header_1_0
                    if version == (1, 0)
                    else np.lib.format.read_array_header_2_0
                )
                shape, fortran, dtype = read_header(handle)
                offset = handle.tell()
            if dtype.hasobject or fortran:
                raise DataError(f"{path}: member {name} is not a plain array")
            if shape == ():
                with archive.open(info) as member:
                    arrays[name] = np.lib.format.read_array(member)
            elif int(np.prod(shape)) == 0:
                arrays[name] = np.zeros(shape, dtype)
            else:
                # a plain array over the mapping: slicing a np.memmap costs a Python-level
                # __getitem__ and __array_finalize__ per slice, and searches slice often
                mapped = np.asarray(
                    np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape)
                )
                # a file written unaligned (by another writer): its arrays copied aligned
                arrays[name] = mapped if mapped.flags.aligned or not aligned else mapped.copy()
    return arrays
