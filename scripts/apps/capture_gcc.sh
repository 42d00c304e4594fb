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
source "$(dirname "$0")/common.sh"
JOBS="${JOBS:-2}"; BASE="${BASE:-1}"
need_packages binutils-source gcc make bison flex
TARBALL=/usr/src/binutils/binutils-2.40.tar.xz
[ -f "$TARBALL" ] || { echo "binutils-source has no $TARBALL" >&2; exit 2; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
build_cmd() {  # build_cmd DIR: the configure + make of the tree unpacked in DIR/src, built in DIR/obj
  echo "cd '$1/obj' && '$1/src/binutils-2.40/configure' -q --disable-gdb --disable-gdbserver --disable-sim \
--disable-gprofng --disable-gold --disable-nls --disable-werror --without-debuginfod \
MAKEINFO=true > /dev/null && make -s -j $JOBS MAKEINFO=true > /dev/null"
}
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
