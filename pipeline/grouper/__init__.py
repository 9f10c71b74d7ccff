"""Grouper: per-player period totals, K and the rounded change."""

from pipeline.grouper.kfactor import apply_700_rule, base_k
from pipeline.grouper.totals import period_totals

__all__ = ["apply_700_rule", "base_k", "period_totals"]
