"""Title norms (GM, IM, WGM, WIM) the way the FIDE Qualification Commission checks them.

``rules`` holds one frozen rule table per title (Handbook B.01, each field with its section),
``games`` the games a norm counts, ``check`` the vectorized check, ``report`` the norm table of
read events, ``render`` the text table and JSON; ``pipeline.run.norms`` reads the files. The rules
and their sources: docs/norms.md.
"""

from pipeline.norms.report import check_norms, norm_inputs
from pipeline.norms.rules import NORM_RULES, NormRule

__all__ = ["NORM_RULES", "NormRule", "check_norms", "norm_inputs"]
