# Shared by scripts/apps/capture_<app>.sh: where ssdtlm-capture is, the output directory, Debian packages.
# SSDTLM_BIN_DIR (default build/bin, then build-dev/bin) holds ssdtlm-capture; OUT (default captures/) the capture,
# its --stats JSON and the program's own run time without the capture (for the overhead).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BIN="${SSDTLM_BIN_DIR:-}"
if [ -z "$BIN" ]; then
  for d in "$ROOT/build/bin" "$ROOT/build-dev/bin"; do [ -x "$d/ssdtlm-capture" ] && BIN="$d" && break; done
fi
[ -x "${BIN:-}/ssdtlm-capture" ] || { echo "no ssdtlm-capture (build the target ssdtlm-capture; SSDTLM_BIN_DIR)" >&2; exit 2; }
OUT="${OUT:-$ROOT/captures}"
mkdir -p "$OUT"

# need_packages PKG...: installs the Debian packages that are missing (root: apt-get; else sudo).
need_packages() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "[capture] installing: ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# timed FILE CMD...: runs CMD, writes its wall time in seconds to FILE.
timed() {
  local file="$1"; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@"
  t1=$(date +%s.%N)
  python3 -c "print(round($t1 - $t0, 6))" > "$file"
}
