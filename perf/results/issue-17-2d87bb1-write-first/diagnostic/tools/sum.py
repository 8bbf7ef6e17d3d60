import json, sys, collections, re
snaps = [json.loads(l) for l in open(sys.argv[1])]
a, b = snaps[int(sys.argv[2])], snaps[int(sys.argv[3])]
hz = 100
dt = b['t'] - a['t']
ca = list(map(int, a['cpu'])); cb = list(map(int, b['cpu']))
d = [y - x for x, y in zip(ca, cb)]
tot = sum(d)
print(f"window {dt:.1f} s; user {d[0]/tot:.0%} sys {d[2]/tot:.0%} idle {d[3]/tot:.0%} iowait {d[4]/tot:.0%} steal {d[7]/tot:.0%}")
groups = collections.Counter()
rows = []
for k, (name, ticks) in b['p'].items():
    t0 = a['p'].get(k, [name, 0])[1]
    dd = ticks - t0
    if dd <= 0: continue
    rows.append((dd, k, name))
    if k.startswith('java/'):
        g = re.sub(r'[-#]?\d+$', '', name)
        groups['java ' + g] += dd
    else:
        g = name.split(' ')[1] if name.startswith('postgres:') else name
        if name.startswith('postgres:') and ('COPY' in name or 'idle' in name or 'INSERT' in name or 'SELECT' in name or '127.0.0.1' in name or 'local' in name):
            g = 'backend'
        groups['pg ' + g if name.startswith('postgres') else 'other ' + g] += dd
cores_s = tot / hz
print(f"core-seconds total {cores_s:.1f}")
for g, v in groups.most_common(25):
    print(f"  {g:40s} {v/hz:7.1f} s  {v/tot:6.1%}")
print("top threads/processes:")
for dd, k, name in sorted(rows, reverse=True)[:20]:
    print(f"  {dd/hz:7.1f} s  {k:14s} {name}")
