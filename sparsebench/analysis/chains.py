"""The Chain an analyzer is (see __init__); languages.py says which language gets which."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

# texts -> (the text index of each token, the tokens)
Tokenize = Callable[[pa.Array], tuple[np.ndarray, pa.Array]]


@dataclass(frozen=True)
class Chain:
    """One analyzer's two steps (which Lucene class it is, and whether exactly:
    languages.LANGUAGES)."""

    language: str
    tokenize: Tokenize
    filter: Callable[[pa.Array], pa.Array]
