import sys, datetime
f, a, b = sys.argv[1], sys.argv[2], sys.argv[3]
day = '2026-12-02 '
ta = datetime.datetime.fromisoformat(day + a).replace(tzinfo=datetime.timezone.utc).timestamp()
tb = datetime.datetime.fromisoformat(day + b).replace(tzinfo=datetime.timezone.utc).timestamp()
snaps = []; cur = None
for line in open(f):
    line = line.rstrip('\n')
    if line.startswith('T '):
        cur = [float(line[2:]), {}]; snaps.append(cur)
    elif cur and line:
        x = line.split('|')
        p, comm, ticks, cmd = x[:4]
        extra = tuple(int(v) for v in x[4:7]) if len(x) >= 7 else (0,0,0)
        cur[1][p] = (int(ticks), comm, cmd, extra)
s0 = min(snaps, key=lambda s: abs(s[0]-ta)); s1 = min(snaps, key=lambda s: abs(s[0]-tb))
el = s1[0]-s0[0]
print(f'window {el:.2f} s')
rows = []
for p, (t, comm, cmd, ex) in s1[1].items():
    o = s0[1].get(p, (0,'','',(0,0,0)))
    d = t - o[0]
    if d > 0: rows.append((d, p, comm, cmd + f' utime+{ex[0]-o[3][0]} stime+{ex[1]-o[3][1]} minflt+{ex[2]-o[3][2]}'))
tot = sum(r[0] for r in rows if '/' not in r[1])
print(f'total {tot/100/el:.2f} cores')
for d, p, comm, cmd in sorted(rows, reverse=True)[:int(sys.argv[4]) if len(sys.argv)>4 else 15]:
    print(f'{d/100/el:5.2f} cores  {p} {comm} {cmd[:60] + cmd[cmd.find(" utime"):]}')
