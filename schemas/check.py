"""Run a pandera schema lazily and report failures as Problems (grouped, readable)."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pandera.api.pandas.model as _pandera_model
import pandera.pandas as pa
from pandera.engines import pandas_engine as _pandas_engine
from pandera.typing import Index, Series

from pipeline.errors import Code, InputError, Problem, RunError, format_problems


def skip_dask_typing_import() -> bool:
    """Answer pandera's "which Series/Index annotation types exist?" with the pandas ones, so
    that building a DataFrameModel does not import dask.dataframe (about 2 s of the start-up of
    a ``fiderate rate`` run that never touches Dask). Returns whether it did.

    Why the answer is the same: pandera asks ``get_series_types``/``get_index_types`` to
    recognise annotations; it returns pandera.typing's Series/Index plus the Dask (and other
    back-ends') types it can import. Every model in ``schemas/`` annotates pandera.typing's
    Series and Index only, so the other types can never match here. A process that has loaded
    dask.dataframe (the Dask engine) keeps pandera's own lookup. This replaces two functions of
    ``pandera.api.pandas.model`` (internal API): tests/test_schemas_startup.py checks that the
    models still build, and build without importing dask.
    """
    if "dask.dataframe" in sys.modules:
        return False
    _pandera_model.get_index_types = lambda: {Index}  # type: ignore[assignment]
    _pandera_model.get_series_types = lambda: {Series}  # type: ignore[assignment]
    return True


skip_dask_typing_import()


def string_dtype_check_whole_column() -> None:
    """Have pandera's text dtype check (``Series[str]``, pandas' ``str``) answer a column that
    passes with ``True``, not with one ``True`` per row, so that a passing column skips the
    failure report pandera otherwise builds: the failing rows (none), reshaped into a frame,
    and that frame printed into a message nobody reads (0.1-1 ms a column, 30-odd ms of a
    ``fiderate rate`` run: its 25 text columns at five boundaries, and the first print imports
    pandas' formatting code).

    Why the verdict is the same: pandera's backend (``check_dtype``) takes a ``bool`` answer as
    the verdict, and an array answer as the verdict ``answer.all()`` with the rows where it is
    False as failure cases; a passing check's report is dropped unread. So an all-``True``
    array and ``True`` pass alike, and every other answer (a column of the wrong dtype, an
    object column with a non-text value) is returned as pandera gave it.
    ``STRING.check`` answers one ``True`` per row exactly when the column's dtype is a pandas
    text dtype (pandera 0.35, pandas 3). This replaces a method of
    ``pandera.engines.pandas_engine.STRING`` (internal API): tests/test_schemas_startup.py
    checks that text columns still fail as before."""
    string_check = _pandas_engine.STRING.check
    if getattr(string_check, "whole_column", False):
        return

    def check(self, pandera_dtype, data_container=None):  # type: ignore[no-untyped-def]
        verdict = string_check(self, pandera_dtype, data_container)
        if type(verdict) is np.ndarray and verdict.dtype == np.bool_ and verdict.all():
            return True
        return verdict

    check.whole_column = True  # type: ignore[attr-defined]
    check.__wrapped__ = string_check  # type: ignore[attr-defined]
    _pandas_engine.STRING.check = check  # type: ignore[method-assign]


string_dtype_check_whole_column()


def prepare_for_threads(*models: type[pa.DataFrameModel]) -> None:
    """Build ``models``' schemas and register pandera's pandas back-ends on this thread, before
    jobs that validate run on several threads at once (a period reads its list and its events
    side by side).

    Why: a period run under load once failed with "RuntimeError: dictionary changed size during
    iteration". The state those two threads share and change is what pandera sets up on first
    use: it imports its back-ends and strategies (and hypothesis, whose ``lambda_sources``
    iterates ``sys.modules.items()`` unguarded while the other thread's import adds to it) and
    fills class-level registries (``BACKEND_REGISTRY``). Done here first, the threads only read
    them. The error was not reproduced on demand; tests/history/test_period_history_guard.py
    checks that none of it happens on the threads. Cheap: each step is done once per process."""
    for model in models:
        model.to_schema()
    pa.DataFrameSchema.get_backend(check_type=pd.DataFrame)
    pa.Check.get_backend(pd.Series(dtype=object))
    pa.Check.get_backend(pd.DataFrame())


def validate(
    frame: pd.DataFrame, model: type[pa.DataFrameModel], source: str = "", internal: bool = False
) -> pd.DataFrame:
    """Validate ``frame`` against ``model``; raise InputError with one Problem per failure group.

    Rows are reported by the frame's ``line`` column when it has one (the row number in the file).
    ``internal`` marks a boundary after the readers: a failure there is a bug, not bad input.
    """
    try:
        return model.validate(frame, lazy=True, inplace=True)
    except pa.errors.SchemaErrors as exc:
        problems = _problems(exc.failure_cases, frame, model, source)
        if internal:
            raise RunError(
                "internal consistency check failed (please report this with the input files):\n"
                + format_problems(problems)
            ) from None
        raise InputError(problems) from None


def _problems(
    cases: pd.DataFrame, frame: pd.DataFrame, model: type[pa.DataFrameModel], source: str
) -> list[Problem]:
    problems = []
    lines = frame["line"] if "line" in frame.columns else None
    # Group pandera's one-row-per-failure report by (column, check): one Problem per bad cell,
    # at most 20 per group with a count of the rest.
    for (column, check), group in cases.groupby(["column", "check"], dropna=False, sort=False):
        col = "" if pd.isna(column) else str(column)
        shown = group.head(20)
        for _, case in shown.iterrows():
            index = case["index"]
            row = None
            if lines is not None and pd.notna(index) and index in frame.index:
                row = int(lines.loc[index])
            problems.append(
                Problem(
                    Code.MISSING_COLUMN if "column_in_dataframe" in str(check) else Code.BAD_VALUE,
                    f"{model.__name__}: {col or 'table'} fails {check}",
                    file=source
                    or (str(frame["source"].iloc[0]) if "source" in frame and len(frame) else ""),
                    row=row,
                    column=col,
                    value=None if pd.isna(case["failure_case"]) else str(case["failure_case"]),
                    fix="an internal consistency check: please report it with the input file",
                )
            )
        if len(group) > len(shown):
            problems.append(
                Problem(
                    Code.BAD_VALUE, f"... and {len(group) - len(shown)} more like it", column=col
                )
            )
    return problems
