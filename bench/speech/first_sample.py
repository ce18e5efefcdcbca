"""Times commands from their start to the first byte they write on standard output (the first sample of raw PCM),
median of RUNS runs each: python3 first_sample.py RUNS NAME COMMAND [NAME COMMAND]..."""
import os, shlex, statistics, subprocess, sys, time

runs = int(sys.argv[1])
pairs = list(zip(sys.argv[2::2], sys.argv[3::2]))
for name, command in pairs:
    times = []
    for _ in range(runs):
        began = time.monotonic()
        process = subprocess.Popen(shlex.split(command), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        got = process.stdout.read(2)
        elapsed = time.monotonic() - began
        process.kill()
        process.wait()
        if got:
            times.append(elapsed * 1000)
    if times:
        print(f"{name}: first sample after {statistics.median(times):.0f} ms (median of {len(times)}; "
              f"best {min(times):.0f} ms, worst {max(times):.0f} ms)")
    else:
        print(f"{name}: wrote nothing")
