"""Grouper: per-player period totals, K and the rounded change.

Names are imported on first use, so ``pipeline.grouper.performance`` (the calculator's) loads
neither pandas nor pyarrow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_names

if TYPE_CHECKING:
    from pipeline.grouper.kfactor import apply_700_rule, base_k

_HOMES = {
    "apply_700_rule": "pipeline.grouper.kfactor",
    "base_k": "pipeline.grouper.kfactor",
}


__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())

__all__ = ["apply_700_rule", "base_k"]
