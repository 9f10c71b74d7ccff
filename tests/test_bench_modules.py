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
