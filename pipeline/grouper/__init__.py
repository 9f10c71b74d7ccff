"""Grouper: per-player period totals, K and the rounded change.

Names are imported on first use, so ``pipeline.grouper.performance`` (the calculator's) loads
neither pandas nor pyarrow.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.grouper.kfactor import apply_700_rule, base_k
    from pipeline.grouper.totals import period_totals

_HOMES = {
    "apply_700_rule": "pipeline.grouper.kfactor",
    "base_k": "pipeline.grouper.kfactor",
    "period_totals": "pipeline.grouper.totals",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pipeline.grouper' has no attribute {name!r}")
    return getattr(import_module(home), name)


__all__ = ["apply_700_rule", "base_k", "period_totals"]
