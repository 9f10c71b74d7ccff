"""Where a running job posts the stage it is in, for a progress display to read.

A value the job writes, not a callback into its caller: a job never calls back up into the CLI
or a web page while it runs (its way stays one pass down the floors), and a display reads the
board on its own thread when it redraws (a terminal's spinner does, ten times a second).
"""

from __future__ import annotations


class StageBoard:
    """The label of the stage a job is in (``label``), and every label posted, in order."""

    def __init__(self, label: str = "starting") -> None:
        self.label = label
        self.posted: list[str] = []

    def post(self, label: str) -> None:
        # Two plain assignments: a reader on another thread sees the old label or the new one.
        self.posted.append(label)
        self.label = label
