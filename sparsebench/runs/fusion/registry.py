"""Every fusion method, by the name a config gives it (`method:`). A new method is a
module of this package with a FusionMethod (sparsebench.runs.fusion.base), its formula
and source in its docstring, and one entry here; the config schema, the fusion kind's
checks and fuse read this list."""

from __future__ import annotations

from sparsebench.core.errors import ConfigError
from sparsebench.runs.fusion import combmax, combmnz, combsum, isr, rrf, wsum
from sparsebench.runs.fusion.base import FusionMethod
from sparsebench.runs.fusion.norms import NORMS

METHODS: dict[str, FusionMethod] = {
    method.name: method
    for method in (
        rrf.METHOD,
        combsum.METHOD,
        combmnz.METHOD,
        combmax.METHOD,
        wsum.METHOD,
        isr.METHOD,
    )
}


def method_of(name: str) -> FusionMethod:
    try:
        return METHODS[name]
    except KeyError:
        raise ConfigError(f"fusion method {name!r}; one of {', '.join(METHODS)}") from None


def check_norm(name: str) -> None:
    if name not in NORMS:
        raise ConfigError(f"fusion norm {name!r}; one of {', '.join(NORMS)}")


def normalising() -> list[str]:
    """The methods that read normalised scores (`norm` plays a part)."""
    return [name for name, method in METHODS.items() if method.norm]


def weighted() -> list[str]:
    """The methods that take a weight per run."""
    return [name for name, method in METHODS.items() if method.weighted]
