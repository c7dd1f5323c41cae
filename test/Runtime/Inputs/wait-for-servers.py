"""Waits until no compile server of the runtime serves the kernel cache
given (argv[1]): the servers compile what was asked after the ranks end.
Exit status 1 if one still runs after five minutes."""
import os
import sys
import time

cache = os.path.abspath(sys.argv[1])
deadline = time.time() + 300
while time.time() < deadline:
    serving = False
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                words = f.read().split(b"\0")
        except OSError:
            continue
        if b"serve" in words and cache.encode() in words:
            serving = True
            break
    if not serving:
        sys.exit(0)
    time.sleep(0.2)
print(f"a compile server of {cache} still runs", file=sys.stderr)
sys.exit(1)
