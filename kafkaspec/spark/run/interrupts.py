"""Ctrl-C and SIGTERM on a command that runs Spark: one line, exit 130, no process left behind.

Left to Python and py4j, the outcome depended on the moment: a ``KeyboardInterrupt`` inside the JVM's
start became "Spark did not start" (exit 2), one inside a py4j call printed py4j's tracebacks from
its threads, and a JVM whose start was cut short could outlive us (PySpark starts it ignoring
SIGINT, and its Python workers run in their own process group). So while the command runs, both
signals go to one handler that ends every process this one started (the JVM, the workers' daemon
and the workers: each stopped first, so that none starts another, then SIGTERM, then SIGKILL after a
grace period), writes the one line and leaves with ``os._exit(130)``: no ``finally`` block, atexit
hook or py4j thread runs after it. The output folder is then as a kill leaves it (docs/spark.md,
"What records/ holds after a kill"; the kernel drops the folder's lock). ``--follow`` sets its own
handler while it waits (:mod:`.incremental`): a first signal stops it cleanly, a second comes here.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from types import FrameType

#: seconds the processes get to end on SIGTERM (the JVM deletes its temporary folders) before SIGKILL
GRACE = 5.0
_KILLED_WAIT = 10.0  # seconds for SIGKILLed processes to end before end_descendants returns anyway
_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: the process states of /proc/<pid>/stat that mean ended: zombie, dead
_ENDED = (b"Z", b"X")
#: files of this run that a kill would leave and the handler deletes (Spark's log file, say)
_LEFT: list[str] = []


def leave_out(path: str) -> None:
    """Delete ``path`` if the run is interrupted (a temporary file of this run)."""
    _LEFT.append(path)


@contextlib.contextmanager
def interrupts(name: str) -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM end it, and every process this one started, with
    ``<name>: interrupted`` on stderr (written to the stderr of now, even if fd 2 is pointed elsewhere
    later, as while Spark starts) and exit status 130."""
    err = os.dup(2)
    line = f"{name}: interrupted\n".encode()

    def handle(signum: int, frame: FrameType | None) -> None:
        for s in _SIGNALS:
            signal.signal(s, signal.SIG_IGN)
        with contextlib.suppress(OSError):  # from now on only our line: threads that lose the JVM (py4j's
            quiet = os.open(os.devnull, os.O_WRONLY)  # servers) print tracebacks to stderr as it ends
            os.dup2(quiet, 2)
        with contextlib.suppress(BaseException):
            end_descendants()
        for path in _LEFT:
            with contextlib.suppress(OSError):
                os.unlink(path)
        with contextlib.suppress(OSError):
            os.write(err, line)
        os._exit(130)

    before = {s: signal.signal(s, handle) for s in _SIGNALS}
    try:
        yield
    finally:
        for s, h in before.items():
            signal.signal(s, h)
        os.close(err)
        _LEFT.clear()


def _parents() -> dict[int, int]:
    """pid -> parent pid of every running process now (from /proc; empty where there is none): a zombie,
    which has ended and waits for its parent to collect it, is none."""
    out = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    with open(f"/proc/{entry.name}/stat", "rb") as f:
                        stat = f.read()
                except OSError:
                    continue  # ended meanwhile
                # pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after its last ")"
                fields = stat[stat.rindex(b")") + 2 :].split()
                if fields[0] not in _ENDED:
                    out[int(entry.name)] = int(fields[1])
    return out


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` now (children, their children, ...)."""
    parents = _parents()
    found: set[int] = set()
    grew = True
    while grew:
        new = {p for p, pp in parents.items() if (pp == pid or pp in found) and p not in found}
        found |= new
        grew = bool(new)
    return found


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for its parent does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(b")") + 2 :].split()[0] not in _ENDED


def _send(pids: set[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, sig)


def end_descendants(grace: float = GRACE) -> None:
    """End every process below this one: stop them all (again until no new one appears, so that none
    forks another meanwhile), then SIGTERM and continue them, then SIGKILL what still runs after
    ``grace`` seconds. The tree is taken while it is whole: once the JVM ends, its children are
    another's."""
    me = os.getpid()
    tree: set[int] = set()
    while True:
        new = descendants(me) - tree
        if not new:
            break
        _send(new, signal.SIGSTOP)
        tree |= new
    if not tree:
        return
    _send(tree, signal.SIGTERM)
    _send(tree, signal.SIGCONT)
    if _wait_ended(tree, grace):
        return
    _send({p for p in tree if _alive(p)}, signal.SIGKILL)
    # SIGKILL cannot be refused, but on a loaded machine a process takes a while to end after it: wait for
    # that (bounded), so that nothing below us still runs when we return.
    _wait_ended(tree, _KILLED_WAIT)


def _wait_ended(tree: set[int], seconds: float) -> bool:
    """Wait up to ``seconds`` until none of ``tree`` runs; whether none does."""
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(ChildProcessError, OSError):
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass  # reap our own children (the JVM), so they read as gone
        if not any(_alive(p) for p in tree):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
