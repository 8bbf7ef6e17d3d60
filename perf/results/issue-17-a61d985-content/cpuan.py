import json,sys,collections,re
L=[json.loads(l) for l in open(sys.argv[1])]
i0=int(sys.argv[2]) if len(sys.argv)>2 else 0
i1=int(sys.argv[3]) if len(sys.argv)>3 else len(L)-1
a,b=L[i0],L[i1]
dt=b['t']-a['t']
print('seconds',round(dt,1),'snapshots',len(L))
g=collections.Counter()
for pid,v in b['procs'].items():
    t0=a['procs'].get(pid,[None,0])[1]
    d=v[1]-t0
    if d<=0: continue
    name=v[0]
    if name.startswith('postgres') and len(v)>2:
        cl=v[2]
        m=re.match(r'postgres: (\S+ \S+ \S+)?',cl)
        name='pg: '+ (cl.split(' ')[1] if not '127.0.0.1' in cl and not '[local]' in cl else 'backend '+pid)
    g[name]+=d
tot=sum(g.values())
for k,v in g.most_common(25): print(f'{k:40s} {v/100:8.1f}s {v/tot*100:5.1f}%')
print('total cpu s',tot/100,'of',2*dt)
t=collections.Counter()
for tid,v in b['threads'].items():
    d=v[1]-a['threads'].get(tid,[None,0])[1]
    if d>0: t[re.sub(r'\d+','N',v[0])]+=d
tt=sum(t.values())
print('java threads total',tt/100)
for k,v in t.most_common(30): print(f'  {k:30s} {v/100:8.1f}s {v/tt*100:5.1f}%')
