"""`make bench` runs every benchmarks/bench_*.py module as ``main(quick)``: each module must take
exactly that (a module whose ``main`` wants something else breaks the whole ``make bench``)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import benchmarks

MODULES = sorted(
    m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
)


@pytest.mark.parametrize("name", MODULES)
def test_each_benchmark_takes_quick(name):
    main = importlib.import_module(f"benchmarks.{name}").main
    parameters = list(inspect.signature(main).parameters.values())
    assert [p.name for p in parameters] == ["quick"], f"{name}.main{inspect.signature(main)}"
    assert parameters[0].annotation in (bool, "bool")


def test_the_duplicate_event_bench_still_reads_as_the_library_does(capsys):
    # A bench that calls a reader by hand breaks when the reader's result changes shape (it did:
    # read_event_inputs gained its warnings); its quick run takes seconds, so run it.
    from benchmarks import bench_duplicate_events

    bench_duplicate_events.main(True)
    out = capsys.readouterr().out
    assert "1,000 renamed copies" in out and "refusing 1,000 copies" in out
