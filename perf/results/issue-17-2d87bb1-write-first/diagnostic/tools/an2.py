import json, collections, re
d = json.load(open('fill.json'))['recording']['events']
def dur(e):
    s = e['values'].get('duration')
    m = re.match(r'PT(?:(\d+)M)?([\d.]+)S', s or '')
    return (int(m.group(1) or 0)*60 + float(m.group(2))) if m else 0
agg = collections.defaultdict(lambda: [0.0, 0])
for e in d:
    v = e['values']
    th = (v.get('eventThread') or v.get('sampledThread') or {}).get('javaName', '?')
    if 'batch-writer' not in th: continue
    frames = [f['method']['type']['name'].split('/')[-1] + '.' + f['method']['name'] for f in (v.get('stackTrace') or {}).get('frames', [])]
    ours = [f for f in frames if f.split('.')[0] in ('Records','Tiles','Counters','HourlyCounts','Boards','Senders','PartitionLease','CheckpointScheduler','Checkpoints','SenderRegistry','WriterSchemas','RecordInserter','ProjectorProcessor')]
    key = (e['type'].split('.')[-1], ours[0] if ours else '-')
    agg[key][0] += dur(e); agg[key][1] += 1
for k, (s, n) in sorted(agg.items(), key=lambda x: -x[1][0]-x[1][1]*0.01)[:30]:
    print(f"{s:7.1f} s {n:6d}  {k}")
