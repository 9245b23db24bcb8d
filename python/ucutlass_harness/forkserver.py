"""Fork server: isolated workers forked from a process that has already imported torch.

A fresh ``python3 -m ucutlass_harness _worker`` pays several seconds of
``import torch`` before it does anything. The fork server pays that once per
orchestrating process: ``python3 -m ucutlass_harness _forkserver SOCKET`` imports
torch and the harness modules (never torch._dynamo / torch._inductor, whose
config is read from the environment at import), NEVER initializes CUDA, and then
forks one child per task. The child is the worker: it starts a new session
(os.setsid, so the client kills its whole process group on timeout exactly as
for a spawned worker), points fd 0/1/2 at /dev/null and the task's stdout/stderr
files, takes the task's complete environment, cwd, sys.path and sys.argv, and
runs worker.worker_main, which leaves with os._exit. Each task still gets a new
process and, on a GPU, a new CUDA context (created in the child, never in the
server).

Protocol (one Unix-socket connection per task, JSON lines):
  client -> server  {"argv": [task, result, progress], "out": path, "err": path,
                     "env": {full environment}, "cwd": path}
  server -> client  {"pid": N}  or  {"refused": reason}
  server -> client  {"exit": returncode}   (subprocess convention: -N = killed by signal N)
A refused task, a server that cannot start, or UCUTLASS_FORKSERVER=0 means the
caller spawns a fresh interpreter as before. The server refuses to fork when
CUDA is initialized (torch says so, or a NVIDIA device file is open in it), when it has a second Python thread, or when the task's
environment differs from the server's in a variable that may already have been
read at start-up or import (IMPORT_TIME_ENV / IMPORT_TIME_PREFIXES).

The server leaves when its stdin (a pipe held by the orchestrator) closes, killing
the process groups of children still running; a client that disconnects before
its child exits gets that child's group killed too.
"""

import atexit
import importlib
import json
import os
import select
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

# Environment variables that must NOT differ between the server and a task, because
# the interpreter, the C runtime, OpenMP/BLAS or `import torch` may already have read
# them in the server (a task that changes one is spawned instead). Everything else
# may differ per task: it is read at call time (TORCH_EXTENSIONS_DIR, compilers), at
# CUDA initialization (CUDA_VISIBLE_DEVICES: that happens in the child), or by
# torch._inductor / triton, which the server never imports (TORCHINDUCTOR_*, TRITON_*).
IMPORT_TIME_ENV = {"LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP", "GLIBC_TUNABLES", "CUDA_HOME", "CUDA_PATH",
                   "ROCM_HOME", "ROCM_PATH", "HIP_PATH"}
IMPORT_TIME_PREFIXES = ("PYTHON", "LD_", "MALLOC_", "LC_", "OMP_", "KMP_", "GOMP_", "MKL_", "OPENBLAS_",
                        "GOTO_", "BLIS_", "NUMEXPR_", "NPY_", "NUMPY_", "TORCH_", "PYTORCH_")
# ... except these, read at call time or at CUDA initialization.
CALL_TIME_ENV = {"PYTHONPATH", "TORCH_EXTENSIONS_DIR", "TORCH_CUDA_ARCH_LIST"}
FORK_SAFE_PREFIXES = ("TORCHINDUCTOR_", "TRITON_")
# Modules whose import freezes environment-dependent configuration.
FROZEN_IF_IMPORTED = ("torch._dynamo", "torch._inductor", "triton")

STARTUP_TIMEOUT_S = float(os.environ.get("UCUTLASS_FORKSERVER_STARTUP_S", "300"))
MAX_RESTARTS = 3


def enabled():
    return os.environ.get("UCUTLASS_FORKSERVER", "1").strip().lower() not in ("0", "no", "off", "false")


# --------------------------------------------------------------------------- server

def _send(conn, obj):
    try:
        conn.sendall((json.dumps(obj) + "\n").encode())
        return True
    except OSError:
        return False


def _killpg(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def preload_modules():
    """Modules the server imports before serving, from UCUTLASS_FORKSERVER_PRELOAD (a comma list)."""
    return [m.strip() for m in os.environ.get("UCUTLASS_FORKSERVER_PRELOAD", "").split(",") if m.strip()]


def _frozen_modules():
    return sorted(m for m in FROZEN_IF_IMPORTED if m in sys.modules)


def cuda_driver_initialized():
    """True when the CUDA driver has been initialized in this process, which makes fork() unsafe:
    a driver initialized before fork() is unusable in the child. cuInit opens the NVIDIA device
    files (/dev/nvidiactl, /dev/nvidia0, /dev/nvidia-uvm), so an open one means it ran, whatever
    called it (torch.cuda.is_initialized() misses e.g. a device count taken through the runtime
    API). Merely mapping libcuda opens none: on the H200 `import torch` plus the profiler maps it
    (CUPTI links it) without initializing anything, and the earlier test "is libcuda mapped" kept
    the server from ever serving there, so every task paid a fresh interpreter."""
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("/dev/nvidia"):
                return True
        except OSError:
            continue
    return False


def env_conflicts(server_env, task_env):
    """Variables whose value differs and that the server may already have consumed."""
    keys = set(server_env) | set(task_env)
    bad = []
    for k in sorted(keys):
        if server_env.get(k) != task_env.get(k):
            if k in CALL_TIME_ENV or not (k in IMPORT_TIME_ENV or k.startswith(IMPORT_TIME_PREFIXES)):
                continue
            bad.append(k)
    return bad


class Server:
    def __init__(self, sock_path, env0=None):
        self.sock_path = sock_path
        self.env0 = dict(os.environ) if env0 is None else dict(env0)
        self.cwd0 = os.getcwd()
        self.path0 = list(sys.path)
        self.argv0 = sys.argv[0]
        self.children = {}  # pid -> connection (or None once the client left)
        self.conn_of = {}  # connection -> pid
        self.buf = {}
        self.sel = selectors.DefaultSelector()

    def refuse_reason(self, req):
        import torch
        if torch.cuda.is_initialized():
            return "CUDA is initialized in the fork server"
        if cuda_driver_initialized():
            return "the CUDA driver is initialized in the fork server (a /dev/nvidia* file is open)"
        if threading.active_count() != 1:
            return f"fork server has {threading.active_count()} Python threads"
        bad = env_conflicts(self.env0, req.get("env") or {})
        if bad:
            return f"environment differs in variables read at import: {bad[:8]}"
        frozen = _frozen_modules()
        changed = [k for k in set(self.env0) | set(req.get("env") or {})
                   if k.startswith(FORK_SAFE_PREFIXES) and self.env0.get(k) != req["env"].get(k)]
        if frozen and changed:
            return f"{frozen} imported in the fork server; {changed[:4]} would not take effect"
        return None

    def serve(self):
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.sock_path)
        listener.listen(64)
        self.listener = listener
        self.wake_r, wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(wake_w, False)
        self.wake_w = wake_w
        signal.signal(signal.SIGCHLD, lambda *a: None)
        signal.set_wakeup_fd(wake_w)
        self.sel.register(listener, selectors.EVENT_READ, "listen")
        self.sel.register(self.wake_r, selectors.EVENT_READ, "wake")
        self.sel.register(sys.stdin.fileno(), selectors.EVENT_READ, "stdin")
        # Ready: the client reads this one line, then our stdout goes quiet.
        os.write(1, b"ready\n")
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
        while True:
            for key, _ in self.sel.select(timeout=1.0):
                what = key.data
                if what == "listen":
                    try:
                        conn, _ = listener.accept()
                    except OSError:
                        continue
                    conn.setblocking(False)
                    self.buf[conn] = b""
                    self.sel.register(conn, selectors.EVENT_READ, "conn")
                elif what == "wake":
                    try:
                        while os.read(self.wake_r, 4096):
                            pass
                    except (BlockingIOError, OSError):
                        pass
                elif what == "stdin":
                    try:
                        data = os.read(sys.stdin.fileno(), 4096)
                    except OSError:
                        data = b""
                    if not data:
                        self.shutdown()
                else:
                    try:
                        self.on_conn(key.fileobj)
                    except Exception as e:  # one bad connection must not end the server
                        sys.stderr.write(f"fork server: {type(e).__name__}: {e}\n")
                        self.drop(key.fileobj)
            self.reap()

    def on_conn(self, conn):
        try:
            data = conn.recv(1 << 20)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # client left: its child (if any) goes too
            pid = self.conn_of.pop(conn, None)
            if pid is not None and pid in self.children:
                self.children[pid] = None
                _killpg(pid)
            self.drop(conn)
            return
        if conn in self.conn_of:
            return  # nothing more is expected on a connection with a running child
        self.buf[conn] += data
        if b"\n" not in self.buf[conn]:
            return
        line = self.buf.pop(conn).split(b"\n", 1)[0]
        self.buf[conn] = b""
        try:
            req = json.loads(line)
            reason = self.refuse_reason(req)
        except Exception as e:  # a malformed request must not take the server down
            reason = f"bad request: {type(e).__name__}: {e}"
        if reason:
            conn.setblocking(True)
            _send(conn, {"refused": reason})
            self.drop(conn)
            return
        try:
            pid = os.fork()
        except OSError as e:
            conn.setblocking(True)
            _send(conn, {"refused": f"fork failed: {e}"})
            self.drop(conn)
            return
        if pid == 0:
            self.child(req, conn)  # never returns
        self.children[pid] = conn
        self.conn_of[conn] = pid
        conn.setblocking(True)
        if not _send(conn, {"pid": pid}):
            _killpg(pid)
        conn.setblocking(False)

    def drop(self, conn):
        try:
            self.sel.unregister(conn)
        except (KeyError, ValueError):
            pass
        self.buf.pop(conn, None)
        try:
            conn.close()
        except OSError:
            pass

    def reap(self):
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            rc = os.waitstatus_to_exitcode(status)
            _killpg(pid)  # grandchildren left in the child's session
            conn = self.children.pop(pid, None)
            if conn is not None:
                self.conn_of.pop(conn, None)
                conn.setblocking(True)
                _send(conn, {"exit": rc})
                self.drop(conn)

    def shutdown(self):
        for pid in list(self.children):
            _killpg(pid)
        # The client made this folder for this server (socket, log); an orchestrator
        # killed outright cannot remove it.
        shutil.rmtree(os.path.dirname(self.sock_path), ignore_errors=True)
        os._exit(0)

    # ---- inside the forked child ------------------------------------------
    def child(self, req, conn):
        code = 70
        try:
            os.setsid()
            signal.set_wakeup_fd(-1)
            for s in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
                signal.signal(s, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self.sel.close()
            for c in list(self.buf) + [conn, self.listener]:
                try:
                    c.close()
                except OSError:
                    pass
            for fd in (self.wake_r, self.wake_w):
                try:
                    os.close(fd)
                except OSError:
                    pass
            env = req["env"]
            cwd = req.get("cwd") or self.cwd0
            os.chdir(cwd)
            fd_in = os.open(os.devnull, os.O_RDONLY)
            fd_out = os.open(req["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            fd_err = os.open(req["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            for fd, target in ((fd_in, 0), (fd_out, 1), (fd_err, 2)):
                os.dup2(fd, target)
                os.close(fd)
            os.environ.clear()
            os.environ.update(env)
            sys.path[:] = self.child_sys_path(env, cwd)
            sys.argv[:] = [self.argv0, "_worker"] + list(req["argv"])
            import random
            random.seed()  # a spawned worker would not share the server's random state
            from . import worker
            worker.worker_main(*req["argv"])
        except BaseException:
            try:
                import traceback
                traceback.print_exc()
                sys.stderr.flush()
            except BaseException:
                pass
        finally:
            os._exit(code)

    def child_sys_path(self, env, cwd):
        """sys.path as `python3 -m` started in `cwd` with the task's PYTHONPATH would have it."""
        def entries(pp):
            return [os.path.abspath(p) for p in (pp or "").split(os.pathsep) if p]
        old, new = entries(self.env0.get("PYTHONPATH")), entries(env.get("PYTHONPATH"))
        path = list(self.path0)
        head = path[:1]
        rest = path[1:]
        if rest[:len(old)] == old:
            rest = rest[len(old):]
        if head == [self.cwd0]:
            head = [cwd]
        return head + new + [p for p in rest if p not in new]


def server_main(sock_path):
    # Import what workers need, but not torch._dynamo / torch._inductor (see FROZEN_IF_IMPORTED) unless
    # UCUTLASS_FORKSERVER_PRELOAD names them: every evaluation's profiler imports torch._dynamo (4.4 s
    # on the CPU machine; the H200's timing phase, profiler included, took 3.8-6.8 s on 2026-11-30).
    # Preloaded, a task whose TORCHINDUCTOR_* / TRITON_* differ from the server's is refused
    # (refuse_reason) and spawned instead. Tasks are compared with the environment from before the
    # imports: an import may set a variable (torch._dynamo sets TORCHINDUCTOR_CACHE_DIR to its
    # default), as it would in a spawned worker too.
    env0 = dict(os.environ)
    import torch  # noqa: F401
    from . import baselines, evaluate, worker  # noqa: F401
    for name in preload_modules():
        importlib.import_module(name)
    if torch.cuda.is_initialized() or cuda_driver_initialized():
        sys.stderr.write("fork server: CUDA got initialized during imports; not serving\n")
        os._exit(3)
    Server(sock_path, env0).serve()


# --------------------------------------------------------------------------- client

class _Unavailable(Exception):
    pass


class Client:
    """One fork server per orchestrating process, started on first use; thread-safe."""

    def __init__(self):
        self.lock = threading.Lock()
        self.proc = None
        self.dir = None
        self.sock_path = None
        self.disabled = None  # reason, once we gave up on the fork server
        self.starts = 0

    def _alive(self):
        return self.proc is not None and self.proc.poll() is None

    def _start(self, base_env):
        self._remove_dir()
        self.dir = tempfile.mkdtemp(prefix="ucutlass_forkserver_")
        self.sock_path = os.path.join(self.dir, "sock")
        log_path = os.path.join(self.dir, "server.log")
        err = open(log_path, "wb")
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", "ucutlass_harness", "_forkserver", self.sock_path],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                         env=base_env, start_new_session=True)
        finally:
            err.close()
        self.starts += 1
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        line = b""
        fd = self.proc.stdout.fileno()
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self._stop()
                raise _Unavailable(f"fork server not ready after {STARTUP_TIMEOUT_S:g} s")
            chunk = os.read(fd, 64)
            if not chunk:
                self.proc.wait()
                tail = ""
                try:
                    with open(log_path, encoding="utf-8", errors="replace") as f:
                        tail = f.read()[-500:]
                except OSError:
                    pass
                rc = self.proc.returncode
                self.proc = None
                raise _Unavailable(f"fork server exited with {rc} at startup: {tail.strip()}")
            line += chunk
        self.proc.stdout.close()

    def _remove_dir(self):
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def _stop(self):
        p, self.proc = self.proc, None
        if p is not None:
            try:
                p.stdin.close()  # the server kills its children and leaves
            except OSError:
                pass
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                _killpg(p.pid)
                p.wait()
        self._remove_dir()

    def ensure(self, base_env):
        with self.lock:
            if self.disabled:
                return None
            if self._alive():
                return self.sock_path
            if self.proc is not None:  # it died: restart, a bounded number of times
                self.proc.wait()
                self.proc = None
            if self.starts > MAX_RESTARTS:
                self.disabled = f"fork server died {self.starts} times"
                return None
            try:
                self._start(base_env)
            except (_Unavailable, OSError) as e:
                self.disabled = str(e)
                return None
            return self.sock_path

    def close(self):
        with self.lock:
            self._stop()

    def run(self, base_env, env, argv, out_path, err_path, timeout_s):
        """Run one worker from the fork server.

        Returns {"returncode", "timed_out", "pid", "start"} (start: time.monotonic() when
        the request was sent; the timeout counts from there, not from a server start)
        or raises _Unavailable (nothing was started; the caller spawns instead).
        """
        path = self.ensure(base_env)
        if path is None:
            raise _Unavailable(self.disabled or "fork server unavailable")
        start = time.monotonic()
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            try:
                s.settimeout(30)
                s.connect(path)
                req = {"argv": list(argv), "out": out_path, "err": err_path, "env": env, "cwd": os.getcwd()}
                s.sendall((json.dumps(req) + "\n").encode())
                lines = _Lines(s)
                first = lines.read(60)
            except (OSError, ValueError) as e:
                raise _Unavailable(f"fork server did not answer: {e}") from e
            if first is None:
                raise _Unavailable("fork server closed the connection")
            if "refused" in first:
                raise _Unavailable(f"fork server refused: {first['refused']}")
            pid = int(first["pid"])
            timed_out = False
            try:
                msg = lines.read(max(0.0, timeout_s - (time.monotonic() - start)))
            except TimeoutError:
                timed_out = True
                _killpg(pid)
                try:
                    msg = lines.read(60)
                except (TimeoutError, OSError):
                    msg = None
            except OSError:
                msg = None
            if msg is not None and "exit" in msg:
                return {"returncode": int(msg["exit"]), "timed_out": timed_out, "pid": pid, "start": start}
            # The server died while the child ran: the child is an orphan; wait for it ourselves.
            while _running(pid):
                if not timed_out and time.monotonic() - start > timeout_s:
                    timed_out = True
                    _killpg(pid)
                time.sleep(0.05)
            return {"returncode": None, "timed_out": timed_out, "pid": pid, "start": start,
                    "note": "fork server died during the task; exit status unknown"}
        finally:
            s.close()


def _running(pid):
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
            return True
        except (ProcessLookupError, PermissionError):
            return False


class _Lines:
    """JSON lines from a socket; keeps what arrived past the first newline for the next read."""

    def __init__(self, sock):
        self.sock = sock
        self.data = b""

    def read(self, timeout):
        """One JSON object, None on EOF; TimeoutError when no complete line arrives in `timeout` s."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError()
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(4096)
            except socket.timeout:
                raise TimeoutError() from None
            if not chunk:
                return None
            self.data += chunk
        line, self.data = self.data.split(b"\n", 1)
        return json.loads(line)


_client = None
_client_lock = threading.Lock()


def client():
    global _client
    with _client_lock:
        if _client is None or _client_pid != os.getpid():
            _new_client()
        return _client


_client_pid = None


def _new_client():
    global _client, _client_pid
    _client = Client()
    _client_pid = os.getpid()


def _at_exit():
    if _client is not None and _client_pid == os.getpid():
        _client.close()


atexit.register(_at_exit)
Unavailable = _Unavailable
