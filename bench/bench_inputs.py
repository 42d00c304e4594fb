"""Input files bench.py generates for its trace rows: a CSV trace with program contexts (pc_trace) and an
ssdtlm-capture file (capture_file)."""


def pc_trace(path, ios):
    """4 KiB random writes from 8 program contexts, an eighth each; PC p writes a region of its own of
    11,764 x 2^(p-1) units (all 8 span 12 GiB), so its data lives about twice as long as PC p-1's."""
    import random
    rng = random.Random(1)
    base, regions, start = 11764, [], 0
    for p in range(8):
        regions.append((start, base << p))
        start += base << p
    with open(path, "w") as f:
        f.write("time_ns,op,offset_bytes,bytes,stream,pc\n")
        for i in range(ios):
            p = rng.randrange(8)
            first, size = regions[p]
            f.write("%d,W,%d,4096,0,%d\n" % (i, (first + rng.randrange(size)) * 4096, 101 + p))


def capture_file(path, ios):
    """An ssdtlm-capture file (model/workload/trace/capture_format.h, version 1) of `ios` data calls of one process:
    8 files of 64 MiB opened at the start, each call a 4 KiB pwrite (PC of its file, 8 in all) or pread at a random
    page of a random file, half each, an fsync of the file after every 64 writes; 10 us apart."""
    import gzip
    import random
    import struct
    rng = random.Random(1)
    rec = struct.Struct("<BBHIIiQQQQQII")
    t, out = 10 ** 9, []

    def put(kind, fd=-1, off=0, n=0, pc=0, flags=0, path=b"", aux=0):
        out.append(rec.pack(kind, 0, len(path), 100, 100, fd, t, off, n, 0, pc, flags, aux) + path)
    put(1, path=b"/bench/prog")
    for f in range(8):
        put(3, fd=3 + f, flags=0o102, path=b"/bench/file%d" % f)
    writes = 0
    for _ in range(ios):
        t += 10000
        f, page = rng.randrange(8), rng.randrange(16384)
        if rng.random() < 0.5:
            put(6, fd=3 + f, off=page * 4096, n=4096, pc=0x5EED0000 + f)
            writes += 1
            if writes % 64 == 0:
                put(7, fd=3 + f)
        else:
            put(5, fd=3 + f, off=page * 4096, n=4096)
    with gzip.open(path, "wb") as g:
        g.write(b"SSDTCAP\0" + struct.pack("<II", 1, 16) + b"".join(out))
