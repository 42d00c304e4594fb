#!/usr/bin/env bash
# GCC: a build of a real source tree, captured into $OUT/gcc.cap (+ gcc.json, gcc.base_s: the same build without the
# capture). The tree is GNU binutils 2.40 (Debian's binutils-source: /usr/src/binutils/binutils-2.40.tar.xz, a C
# project of libraries (libiberty, zlib, bfd, opcodes, libctf, libsframe) and programs (as, ld, objdump, readelf,
# ...)), unpacked under the capture root and built out of tree: configure, then make -j JOBS, both captured (make
# runs the subdirectories' configure scripts). Fixed configure options, only what a build needs:
#   --disable-gdb --disable-gdbserver --disable-sim --disable-gprofng --disable-gold --disable-nls --disable-werror
#   --without-debuginfod, MAKEINFO=true (no documentation); the tree's own CFLAGS (-g -O2)
# GCC writes .o files through stdio, which the capture sees only at fclose (tools/capture/README.md): each such file
# is one write of its final size. The unpacking is not captured (the replay sees the sources as files that existed
# before). BASE=0 skips the uncaptured build (more runs for real_apps.py: make -j's interleaving differs per run).
# bison and flex: the tarball's ar lexer (binutils/arlex.c) is generated during the build. Measured (JOBS=2, 2 shared
# cores, docs/results/real_apps.md): 158.8 s alone, 110-186 s captured (load-bound noise), 54,430 processes, 244,706
# records, 12,532 writes, 435.5 MB written, 15 program contexts, 233 MB left in the build directory.
# BUILDS=N (default 1): N builds in one capture, as seed 002's GCC benchmark ran them (30 compilations, a third of the
# sources chosen at random modified before each, docs/reference/apps.md "gcc"): after the first, MODIFY (default 1/3,
# a fraction) of the tree's .c files, chosen with SEED (default 41), get a new modification time and make runs again
# (what it rebuilds and relinks is what a developer's edit of those files costs; the file contents are unchanged).
# BASE=1 times the same N builds without the capture.
source "$(dirname "$0")/common.sh"
JOBS="${JOBS:-2}"; BASE="${BASE:-1}"; BUILDS="${BUILDS:-1}"; MODIFY="${MODIFY:-1/3}"; SEED="${SEED:-41}"
[[ "$BUILDS" =~ ^[1-9][0-9]*$ ]] || { echo "BUILDS must be a positive integer, got '$BUILDS'" >&2; exit 2; }
python3 -c "import fractions,sys; f=fractions.Fraction(sys.argv[1]); sys.exit(0 if 0 < f <= 1 else 1)" "$MODIFY" 2>/dev/null ||
  { echo "MODIFY must be a fraction in (0, 1] such as 1/3 or 0.5, got '$MODIFY'" >&2; exit 2; }
need_packages binutils-source gcc make bison flex
TARBALL=/usr/src/binutils/binutils-2.40.tar.xz
[ -f "$TARBALL" ] || { echo "binutils-source has no $TARBALL" >&2; exit 2; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
build_cmd() {  # build_cmd DIR: the configure + make of the tree unpacked in DIR/src, built in DIR/obj
  echo "cd '$1/obj' && '$1/src/binutils-2.40/configure' -q --disable-gdb --disable-gdbserver --disable-sim \
--disable-gprofng --disable-gold --disable-nls --disable-werror --without-debuginfod \
MAKEINFO=true > /dev/null && make -s -j $JOBS MAKEINFO=true > /dev/null$(rebuilds "$1")"
}
rebuilds() {  # rebuilds DIR: builds 2..BUILDS, each after touching the sources pick.py chose (lists outside the root)
  for ((b = 2; b <= BUILDS; b++)); do
    printf " && python3 '%s' '%s' %s > '%s' && xargs -0 -r touch < '%s' && make -s -j %s MAKEINFO=true > /dev/null" \
      "$work/pick.py" "$1" "$b" "$1.touch.$b" "$1.touch.$b" "$JOBS"
  done
}
# pick.py DIR B: the .c files under DIR/src that the first build compiled (an object of the same stem under DIR/obj),
# MODIFY of them chosen with SEED and B, NUL-separated on stdout. Its reads and the lists are outside the capture root.
cat > "$work/pick.py" <<PY
import fractions, os, random, sys
d, build = sys.argv[1], int(sys.argv[2])
objs = {os.path.splitext(f)[0] for _, _, fs in os.walk(os.path.join(d, "obj")) for f in fs if f.endswith((".o", ".lo"))}
srcs = sorted(os.path.join(r, f) for r, _, fs in os.walk(os.path.join(d, "src")) for f in fs
              if f.endswith(".c") and f[:-2] in objs)
pick = sorted(random.Random($SEED * 1000 + build).sample(srcs, round(len(srcs) * fractions.Fraction("$MODIFY"))))
sys.stdout.buffer.write(b"".join(p.encode() + b"\0" for p in pick))
PY
sides=(cap); [ "$BASE" = 1 ] && sides=(base cap)
for side in "${sides[@]}"; do
  mkdir -p "$work/$side/src" "$work/$side/obj" "$work/$side/tmp"
  tar -xJf "$TARBALL" -C "$work/$side/src"
done
if [ "$BASE" = 1 ]; then
  TMPDIR="$work/base/tmp" timed "$OUT/gcc.base_s" sh -c "$(build_cmd "$work/base")"
  rm -rf "$work/base"
fi
# gcc's temporaries (.s between cc1 and as) under the capture root
TMPDIR="$work/cap/tmp" "$BIN/ssdtlm-capture" -o "$OUT/gcc.cap" --root "$work/cap" --stats "$OUT/gcc.json" -- \
  sh -c "$(build_cmd "$work/cap")"
du -sb "$work/cap/obj" | cut -f1 > "$OUT/gcc.obj_bytes"  # what the build left (objects, archives, programs)
echo "$OUT/gcc.cap"
