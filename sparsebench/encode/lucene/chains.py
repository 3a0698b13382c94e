"""The Chain an analyzer is (see __init__); languages.py says which language gets which."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa


@dataclass(frozen=True)
class Chain:
    """One Lucene analyzer: its class, its two steps, and whether it is exact."""

    language: str
    lucene_class: str  # e.g. org.apache.lucene.analysis.de.GermanAnalyzer
    tokenize: Callable[[pa.Array], tuple[np.ndarray, pa.Array]]
    filter: Callable[[pa.Array], pa.Array]
    exact: bool = True  # token for token Lucene's (else: agreement measured, README)
