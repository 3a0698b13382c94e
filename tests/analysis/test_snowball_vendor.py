"""sparsebench/analysis/snowball/vendor/ is what regenerate.py writes, byte for byte: the
test regenerates it from the installed snowballstemmer 2.0.0 (the test extra pins it;
regenerate.py checks each of its files against the sdist's SHA-256s), so a hand edit of a
vendored file, a file added or one gone fails here."""

from __future__ import annotations

import hashlib
import io
import tarfile

import pytest

from sparsebench.analysis.snowball import regenerate


def test_vendor_is_the_generators_output():
    tree = regenerate.tree_files()
    made = regenerate.render(regenerate.read_installed())
    assert regenerate.is_license(tree["LICENSE"])
    made["LICENSE"] = tree["LICENSE"]  # the wheel has no COPYING: checked by its SHA-256
    assert sorted(tree) == sorted(made)
    for name, data in made.items():
        assert tree[name] == data, f"vendor/{name} is not regenerate.py's output"
    assert regenerate.main(["--installed", "--check"]) == 0


def test_the_output_is_the_same_twice_and_names_its_source():
    sources = regenerate.read_installed()
    first, second = regenerate.render(sources), regenerate.render(dict(sources))
    assert first == second
    for name, data in first.items():
        text = data.decode("ascii")
        assert regenerate.SDIST_SHA256 in text and "BSD-3-Clause" in text, name
        if name.endswith("_stemmer.py"):
            assert "from sparsebench.analysis.snowball.vendor.basestemmer import" in text
            assert "\nfrom ." not in text


def test_a_changed_source_is_refused():
    sources = regenerate.read_installed()
    member = f"{regenerate.PACKAGE}danish_stemmer.py"
    with pytest.raises(regenerate.SourceError, match="sha256"):
        regenerate._checked(member, sources[member] + b"\n")
    with pytest.raises(regenerate.SourceError, match="unexpected import"):
        regenerate.module_text(member, b"import os\n")


def test_an_sdist_other_than_2_0_0s_is_refused(tmp_path):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        info = tarfile.TarInfo(regenerate.ROOT + "COPYING")
        tar.addfile(info, io.BytesIO(b""))
    path = tmp_path / regenerate.SDIST
    path.write_bytes(data.getvalue())
    assert hashlib.sha256(path.read_bytes()).hexdigest() != regenerate.SDIST_SHA256
    with pytest.raises(regenerate.SourceError, match="sha256"):
        regenerate.read_sdist(path)
