#!/usr/bin/env bash
# GCC: a build of a real source tree, make -j JOBS, captured into $OUT/gcc.cap (+ .json, .base_s). The tree is
# ssdtlm's own model/common and model/workload/synthetic (plain C++17, no SystemC), copied under the capture root
# and compiled to objects and an archive. GCC writes .s and .o files through stdio, which the capture sees only at
# fclose (tools/capture/README.md): each such file is one write of its final size.
source "$(dirname "$0")/common.sh"
JOBS="${JOBS:-2}"
need_packages g++ make
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
for side in base cap; do
  mkdir -p "$work/$side/src"
  cp -r "$ROOT/model/common" "$ROOT/model/workload/synthetic" "$work/$side/src/"
  ( cd "$work/$side" && find src -name '*.cpp' | sort > sources.txt )
  cat > "$work/$side/Makefile" <<MK
OBJS := \$(patsubst %.cpp,%.o,\$(shell cat sources.txt))
all: libtree.a
%.o: %.cpp
	g++ -std=c++17 -O2 -I$ROOT/model -c \$< -o \$@
libtree.a: \$(OBJS)
	ar rcs \$@ \$^
MK
done
timed "$OUT/gcc.base_s" make -s -C "$work/base" -j "$JOBS"
mkdir -p "$work/cap/tmp"  # gcc's temporaries (.s between cc1plus and as) under the capture root
TMPDIR="$work/cap/tmp" "$BIN/ssdtlm-capture" -o "$OUT/gcc.cap" --root "$work/cap" --stats "$OUT/gcc.json" -- make -s -C "$work/cap" -j "$JOBS"
echo "$OUT/gcc.cap"
