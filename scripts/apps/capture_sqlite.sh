#!/usr/bin/env bash
# SQLite: the sqlite3 shell running a fixed insert/update/delete workload (ROWS rows, WAL mode, seed SEED), captured
# into $OUT/sqlite.cap (+ sqlite.json, sqlite.base_s: the same run without the capture).
source "$(dirname "$0")/common.sh"
ROWS="${ROWS:-100000}"; SEED="${SEED:-41}"
need_packages sqlite3
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
python3 - "$ROWS" "$SEED" > "$work/workload.sql" <<'PY'
import random, sys
rows, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
print("PRAGMA journal_mode=WAL;\nCREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, v TEXT);\nCREATE INDEX tk ON t(k);")
for b in range(0, rows, 1000):   # transactions of 1,000 inserts
    print("BEGIN;")
    for i in range(b, min(rows, b + 1000)):
        print(f"INSERT INTO t VALUES({i}, {rng.randrange(rows)}, '{'v' * rng.randrange(50, 400)}');")
    print("COMMIT;")
for _ in range(rows // 100):     # updates and deletes, one transaction each
    i = rng.randrange(rows)
    print(f"UPDATE t SET v = '{'u' * rng.randrange(50, 400)}', k = {rng.randrange(rows)} WHERE id = {i};")
    if rng.random() < 0.3:
        print(f"DELETE FROM t WHERE id = {rng.randrange(rows)};")
print("PRAGMA wal_checkpoint(TRUNCATE);\nSELECT count(*) FROM t;")
PY
mkdir -p "$work/base" "$work/cap"
timed "$OUT/sqlite.base_s" sh -c "sqlite3 '$work/base/db' < '$work/workload.sql' > /dev/null"
"$BIN/ssdtlm-capture" -o "$OUT/sqlite.cap" --root "$work/cap" --stats "$OUT/sqlite.json" -- \
  sh -c "sqlite3 '$work/cap/db' < '$work/workload.sql' > /dev/null"
echo "$OUT/sqlite.cap"
