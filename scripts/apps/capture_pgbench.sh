#!/usr/bin/env bash
# PostgreSQL: pgbench's TPC-B-like run (scale SCALE, CLIENTS clients, TXNS transactions each, --random-seed SEED)
# on a fresh cluster; the capture covers initdb's cluster start, pgbench -i, the run and the shutdown (every
# server process). As the postgres user (the server refuses root). $OUT/pgbench.cap (+ .json, .base_s).
# The defaults are the seed-000 study's (scripts/real_apps.py --part seed000, docs/results/real_apps.md): scale 100
# (a 1.5 GB database), 4 clients x 40,000 transactions, enough random page writes to make the scaled drive collect
# garbage (about 10 GB written by the program, 1.7 M records; 400 s on 2 shared cores).
source "$(dirname "$0")/common.sh"
SCALE="${SCALE:-100}"; CLIENTS="${CLIENTS:-4}"; TXNS="${TXNS:-40000}"; SEED="${SEED:-41}"
need_packages postgresql postgresql-contrib
PGBIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
work="$(mktemp -d)"; chmod 755 "$work"; trap 'rm -rf "$work"' EXIT
cat > "$work/run.sh" <<SH
set -e
D="\$1"
"$PGBIN/initdb" -D "\$D" -A trust >/dev/null
"$PGBIN/pg_ctl" -D "\$D" -o "-k \$D -p 54041 -c listen_addresses=''" -w start >/dev/null
"$PGBIN/pgbench" -h "\$D" -p 54041 -i -s $SCALE postgres >/dev/null 2>&1
"$PGBIN/pgbench" -h "\$D" -p 54041 -c $CLIENTS -t $TXNS --random-seed=$SEED postgres
"$PGBIN/pg_ctl" -D "\$D" -m fast -w stop >/dev/null
SH
chown -R postgres "$work"
cp "$BIN/ssdtlm-capture" "$BIN/libssdtlm_capture.so" "$work/"
timed "$OUT/pgbench.base_s" runuser -u postgres -- sh "$work/run.sh" "$work/base" > "$OUT/pgbench.base.txt"
runuser -u postgres -- "$work/ssdtlm-capture" -o "$work/pgbench.cap" --root "$work" --stats "$work/pgbench.json" -- \
  sh "$work/run.sh" "$work/cap" > "$OUT/pgbench.txt"
cp "$work/pgbench.cap" "$work/pgbench.json" "$OUT/"
echo "$OUT/pgbench.cap"
