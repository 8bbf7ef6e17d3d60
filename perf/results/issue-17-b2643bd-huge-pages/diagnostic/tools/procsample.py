import os, time, sys
# samples every process's CPU ticks every 100 ms; writes lines: t pid comm ticks(utime+stime) and threads for java
out = open(sys.argv[1], 'w'); dur = float(sys.argv[2]); end = time.time() + dur
hz = os.sysconf('SC_CLK_TCK')
while time.time() < end:
    t = time.time()
    rows = []
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try:
            s = open(f'/proc/{p}/stat').read()
            comm = s[s.index('(')+1:s.rindex(')')]
            f = s[s.rindex(')')+2:].split()
            ticks = int(f[11]) + int(f[12])
            if ticks == 0: continue
            cmd = ''
            if comm in ('java','postgres'):
                cmd = open(f'/proc/{p}/cmdline').read().replace('\0',' ')[:120]
            rows.append(f'{p}|{comm}|{ticks}|{cmd}|{f[11]}|{f[12]}|{f[7]}')
            if False:
                for tid in os.listdir(f'/proc/{p}/task'):
                    try:
                        ts = open(f'/proc/{p}/task/{tid}/stat').read()
                        tc = ts[ts.index('(')+1:ts.rindex(')')]
                        tf = ts[ts.rindex(')')+2:].split()
                        tt = int(tf[11]) + int(tf[12])
                        if tt: rows.append(f'{p}/{tid}|{tc}|{tt}|thread of {p}')
                    except Exception:
                        pass
        except Exception:
            pass
    out.write(f'T {t:.3f}\n' + '\n'.join(rows) + '\n'); out.flush()
    time.sleep(max(0, 0.1 - (time.time() - t)))
