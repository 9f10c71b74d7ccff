"""The test hook that stops a run at a named stage, so a test can kill the process exactly there
(the crash-safety tests of ``fiderate period``): instrumentation, not a step of the run."""

from __future__ import annotations

import os
import sys
import time

PAUSE_ENV = "FIDERATE_TEST_PAUSE_AT"


def pause_point(stage: str) -> None:
    """Test hook: with FIDERATE_TEST_PAUSE_AT=<stage> the process announces the stage on stderr
    and sleeps, so a test can kill it at exactly this point. Does nothing otherwise."""
    if os.environ.get(PAUSE_ENV) == stage:
        sys.stderr.write(f"FIDERATE_PAUSED {stage}\n")
        sys.stderr.flush()
        time.sleep(3600)
