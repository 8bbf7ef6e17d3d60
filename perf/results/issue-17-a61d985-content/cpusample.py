#!/usr/bin/env python3
# Samples utime+stime (clock ticks) of every process and every java thread every 5 s into a JSON-lines file.
import os, sys, time, json
out = open(sys.argv[1], 'a')
def stat(path):
    try:
        s = open(path).read()
    except Exception:
        return None
    r = s.rfind(')')
    comm = s[s.find('(')+1:r]
    f = s[r+2:].split()
    return comm, int(f[11]) + int(f[12])
while True:
    snap = {'t': time.time(), 'procs': {}, 'threads': {}}
    for pid in os.listdir('/proc'):
        if not pid.isdigit(): continue
        st = stat(f'/proc/{pid}/stat')
        if not st: continue
        comm, ticks = st
        if ticks == 0: continue
        snap['procs'][pid] = [comm, ticks]
        if comm == 'java':
            try:
                for tid in os.listdir(f'/proc/{pid}/task'):
                    ts = stat(f'/proc/{pid}/task/{tid}/stat')
                    if ts and ts[1] > 0:
                        snap['threads'][pid + '/' + tid] = [ts[0], ts[1]]
            except Exception:
                pass
    # postgres backends: use cmdline for role
    for pid, (comm, t) in snap['procs'].items():
        if comm.startswith('postgres'):
            try:
                snap['procs'][pid].append(open(f'/proc/{pid}/cmdline').read().replace('\0', ' ')[:80])
            except Exception:
                pass
    out.write(json.dumps(snap) + '\n'); out.flush()
    time.sleep(5)
