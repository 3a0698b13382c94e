"""Where the plan and its jobs import from: the module of a custom encoder (`kind:
python`) beside the config file that names it first, as a relative path in that file
would be found; then this checkout's library; then the working directory.

The checkout's folder holds files of its own (and, in a tutorial, copies a user edits):
were it first, a module of the same name there would silently stand in for the one beside
the config, and editing the one beside the config would rerun nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sparsebench.core.errors import ConfigError


def config_folders(files: Sequence[str | Path]) -> list[str]:
    """The folders of the config files, in their order."""
    return list(dict.fromkeys(str(Path(f).resolve().parent) for f in files))


def import_path(
    library: str | Path, config_files: Sequence[str | Path], cwd: str | Path
) -> list[str]:
    """The folders to import from, first first: the config files' folders, the folder
    holding the library (`library`, the Snakefile's), the working directory. A config
    folder with a sparsebench of its own is refused: the jobs would import it in place of
    the library the plan was made with."""
    library = str(Path(library).resolve())
    folders = config_folders(config_files)
    for folder in folders:
        path = Path(folder)
        if folder != library and (
            (path / "sparsebench").is_dir() or (path / "sparsebench.py").is_file()
        ):
            raise ConfigError(
                f"the config folder {folder} holds a sparsebench of its own, which the jobs "
                f"would import instead of the library in {library}: keep the config file in "
                "another folder"
            )
    return list(dict.fromkeys([*folders, library, str(Path(cwd).resolve())]))
