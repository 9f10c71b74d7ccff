"""Title norms (GM, IM, WGM, WIM) the way the FIDE Qualification Commission checks them.

``rules`` holds one frozen rule table per title (Handbook B.01, each field with its section),
``norm_games`` the games a norm counts, ``requirements`` the vectorized check, ``report`` the
norm table of read events, ``norm_text`` the text table and JSON; ``pipeline.jobs.norms`` reads
the files. The rules and their sources: docs/norms.md.

Names are imported on first use, so the CLI reads ``NORM_RULES`` (its ``--title`` choices)
without loading pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_names

if TYPE_CHECKING:
    from pipeline.norms.report import check_norms, norm_inputs
    from pipeline.norms.rules import NORM_RULES, NormRule

_HOMES = {
    "check_norms": "pipeline.norms.report",
    "norm_inputs": "pipeline.norms.report",
    "NORM_RULES": "pipeline.norms.rules",
    "NormRule": "pipeline.norms.rules",
}

__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())

__all__ = ["NORM_RULES", "NormRule", "check_norms", "norm_inputs"]
