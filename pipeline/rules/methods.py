"""The two ways an expected score is computed, and the unit each keeps it in.

``fide``: FIDE's table 8.1.2 (B.02), expected scores in hundredths, as the table prints them;
``formula``: the logistic formula 1 / (1 + 10^(-D/400)), kept in millionths (the online
calculators' method). Every sum over sides stays an exact integer in these units.
"""

from __future__ import annotations

SCALES = {"fide": 100, "formula": 1_000_000}
