"""``--scheduler``: a malformed address is a usage error found before anything is read; an
unreachable scheduler is a clear failed run within a bounded time (issue 26, item 14)."""

from __future__ import annotations

import pytest

from pipeline.errors import RunError, UsageError
from pipeline.jobs.rate import dask_scheduler


@pytest.mark.parametrize(
    "address",
    ["tcp://10.0.0.5:8786", "10.0.0.5:8786", "tls://scheduler.example:8786", "inproc://x"],
)
def test_addresses_distributed_connects_to_are_accepted(address):
    dask_scheduler.check_scheduler_address(address)


@pytest.mark.parametrize(
    ("address", "says"),
    [
        ("nonsense", "missing port"),
        ("", "missing port"),
        ("foo://h:8786", "unknown address scheme"),
        ("tcp://h:port", "invalid literal"),
        ("tcp://h:0", "not a port"),
        ("tcp://h:65536", "not a port"),
    ],
)
def test_malformed_addresses_are_usage_errors(address, says):
    with pytest.raises(UsageError, match="not a Dask scheduler address") as refused:
        dask_scheduler.check_scheduler_address(address)
    assert says in str(refused.value) and "tcp://10.0.0.5:8786" in str(refused.value)


def test_an_unreachable_scheduler_is_a_run_error(monkeypatch):
    monkeypatch.setattr(dask_scheduler, "CONNECT_SECONDS", 1)  # 10 in use
    with pytest.raises(RunError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'"):
        dask_scheduler.connect("tcp://127.0.0.1:1")
