"""Write vendor/: the Snowball 2.0.0 stemmers Lucene 9.9.1's analyzers use (Danish, Dutch,
Finnish, Hungarian, Norwegian, Russian, Swedish, Turkish) and their runtime (basestemmer,
among), as Snowball 2.0.0's own Python backend wrote them for snowballstemmer 2.0.0 (PyPI,
BSD-3-Clause), with its licence.

    python -m sparsebench.analysis.snowball.regenerate            # pip downloads the sdist
    python -m sparsebench.analysis.snowball.regenerate --sdist snowballstemmer-2.0.0.tar.gz
    python -m sparsebench.analysis.snowball.regenerate --installed  # the installed package
    python -m sparsebench.analysis.snowball.regenerate --check      # compare, write nothing

Lucene generates its org.tartarus.snowball.ext stemmers with Snowball 2.0.0 (commit
d8cf01dd, whose eight scripts are v2.0.0's); snowballstemmer 2.0.0 is the Python output of
the same compiler from the same scripts. The sdist's SHA-256 must be SDIST_SHA256, and each
file taken from it (or from an installed snowballstemmer, the wheel holding the sdist's
files) must have the SHA-256 MEMBERS records for it. Each module is the file unchanged but
for a docstring put first (its source, version, checksums and licence) and its two imports
made absolute (`from .among import Among` -> `from sparsebench.analysis.snowball.vendor.among
import Among`), so that the stages' code digests follow them; LICENSE is the sdist's COPYING
after the same header. The output depends on those bytes alone: the same input writes the
same files, byte for byte (tests/analysis/test_snowball_vendor.py regenerates from the
installed package and compares with the tree).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import textwrap
from pathlib import Path

VERSION = "2.0.0"
SDIST = f"snowballstemmer-{VERSION}.tar.gz"
SDIST_URL = f"https://pypi.org/project/snowballstemmer/{VERSION}/"
SDIST_SHA256 = "df3bac3df4c2c01363f3dd2cfa78cce2840a79b9f1c2d2de9ce8d31683992f52"
ROOT = f"snowballstemmer-{VERSION}/"
PACKAGE = "src/snowballstemmer/"
VENDOR = Path(__file__).resolve().with_name("vendor")
VENDOR_MODULE = "sparsebench.analysis.snowball.vendor"
LICENCE = "BSD-3-Clause"
COPYRIGHT = ("Copyright (c) 2001, Dr Martin Porter", "Copyright (c) 2004,2005, Richard Boulton")

RUNTIME = ("among", "basestemmer")
# The stemmers of Lucene's Snowball analyzers. Snowball 2.0.0's "dutch" is the original
# (Porter-style) Dutch algorithm, Lucene 9.9.1's DutchStemmer; Snowball 3 renamed it
# "dutch_porter".
STEMMERS = (
    "basque_stemmer", "danish_stemmer", "dutch_stemmer", "finnish_stemmer", "hungarian_stemmer",
    "norwegian_stemmer", "russian_stemmer", "swedish_stemmer", "turkish_stemmer",
)  # fmt: skip
# sdist member (under ROOT) -> SHA-256 of its bytes
MEMBERS = {
    "COPYING": "10c7be71949bbc44ef6d8e509508887dcaf593e2f122d23ba71e339fd6faa5c7",
    **{
        f"{PACKAGE}{module}.py": digest
        for module, digest in {
            "among": "ebed9da6bee0a46b48be26c92714a09d2d903e40a3006e70f2c90fdccf41e7eb",
            "basestemmer": "1cb4fa880d0fbc33853ef74843e74d0b2570a994ae649b36b1564e2ee5df3cec",
            "basque_stemmer": "a59596513c2b77322b43de8b53214198793f138ca2541d920f94148b10a0b5e1",
            "danish_stemmer": "1a0bd8d4fd2c561bf2f86020f5baf5a60b387e711d8b03bcd11e070bea5dd98d",
            "dutch_stemmer": "221c992deeacfa946fa9f0d2414bd652f8d2542dd19f9f7121000b170f7bd081",
            "finnish_stemmer": "831256c45d74b966be36f1a1f2eab6548cec662a5d66aeb0acef321fc4fb6b23",
            "hungarian_stemmer": "4d0518220d1a51a9a848a2727ee8b2ecc37894f920ce528801508bc56bb0ed90",
            "norwegian_stemmer": "03c7aafd8629bdedad9cce81c1dfabb1dcac841ed37b6c249db8c477acd10032",
            "russian_stemmer": "b41901996a559bd0bb3e2589621eff2047b2da8ee1d60888beaf8839fed9c279",
            "swedish_stemmer": "8572e78e5c6b0182c0c40f34c65e9d5836289ec0fb3f4897f26b0b34cdb76b82",
            "turkish_stemmer": "e6354213596fa7305e0482e5f5f03bcfb31dc65bbe6cad50124f5aee26f8b357",
        }.items()
    },
}
COMMAND = "python -m sparsebench.analysis.snowball.regenerate"

_IMPORT = re.compile(r"^from \.(\w+) import (\w+)$", re.M)


class SourceError(SystemExit):
    """The input is not snowballstemmer 2.0.0's."""


def _checked(member: str, data: bytes) -> bytes:
    digest = hashlib.sha256(data).hexdigest()
    if digest != MEMBERS[member]:
        raise SourceError(f"{member}: sha256 {digest}, expected {MEMBERS[member]}")
    return data


def read_sdist(path: Path) -> dict[str, bytes]:
    """The members MEMBERS names, from the sdist at `path` (its SHA-256 checked)."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SDIST_SHA256:
        raise SourceError(f"{path}: sha256 {digest}, expected {SDIST_SHA256} ({SDIST})")
    with tarfile.open(path, "r:gz") as tar:
        return {m: _checked(m, tar.extractfile(ROOT + m).read()) for m in MEMBERS}


def read_installed() -> dict[str, bytes]:
    """The modules MEMBERS names, from the installed snowballstemmer package (its wheel
    holds no COPYING: LICENSE cannot be made from it)."""
    spec = importlib.util.find_spec("snowballstemmer")
    if spec is None or spec.origin is None:
        raise SourceError(f"no snowballstemmer installed (pip install snowballstemmer=={VERSION})")
    folder = Path(spec.origin).parent
    return {
        m: _checked(m, (folder / m.removeprefix(PACKAGE)).read_bytes())
        for m in MEMBERS
        if m.startswith(PACKAGE)
    }


def download_sdist(folder: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", f"snowballstemmer=={VERSION}", "--no-deps",
         "--no-binary", ":all:", "-d", str(folder)],
        check=True,
    )  # fmt: skip
    return folder / SDIST


def header(member: str, what: str, generated: bool = True) -> str:
    """The lines put before a file: where it comes from and under which licence."""
    made = f"Snowball {VERSION}'s Python backend" if generated else "the Snowball project"
    return (
        f"{what}, vendored: do not edit.\n"
        f"Written by `{COMMAND}`.\n"
        "\n"
        f"Source: {ROOT}{member}\n"
        f"  (sha256 {MEMBERS[member]})\n"
        f"  of the snowballstemmer {VERSION} sdist, {SDIST_URL}\n"
        f"  (sha256 {SDIST_SHA256}),\n"
        f"  by {made} (https://snowballstem.org/).\n"
        f"Licence: {LICENCE} (LICENSE in this folder).\n"
        f"{'; '.join(COPYRIGHT)}.\n"
    )


LICENSE_HEADER = (
    header("COPYING", f"The licence of vendor/: Snowball {VERSION}'s COPYING", False) + "\n"
).encode("ascii")


def is_license(data: bytes) -> bool:
    """Whether `data` is vendor/LICENSE as render writes it from the sdist's COPYING."""
    body = data.removeprefix(LICENSE_HEADER)
    return len(body) < len(data) and hashlib.sha256(body).hexdigest() == MEMBERS["COPYING"]


def _absolute_import(match: re.Match) -> str:
    module, name = match.groups()
    if module not in RUNTIME:
        raise SourceError(f"import of {module!r}, not a runtime module")
    return f"from {VENDOR_MODULE}.{module} import {name}"


def module_text(member: str, source: bytes) -> bytes:
    """The vendored module: the header as its docstring, then the source, its imports of
    the runtime made absolute (any other import is refused)."""
    text = source.decode("ascii")
    for line in text.splitlines():
        if line.startswith(("import ", "from ")) and not _IMPORT.fullmatch(line):
            raise SourceError(f"{member}: unexpected import {line!r}")
    what = f"Snowball {VERSION}'s Python {Path(member).stem}"
    doc = header(member, what) + (
        "Changed: this docstring; `from .module import name` made absolute.\n"
        "Kept as one module: generated code, as its generator wrote it.\n"
    )
    return f'"""{doc}"""\n\n{_IMPORT.sub(_absolute_import, text)}'.encode("ascii")


def render(sources: dict[str, bytes]) -> dict[str, bytes]:
    """vendor/'s files (name -> bytes) from the members read (LICENSE only if COPYING is
    among them)."""
    files = {
        "__init__.py": (
            f'"""Snowball {VERSION}\'s Python stemmers and runtime, vendored from the\n'
            f"snowballstemmer {VERSION} sdist ({SDIST_URL},\n"
            f"sha256 {SDIST_SHA256}): do not edit.\n"
            f"Written by `{COMMAND}`.\n"
            f"Licence: {LICENCE} (LICENSE here).\n"
            "\n"
            f"{textwrap.fill('Modules: ' + ', '.join((*RUNTIME, *STEMMERS)) + '.', 88)}\n"
            '"""\n'
        ).encode("ascii")
    }
    for module in (*RUNTIME, *STEMMERS):
        member = f"{PACKAGE}{module}.py"
        files[f"{module}.py"] = module_text(member, sources[member])
    if "COPYING" in sources:
        files["LICENSE"] = LICENSE_HEADER + sources["COPYING"]
    return dict(sorted(files.items()))


def tree_files(folder: Path = VENDOR) -> dict[str, bytes]:
    """The files of vendor/ as they are (name -> bytes), caches left out."""
    if not folder.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def write(files: dict[str, bytes], folder: Path = VENDOR) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--sdist", type=Path, help=f"a local {SDIST} (else pip downloads it)")
    source.add_argument(
        "--installed",
        action="store_true",
        help="the installed snowballstemmer (LICENSE: kept, if it is COPYING's)",
    )
    parser.add_argument("--check", action="store_true", help="compare with vendor/, write nothing")
    args = parser.parse_args(argv)
    if args.installed:
        files = render(read_installed())
        kept = tree_files().get("LICENSE", b"")
        if not is_license(kept):
            raise SourceError("vendor/LICENSE is not COPYING's: regenerate from the sdist")
        files = dict(sorted({**files, "LICENSE": kept}.items()))
    elif args.sdist:
        files = render(read_sdist(args.sdist))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            files = render(read_sdist(download_sdist(Path(tmp))))
    if args.check:
        tree = tree_files()
        differing = sorted(set(files) | set(tree), key=str)
        differing = [n for n in differing if files.get(n) != tree.get(n)]
        for name in differing:
            print(f"differs: vendor/{name}", file=sys.stderr)
        return 1 if differing else 0
    write(files)
    print(f"wrote {len(files)} files to {VENDOR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
