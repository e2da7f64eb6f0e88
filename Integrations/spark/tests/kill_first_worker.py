#!/usr/bin/env python3
"""A test double for the worker: the first run (the one that creates the marker file
$ALMANAC_KILL_MARKER) starts the real almanac ($ALMANAC_REAL), passes on its first
$ALMANAC_KILL_AFTER report lines (default 5), then kills it and itself with SIGKILL, as a lost
executor or the kernel's OOM killer would. Every later run is the real almanac, unchanged."""
import os
import signal
import subprocess
import sys

real = os.environ["ALMANAC_REAL"]
try:
    os.close(os.open(os.environ["ALMANAC_KILL_MARKER"], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
except FileExistsError:
    os.execv(real, [real] + sys.argv[1:])

after = int(os.environ.get("ALMANAC_KILL_AFTER", "5"))
worker = subprocess.Popen([real] + sys.argv[1:], stdout=subprocess.PIPE)
passed = 0
for line in worker.stdout:
    sys.stdout.buffer.write(line)
    sys.stdout.flush()
    passed += 1
    if passed >= after:
        break
os.kill(worker.pid, signal.SIGKILL)
worker.wait()
os.kill(os.getpid(), signal.SIGKILL)
