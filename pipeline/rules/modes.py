"""The two ways a period can be rated (``RateOptions.mode``), and the label every report of
the one that is not FIDE's carries (``pipeline.engine.sequential`` rates it)."""

MODES = ("fide", "sequential")
SEQUENTIAL_LABEL = (
    "sequential mode: the rating is updated after every game (club calculators); "
    "NOT the FIDE method, which rates the whole period against the start rating"
)


def mode_label(mode: str) -> str:
    """'' for the FIDE method, else the label every report of ``mode`` must carry."""
    return SEQUENTIAL_LABEL if mode == "sequential" else ""
