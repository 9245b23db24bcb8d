"""Child processes that die with their parent.

Workers and builds run in sessions of their own (so a timeout can kill a whole process group), which
also keeps the kill of an orchestrator from reaching them: a campaign killed with kill -9 left its
harness batch evaluating on the GPU beside the resumed run, and builds running on. Linux's
PR_SET_PDEATHSIG sends a signal to a process when its parent (the thread that started it) exits.
"""

import ctypes
import os
import signal

_PR_SET_PDEATHSIG = 1
# The pid a child is to die with, set by the parent in the child's environment (child_env): a forked
# child of the fork server, which outlives the server on purpose, never has it.
PARENT_PID_ENV = "UCUTLASS_PARENT_PID"


def child_env(env):
    """`env` for a child that is to die with this process (arm_from_env in the child)."""
    return dict(env, **{PARENT_PID_ENV: str(os.getpid())})


def arm_from_env(sig=signal.SIGKILL):
    """die_with_parent for the parent named by child_env; nothing when none is named."""
    parent = os.environ.get(PARENT_PID_ENV)
    return die_with_parent(sig, int(parent)) if parent else False


def die_with_parent(sig=signal.SIGKILL, parent=None):
    """Ask for `sig` when the parent exits; True when armed. Where the parent already left (we were
    re-parented before arming), the signal is sent now."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False  # not Linux: nothing to arm
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), sig)
    return True


def terminate_group_and_exit(signum, _frame):
    """SIGTERM handler of a build process leading its own process group: stop the compilers under it,
    then leave through SystemExit so `finally` blocks run (torch's extension build lock is released
    in one; a lock left behind makes every later import of that extension wait forever)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        os.killpg(0, signal.SIGTERM)
    except OSError:
        pass
    raise SystemExit(128 + signum)
