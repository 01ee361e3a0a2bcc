"""The stand-in a test starts for one `python -m MODULE ARGS` process (see tests/forkserver.py).

Run as `python -I -S forkserver_shim.py SOCKET MODULE ARGS...` (the standard library only, so it
starts in milliseconds): hands its standard streams, environment and working directory to the
fork server, forwards every signal it receives to the forked process, and exits as it exited.
"""

import json
import os
import signal
import socket
import sys

FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)
FORWARDED += (signal.SIGUSR1, signal.SIGUSR2)


def main() -> None:
    path, module, *args = sys.argv[1:]
    child = 0
    pending: list[int] = []

    def forward(signum: int, _frame: object) -> None:
        if child:
            os.kill(child, signum)
        else:
            pending.append(signum)

    for signum in FORWARDED:
        signal.signal(signum, forward)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(path)
    request = {"module": module, "args": args, "cwd": os.getcwd(), "env": dict(os.environ)}
    socket.send_fds(conn, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
    for fd in (0, 1, 2):  # the process has them now; EOF on its pipes is its own
        os.close(fd)
    incoming = conn.makefile("r")
    child = int(incoming.readline())
    for signum in pending:
        os.kill(child, signum)
    line = incoming.readline()
    if not line:
        os._exit(70)  # the fork server went away
    code = os.waitstatus_to_exitcode(int(line))
    if code < 0:
        if -code in FORWARDED:
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


main()
