"""The report model: what a rated event shows (:class:`EventReport`), built once per run by
:func:`build_report` and rendered by every face (writers, web pages), which compute nothing."""

from pipeline.report.event_report import AssumedK, EventReport, build_report

__all__ = ["AssumedK", "EventReport", "build_report"]
