#!/usr/bin/env bash
# Draws docs/figures/waveform_gc.png: GTKWave (the real program, under Xvfb) on the generated layout of a
# steady-state GC run of platform generic, 200-300 ms traced, scrolled to the first place where two dies of
# channel 0 erase. Needs gtkwave, xvfb (scripts/setup.sh) and imagemagick's import.
# usage: bash scripts/waveform_screenshot.sh [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/figures/waveform_gc.png}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/bin/ssdtlm-generic --quiet --set workload.io_count=300000 --vcd "$work/gc.vcd" --vcd-window 200:300 --out "$work/out"
# The first time two dies of channel 0 are erasing within 2 ms: start the view 1.8 ms before it.
start=$(python3 - "$work/gc.vcd" <<'PY'
import sys
ids, scope, t, erases = {}, [], 0, []
for line in open(sys.argv[1]):
    if line.startswith('$scope'): scope.append(line.split()[2])
    elif line.startswith('$upscope'): scope.pop()
    elif line.startswith('$var'):
        p = line.split(); ids[p[3]] = '.'.join(scope[1:] + [p[4]])
    elif line[0] == '#': t = int(line[1:])
    elif line[0] == 'b':
        v, i = line[1:].split()
        if ids[i].startswith('ch0.') and ids[i].endswith('.state') and v == '1000': erases.append(t)
pairs = [a for a, b in zip(erases, erases[1:]) if b - a < 2_000_000_000]
print((pairs[0] if pairs else erases[0]) - 1_800_000_000)
PY
)
sed "s/^\[timestart\] .*/[timestart] $start/" "$work/gc.vcd.gtkw" > "$work/view.gtkw"
(cd "$work" && xvfb-run -a -s "-screen 0 1600x1000x24" bash -c \
  "gtkwave gc.vcd view.gtkw >/dev/null 2>&1 & sleep 6; import -window root shot.png; kill %1")
convert "$work/shot.png" -colors 64 "$out"
echo "wrote $out"
