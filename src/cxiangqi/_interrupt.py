"""Ctrl-C for the compiled core's long work (see _sigint.pxd): whether a
SIGINT should stop it here, and handing a caught one to Python."""
from __future__ import annotations

import contextlib
import signal
import sys
import threading
from typing import Iterator, List


def catchable() -> bool:
    """True in the main thread while SIGINT has Python's default handler
    (KeyboardInterrupt): then C work stops on a SIGINT.  Not in other
    threads (the main thread's handler gets the signal), nor when the
    program set its own handler or ignores SIGINT: then the signal is the
    program's, as it always was (its handler runs once the C work ends)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    return signal.getsignal(signal.SIGINT) is signal.default_int_handler


def deliver() -> None:
    """For a SIGINT that stopped C work: what Python's default handler does
    (raise KeyboardInterrupt)."""
    signal.default_int_handler(signal.SIGINT, sys._getframe(1))


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Python code that must not be cut in two by KeyboardInterrupt (starting
    threads that something must stop later): a SIGINT meanwhile is held and
    raised at the end.  Only where catchable(); elsewhere nothing changes."""
    if not catchable():
        yield
        return
    held: List[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        if held:
            deliver()
