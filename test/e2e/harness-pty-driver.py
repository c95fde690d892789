"""Runs a command in a pseudo-terminal for the harness e2e tests.

Reads a JSON spec on stdin: {"argv": [...], "cwd": "...", "steps": [{"expect": "text", "send": "y\\r"}],
"timeout": seconds}. Waits for each step's text (searching after the previous match), types
its answer, then reads until the command exits. Prints {"output", "code", "error"?} as JSON.
Never waits longer than the timeout: on expiry it kills the command and reports the error.
"""

import json
import os
import pty
import select
import signal
import sys
import time

spec = json.load(sys.stdin)
deadline = time.monotonic() + float(spec.get("timeout", 20))

pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec["cwd"])
    os.execv(spec["argv"][0], spec["argv"])

buffer = b""
closed = False


def read_some(wait):
    """Reads what the terminal has within `wait` seconds; notes when it closed."""
    global buffer, closed
    ready, _, _ = select.select([fd], [], [], wait)
    if not ready:
        return
    try:
        data = os.read(fd, 65536)
    except OSError:
        data = b""
    if not data:
        closed = True
    buffer += data


def text():
    return buffer.decode("utf-8", "replace")


error = None
position = 0
for step in spec["steps"]:
    while True:
        found = text().find(step["expect"], position)
        if found != -1:
            position = found + len(step["expect"])
            os.write(fd, step["send"].encode())
            break
        if closed or time.monotonic() > deadline:
            error = "gave up waiting for %r" % step["expect"]
            break
        read_some(0.1)
    if error:
        break

while not closed and error is None:
    if time.monotonic() > deadline:
        error = "gave up waiting for the command to exit"
        break
    read_some(0.1)

code = None
if error:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
_, status = os.waitpid(pid, 0)
if os.WIFEXITED(status):
    code = os.WEXITSTATUS(status)

result = {"output": text(), "code": code}
if error:
    result["error"] = error
print(json.dumps(result))
