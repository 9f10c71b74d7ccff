"""Title norms (GM, IM, WGM, WIM) the way the FIDE Qualification Commission checks them.

``rules`` holds one frozen rule table per title (Handbook B.01, each field with its section),
``games`` the games a norm counts, ``check`` the vectorized check, ``run`` the library behind
``fiderate norms``, ``render`` the table and JSON. The rules and their sources: docs/norms.md.
"""

from pipeline.norms.rules import NORM_RULES, NormRule
from pipeline.norms.run import NormReport, check_norms, norm_files, norm_inputs

__all__ = ["NORM_RULES", "NormReport", "NormRule", "check_norms", "norm_files", "norm_inputs"]
