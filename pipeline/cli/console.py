"""The terminal side of a run: a rich summary table and a progress display.

Both are for people at a terminal only. When stdout is not a terminal the summary is the plain
text of ``pipeline.writers.summary`` (nothing decorative: no colour, no box drawing); the
progress display appears on stderr only when stderr is a terminal and the run has already
taken a second.
"""

from __future__ import annotations

import threading
from types import TracebackType
from typing import TYPE_CHECKING

from pipeline.errors import printable
from pipeline.model import RatedPeriod
from pipeline.resources.stage_board import StageBoard
from pipeline.writers import WriteReport
from pipeline.writers.summary import (
    headline,
    marked_k,
    movers,
    summary_lines,
)

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, ProgressColumn

# rich (about 0.06 s to import) is imported where something is drawn: a quiet run (no summary,
# no progress display) never loads it.

PROGRESS_AFTER_SECONDS = 1.0


def render_summary(
    result: RatedPeriod, report: WriteReport, console: Console, count: int = 5
) -> None:
    """The summary on ``console``: a table when it is a terminal, plain lines otherwise."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    if not console.is_terminal:
        for line in summary_lines(result, report, count):
            console.print(printable(line), markup=False, highlight=False, soft_wrap=True)
        return
    for i, line in enumerate(headline(result)):
        style = "bold" if i == 0 else ("bold yellow" if line.startswith("NOTE") else None)
        console.print(printable(line), style=style, markup=False, highlight=False)
    table = movers(result, count)
    if len(table):
        title = "biggest gains and losses" if len(table) == 2 * count else "rating changes"
        grid = Table(
            title=title,
            title_justify="left",
            header_style="bold",
            box=box.SIMPLE_HEAD,
            padding=(0, 1),
            pad_edge=False,
            collapse_padding=True,
        )
        for header, justify in (
            ("id", "right"),
            ("name", "left"),
            ("rating", "right"),
            ("K", "right"),
            ("games", "right"),
            ("score", "right"),
            ("exp.", "right"),
            ("exact", "right"),
            ("change", "right"),
            ("new", "right"),
        ):
            grid.add_column(
                header,
                justify=justify,  # type: ignore[arg-type]
                no_wrap=True,
                min_width=12 if header == "name" else None,
                overflow="ellipsis" if header == "name" else "fold",
            )
        for record in table.to_dict("records"):
            colour = "red" if record["change_exact"].startswith("-") else "green"
            if record["change_exact"] in ("0.00", ""):
                colour = ""
            # Names and ids come from the input: escaped (a name may hold an escape sequence
            # or "[/]", which rich would read as markup).
            record["k"] = marked_k(record)
            cells = [
                escape(printable(str(record[c])))
                for c in ("id", "name", "rating", "k", "games", "score", "expected")
            ]
            cells += [
                f"[{colour}]{record['change_exact']}[/]" if colour else record["change_exact"],
                f"[{colour}]{record['change']}[/]" if colour else record["change"],
                record["new_rating"],
            ]
            grid.add_row(*cells)
        console.print(grid)
    console.print("written:", style="bold")
    for path in report.written:
        console.print(f"  {printable(str(path))}", markup=False, highlight=False)


def _board_column(board: StageBoard) -> ProgressColumn:
    """A progress column showing the label on the job's stage board, read at each redraw (the
    job never calls us)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class BoardColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(board.label)

    return BoardColumn()


class DelayedProgress:
    """A spinner with the current stage and elapsed time, shown only if the run is slow.

    ``with DelayedProgress(enabled) as progress: job(..., progress=progress.board)``: the job
    posts each stage on the board, the spinner reads it when it redraws. Nothing is drawn when
    disabled, when stderr is not a terminal, or when the run ends within a second.
    """

    def __init__(
        self,
        enabled: bool = True,
        console: Console | None = None,
        delay: float = PROGRESS_AFTER_SECONDS,
    ) -> None:
        if console is None and enabled:
            from rich.console import Console

            console = Console(stderr=True)
        self.console = console
        self.enabled = enabled and console is not None and console.is_terminal
        self.delay = delay
        self._progress: Progress | None = None
        self.board = StageBoard()
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self.shown = False

    def _show(self) -> None:
        with self._lock:
            if self._timer is None:  # already stopped
                return
            from rich.progress import Progress, SpinnerColumn, TimeElapsedColumn

            self._progress = Progress(
                SpinnerColumn(),
                _board_column(self.board),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
            )
            self._progress.add_task("", total=None)
            self._progress.start()
            self.shown = True

    def stage(self, label: str) -> None:
        self.board.post(label)

    def __enter__(self) -> DelayedProgress:
        if self.enabled:
            self._timer = threading.Timer(self.delay, self._show)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._progress is not None:
                self._progress.stop()
                self._progress = None
