"""``--scheduler ADDRESS``: the Dask scheduler a run connects to, checked before anything is
read (a malformed address is a usage error) and reached within a bounded time (an unreachable
one is a failed run with a clear message, not distributed's traceback).

Dask is imported on call only: the pandas path never loads it.
"""

from __future__ import annotations

from typing import Any

from pipeline.errors import RunError, UsageError

# How long to try to reach a scheduler before the run fails. distributed retries a refused
# connection until its own timeout (30 s); a scheduler that is up answers in well under a second.
CONNECT_SECONDS = 10
EXAMPLE = "tcp://10.0.0.5:8786"


def check_scheduler_address(address: str) -> None:
    """Raise :class:`UsageError` unless ``address`` is one distributed can connect to
    (``[scheme://]host:port`` with a scheme distributed knows, or ``inproc://...``)."""
    from distributed.comm.addressing import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    try:
        scheme, _ = parse_address(address, strict=False)
        get_backend(scheme)
        if scheme != "inproc":  # an in-process address has no host or port
            _, port = get_address_host_port(address)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not a port (1 to 65535)")
    except ValueError as exc:
        raise UsageError(
            f"--scheduler {address!r} is not a Dask scheduler address ({exc}); "
            f"write SCHEME://HOST:PORT, e.g. {EXAMPLE}"
        ) from None


def connect(address: str) -> Any:
    """A ``distributed.Client`` on the scheduler at ``address``, or :class:`RunError` when it
    cannot be reached within :data:`CONNECT_SECONDS`."""
    from distributed import Client

    check_scheduler_address(address)
    try:
        return Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        raise RunError(
            f"cannot reach the Dask scheduler at {address!r} within {CONNECT_SECONDS} s ({exc}). "
            "Nothing was written. Check the address and that the scheduler is running "
            "(`dask scheduler` prints its address), or leave out --scheduler to run on a local "
            "cluster."
        ) from None
