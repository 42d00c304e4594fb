#!/usr/bin/env bash
# RocksDB: db_bench (Debian's rocksdb-tools) fillrandom, overwrite, then readrandomwriterandom, NUM keys of VALUE
# bytes, seed SEED, captured into $OUT/rocksdb.cap (+ rocksdb.json, rocksdb.base_s: the same run without the capture).
source "$(dirname "$0")/common.sh"
NUM="${NUM:-500000}"; VALUE="${VALUE:-400}"; SEED="${SEED:-41}"
need_packages rocksdb-tools
DB_BENCH="$(command -v db_bench || command -v rocksdb_db_bench || true)"
[ -n "$DB_BENCH" ] || DB_BENCH="$(dpkg -L rocksdb-tools | grep -E '/(db_bench|rocksdb_db_bench)$' | head -1)"
[ -x "$DB_BENCH" ] || { echo "rocksdb-tools has no db_bench here" >&2; exit 2; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mkdir -p "$work/base" "$work/cap"
args=(--benchmarks=fillrandom,overwrite,readrandomwriterandom --num="$NUM" --value_size="$VALUE" --seed="$SEED"
      --threads=1 --compression_type=none --write_buffer_size=8388608 --target_file_size_base=8388608
      --max_bytes_for_level_base=33554432 --statistics=0 --use_existing_db=0)
timed "$OUT/rocksdb.base_s" "$DB_BENCH" --db="$work/base" "${args[@]}" > "$OUT/rocksdb.base.txt" 2>/dev/null
"$BIN/ssdtlm-capture" -o "$OUT/rocksdb.cap" --root "$work/cap" --stats "$OUT/rocksdb.json" -- \
  "$DB_BENCH" --db="$work/cap" "${args[@]}" > "$OUT/rocksdb.txt" 2>/dev/null
echo "$OUT/rocksdb.cap"
