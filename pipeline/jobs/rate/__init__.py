"""``fiderate rate``: the job (:mod:`.job`: a :class:`RateRequest` in, a :class:`RateResult`
out), the read-check-rate stages both engines share (:mod:`.stages`), the output stage
(:mod:`.outputs`) and the Dask engine (:mod:`.dask_executor`, :mod:`.dask_scheduler`).

The job's names are re-exported here: ``from pipeline.jobs.rate import RateRequest, rate``.
"""

from pipeline.jobs.rate.job import (
    MAX_INPUT_BYTES,
    DaskCounts,
    RateOutputs,
    RateRequest,
    RateResult,
    rate,
)

__all__ = ["MAX_INPUT_BYTES", "DaskCounts", "RateOutputs", "RateRequest", "RateResult", "rate"]
