import os, time, sys, json
# every 5 s: /proc/stat cpu line, per-thread ticks of java processes, per-process ticks of postgres
out = open(sys.argv[1], 'w'); dur = float(sys.argv[2]); end = time.time() + dur
while time.time() < end:
    t = time.time()
    snap = {'t': t, 'cpu': open('/proc/stat').readline().split()[1:], 'p': {}}
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try:
            s = open(f'/proc/{p}/stat').read()
            comm = s[s.index('(')+1:s.rindex(')')]
            f = s[s.rindex(')')+2:].split()
            ticks = int(f[11]) + int(f[12])
            if comm == 'java':
                for tid in os.listdir(f'/proc/{p}/task'):
                    try:
                        ts = open(f'/proc/{p}/task/{tid}/stat').read()
                        tc = ts[ts.index('(')+1:ts.rindex(')')]
                        tf = ts[ts.rindex(')')+2:].split()
                        snap['p'][f'java/{tid}'] = [tc, int(tf[11]) + int(tf[12])]
                    except Exception: pass
            elif ticks:
                title = open(f'/proc/{p}/cmdline').read().replace('\0',' ')[:80] if comm == 'postgres' else comm
                snap['p'][p] = [title, ticks]
        except Exception: pass
    out.write(json.dumps(snap) + '\n'); out.flush()
    time.sleep(max(0, 5 - (time.time() - t)))
