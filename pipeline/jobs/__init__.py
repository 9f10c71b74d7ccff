"""Jobs: one function per command, taking a frozen request and returning a result value; the CLI
and the web page call these and only render what they return.

``period.run_period`` is ``fiderate period``: a :class:`~pipeline.jobs.period.PeriodRequest` in,
a :class:`~pipeline.jobs.period.PeriodOutcome` out; ``player_history.run_history`` is
``fiderate history``. The period's stages are the ``period_*`` modules here;
the FIDE rules of a new list are in :mod:`pipeline.lists`, the history store in
:mod:`pipeline.history`.
"""
