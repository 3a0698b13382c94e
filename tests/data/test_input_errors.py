"""Bad bytes and bad lines in a collection's files: prepare refuses them before any
encoding, naming the file, its 1-based line and what is wrong with it.

The collection is Cranfield (BEIR format, ../shared/data/cranfield), copied to a temporary
folder at test time and broken there one line at a time.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import REPO, prepare_source, shared_path

from sparsebench.core.errors import DataError
from sparsebench.data import records
from sparsebench.data.collection import FilesSource, FolderSource, ZipSource

Edit = Callable[[list[bytes]], None]


def cranfield(tmp_path: Path, member: str = "", edit: Edit | None = None) -> Path:
    """A copy of Cranfield whose `member` has had its lines (bytes, no newlines) edited."""
    root = tmp_path / "cranfield"
    shutil.copytree(shared_path("data", "cranfield"), root)
    if edit is not None:
        lines = (root / member).read_bytes().split(b"\n")
        edit(lines)
        (root / member).write_bytes(b"\n".join(lines))
    return root


def zipped(root: Path) -> Path:
    archive = root.with_suffix(".zip")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(root.rglob("*")):
            if path.is_file():
                z.write(path, f"{root.name}/{path.relative_to(root).as_posix()}")
    return archive


def as_tsv(root: Path, member: str) -> Path:
    """The JSON-lines member as a TSV file (id, [title,] text), its bytes kept as they are:
    the line numbers stay those of the JSON-lines file."""
    out = root / f"{member}.tsv"
    with open(root / f"{member}.jsonl", "rb") as lines, open(out, "wb") as tsv:
        for line in lines:
            # the ids, titles and texts of Cranfield hold no escapes, tabs or quotes
            record = json.loads(line.decode("latin-1"))
            fields = [record["_id"], *([record["title"]] if "title" in record else [])]
            tsv.write("\t".join([*fields, record["text"]]).encode("latin-1") + b"\n")
    return out


def sources(root: Path, tsv: bool = False) -> dict[str, object]:
    qrels = root / "qrels" / "test.tsv"
    files = {
        "folder": FolderSource(root, "test"),
        "zip": ZipSource(zipped(root), "test"),
        "files-jsonl": FilesSource(root / "corpus.jsonl", root / "queries.jsonl", qrels),
    }
    if tsv:
        files["files-tsv"] = FilesSource(as_tsv(root, "corpus"), as_tsv(root, "queries"), qrels)
    return files


def accent(line_number: int, word: bytes) -> Edit:
    """Write the first vowel of `word` on that line as Latin-1 é (0xe9), not UTF-8."""

    def edit(lines: list[bytes]) -> None:
        line = lines[line_number - 1]
        assert word in line
        lines[line_number - 1] = line.replace(word, word[:1] + b"\xe9" + word[2:], 1)

    return edit


@pytest.mark.parametrize("member", ["corpus", "queries"])
def test_a_byte_that_is_not_utf8_is_refused_with_its_file_line_and_offset(tmp_path, member):
    line, word = (17, b"remarks") if member == "corpus" else (5, b"what")
    root = cranfield(tmp_path, f"{member}.jsonl", accent(line, word))
    offset = (root / f"{member}.jsonl").read_bytes().split(b"\n")[line - 1].index(b"\xe9")
    for kind, source in sources(root, tsv=True).items():
        out = tmp_path / f"out-{kind}"
        suffix = "tsv" if kind == "files-tsv" else "jsonl"
        expected_offset = offset if suffix == "jsonl" else None
        with pytest.raises(DataError) as raised:
            prepare_source(source, out, "cranfield", {})
        message = str(raised.value)
        assert f"{member}.{suffix} line {line}: not UTF-8 (byte 0xe9 at offset" in message, kind
        if expected_offset is not None:
            assert f"byte 0xe9 at offset {expected_offset} of the line" in message, kind
        assert not (out / "dataset.json").exists()


def test_the_error_names_the_archive_member(tmp_path):
    root = cranfield(tmp_path, "corpus.jsonl", accent(17, b"remarks"))
    with pytest.raises(DataError, match=r"cranfield\.zip:cranfield/corpus\.jsonl line 17: "):
        prepare_source(ZipSource(zipped(root), "test"), tmp_path / "out", "c", {})


def test_qrels_that_are_not_utf8_are_refused_with_their_line(tmp_path):
    def edit(lines: list[bytes]) -> None:
        lines[30] = b"\xe9" + lines[30]

    root = cranfield(tmp_path, "qrels/test.tsv", edit)
    for kind, source in sources(root).items():
        with pytest.raises(DataError, match=r"qrels/test\.tsv line 31: not UTF-8 \(byte 0xe9"):
            prepare_source(source, tmp_path / f"out-{kind}", "cranfield", {})


def test_the_utf8_check_holds_back_a_character_split_between_two_reads():
    from sparsebench.data.textfiles import NotUtf8, Utf8Reader

    text = "Flügel, Düse, Überschall € 𝄞\n".encode() * 50
    for size in (1, 2, 3, 5, 7, 64, -1):
        reader, read = Utf8Reader(io.BytesIO(text)), b""
        while chunk := reader.read(size):
            read += chunk
        assert read == text
    bad = text[:101] + b"\xff" + text[101:]
    for size in (1, 3, 64, -1):
        reader = Utf8Reader(io.BytesIO(bad))
        with pytest.raises(NotUtf8) as raised:
            while reader.read(size):
                pass
        assert (raised.value.offset, raised.value.byte) == (101, 0xFF)
    with pytest.raises(NotUtf8, match="an incomplete character"):
        reader = Utf8Reader(io.BytesIO(text[:-2]))  # cuts the last 𝄞 short
        while reader.read(5):
            pass


def replace(line_number: int, new: bytes) -> Edit:
    def edit(lines: list[bytes]) -> None:
        lines[line_number - 1] = new

    return edit


def cut(line_number: int, keep: int) -> Edit:
    def edit(lines: list[bytes]) -> None:
        lines[line_number - 1] = lines[line_number - 1][:keep]

    return edit


def cut_last_line(lines: list[bytes]) -> None:
    assert lines[-1] == b""  # the file ends with a newline: drop it and half the last line
    lines.pop()
    lines[-1] = lines[-1][:60]


def empty_line_then_array(lines: list[bytes]) -> None:
    lines.insert(9, b"")  # file line 10; Arrow skips it, so rows no longer are lines
    lines[30] = b"[1, 2]"


@pytest.mark.parametrize(
    ("member", "edit", "expected"),
    [
        ("corpus.jsonl", cut(30, 50), r"corpus\.jsonl line 30: malformed JSON \(unterminated "),
        (
            "corpus.jsonl",
            cut_last_line,
            r"corpus\.jsonl line 1400: malformed JSON \(unterminated string .*cut short",
        ),
        (
            "corpus.jsonl",
            empty_line_then_array,
            r"corpus\.jsonl line 31: a JSON array, not an object",
        ),
        ("queries.jsonl", replace(5, b'"what is a wing"'), r"queries\.jsonl line 5: a JSON string"),
        ("queries.jsonl", replace(8, b'{"text": "no id"}'), r"queries\.jsonl line 8: .*no `_id`"),
        (
            "corpus.jsonl",
            replace(3, b'{"_id": "3", "title": "t", "text": ["a"]}'),
            r"corpus\.jsonl line 3: `text` is a JSON array, not a string",
        ),
        (
            "queries.jsonl",
            replace(2, b'{"_id": 2, "text": "x"}'),
            r"line 2: `_id` 2 is a JSON number",
        ),
    ],
    ids=["malformed", "truncated-last", "empty-line", "not-an-object", "no-id", "list", "number"],
)
def test_a_bad_json_line_is_named_by_its_file_line(tmp_path, member, edit, expected):
    root = cranfield(tmp_path, member, edit)
    for kind, source in sources(root).items():
        with pytest.raises(DataError, match=expected):
            prepare_source(source, tmp_path / f"out-{kind}", "cranfield", {})


def test_a_bad_line_in_a_later_block_is_named_by_its_file_line(tmp_path, monkeypatch):
    """Arrow counts rows from 0 within each block: with 64 KiB blocks line 1391 of the
    corpus is far from the start of its block."""
    monkeypatch.setattr(records, "_JSON_BLOCK", 1 << 16)
    root = cranfield(tmp_path, "corpus.jsonl", cut(1391, 120))
    with pytest.raises(DataError, match=r"corpus\.jsonl line 1391: malformed JSON"):
        prepare_source(FolderSource(root, "test"), tmp_path / "out", "cranfield", {})


def test_empty_lines_are_skipped(tmp_path):
    def edit(lines: list[bytes]) -> None:
        lines.insert(9, b"")
        lines.insert(20, b"  \r")

    root = cranfield(tmp_path, "corpus.jsonl", edit)
    summary = prepare_source(FolderSource(root, "test"), tmp_path / "out", "cranfield", {})
    assert summary["n_docs"] == 1400


def test_a_tsv_line_with_another_number_of_fields_is_named(tmp_path):
    root = cranfield(tmp_path)
    queries = as_tsv(root, "queries")
    lines = queries.read_bytes().split(b"\n")
    lines[40] += b"\textra"
    queries.write_bytes(b"\n".join(lines))
    source = FilesSource(root / "corpus.jsonl", queries, root / "qrels" / "test.tsv")
    with pytest.raises(DataError, match=r"queries\.tsv line 41: 3 tab-separated fields"):
        prepare_source(source, tmp_path / "out", "cranfield", {})


@pytest.mark.slow
def test_a_missing_split_in_the_workflow_lists_the_splits_there(tmp_path):
    """Snakemake used to stop on the missing input file alone (qrels/dev.tsv)."""
    root = cranfield(tmp_path)
    (root / "qrels" / "train.tsv").write_bytes((root / "qrels" / "test.tsv").read_bytes())
    configfile = tmp_path / "config.yaml"
    configfile.write_text(
        yaml.safe_dump(
            {
                "datasets": {"cran": {"source": "local", "path": str(root), "split": "dev"}},
                "models": {"bm25": {"kind": "bm25"}},
                "significance": {"baseline": "bm25"},
            }
        )
    )
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile")]
        + ["--directory", str(tmp_path / "w"), "--configfile", str(configfile), "-n"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert (
        f"Error: config.datasets.cran: {root}: no qrels for split 'dev' (qrels/dev.tsv); "
        "available splits: test, train"
    ) in output.splitlines()
    assert "Traceback" not in output
