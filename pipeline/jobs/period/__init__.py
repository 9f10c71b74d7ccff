"""``fiderate period``: the job (:mod:`.job`: a :class:`PeriodRequest` in, a
:class:`PeriodOutcome` out) and its stages, one module each: the inputs' events (:mod:`.events`)
and players (:mod:`.players`), the lists before it (:mod:`.earlier_lists`), the rating
(:mod:`.rating`), the results kept for first ratings (:mod:`.results`), the problems of an inbox
(:mod:`.inbox_problems`) and the scheduled run's choices (:mod:`.schedule`).

The job's names are re-exported here:
``from pipeline.jobs.period import PeriodRequest, run_period``.
"""

from pipeline.jobs.period.job import PeriodOutcome, PeriodRequest, run_period

__all__ = ["PeriodOutcome", "PeriodRequest", "run_period"]
