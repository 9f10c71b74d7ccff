"""Engine: per-game expected scores and deviations (no aggregation here)."""

from pipeline.engine.expected import SCALES, expected_units
from pipeline.engine.rate_sides import rate_sides

__all__ = ["SCALES", "expected_units", "rate_sides"]
