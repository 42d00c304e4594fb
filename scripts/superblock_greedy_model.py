#!/usr/bin/env python3
"""Independent check of superblock vs block greedy GC (docs/reference/streams.md): uniform random unit writes,
one write pointer for host and GC data striped over the dies in lockstep, instant GC while fewer than R
blocks (lines) are free. Usage: superblock_greedy_model.py DIES BLOCKS UNITS_PER_BLOCK block|line R DRIVE_WRITES"""
import random, sys
D, B, P, OP = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), 0.2
mode = sys.argv[4]; R = int(sys.argv[5]) if len(sys.argv) > 5 else 4
N = int(D*B*P*(1-OP))  # logical units
random.seed(1)
# block id = d*B + b; line = b
valid = [0]*(D*B); owner = {}  # loc -> lpn
loc = [-1]*N
free = {d: list(range(B)) for d in range(D)}
freel = list(range(B))
fr = {}  # die -> (block, next)
gcw = 0; hw = 0
content = [[] for _ in range(D*B)]
def open_block(d):
    if mode == 'block':
        b = free[d].pop(0)
    else:
        # each die takes next line in order; lines opened by first die
        global lineq
        if tk[d] == len(lineq):
            lineq.append(freel.pop(0))
        b = lineq[tk[d]]; tk[d] += 1
    return d*B + b
lineq = []; tk = [0]*D
rr = 0
def place(lpn):
    global rr
    d = rr % D; rr += 1
    if d not in fr or fr[d][1] == P:
        fr[d] = [open_block(d), 0]
    blk = fr[d][0]; fr[d][1] += 1
    content[blk].append(lpn); valid[blk] += 1; loc[lpn] = blk
def nfree():
    return (min(len(free[d]) for d in range(D)) if mode=='block' else len(freel))
def full_blocks_of(d):
    opened = {fr[x][0] for x in fr}
    return [d*B+b for b in range(B) if b not in free[d] and d*B+b not in opened]
def collect():
    global gcw
    if mode == 'block':
        for d in range(D):
            if len(free[d]) >= R: continue
            opened = fr[d][0] if d in fr else -1
            cand = [d*B+b for b in range(B) if b not in free[d] and d*B+b != opened]
            v = min(cand, key=lambda x: valid[x])
            live = [l for l in content[v] if loc[l] == v]
            content[v] = []; valid[v] = 0
            for l in live:
                # GC copy to same die frontier
                if fr[d][1] == P: fr[d] = [d*B + free[d].pop(0), 0]
                blk = fr[d][0]; fr[d][1] += 1; content[blk].append(l); valid[blk] += 1; loc[l] = blk; gcw += 1
            free[d].append(v - d*B)
    else:
        opened = {fr[x][0] % B for x in fr} | set(lineq[min(tk):])
        cand = [b for b in range(B) if b not in freel and b not in opened]
        v = min(cand, key=lambda b: sum(valid[d*B+b] for d in range(D)))
        live = []
        for d in range(D):
            live += [l for l in content[d*B+v] if loc[l] == d*B+v]; content[d*B+v] = []; valid[d*B+v] = 0
        freel.append(v)
        for l in live: place(l); gcw += 1
# fill
for l in range(N): place(l)
W = N*int(sys.argv[6]) if len(sys.argv) > 6 else N*6
for i in range(W):
    if i == W//2: gcw0, hw0 = gcw, hw
    l = random.randrange(N); valid[loc[l]] -= 1; loc[l] = -1; place(l); hw += 1
    while nfree() < R: collect()
print(mode, D, B, P, 'WAF', 1 + (gcw-gcw0)/(hw-hw0))
