"""Jobs: one function per command, taking a frozen request and returning a result value; the CLI
and the web page call these and only render what they return.

A command with stages of its own has a package: ``rate/`` (``fiderate rate``: the job, the
stages both engines share, the output stage, the Dask engine) and ``period/`` (``fiderate
period``: the job and its stages). The others are one module each: ``calculators`` (``calc``,
``performance``), ``convert``, ``norms``, ``validate``, ``player_history`` (``history``), and
``plan`` (the run's plan and the refusals, shared by ``rate`` and ``period``). The FIDE rules of
a new list are in :mod:`pipeline.lists`, the history store in :mod:`pipeline.history`.
"""
