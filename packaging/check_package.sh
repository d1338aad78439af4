#!/usr/bin/env bash
# Builds TuneScope's Debian package with CPack and checks it without installing it (no root needed):
# the package is unpacked with dpkg-deb -x into a temporary root, and its binaries run from there against
# the host's libraries, which is what an installed package would do.
#   packaging/check_package.sh BUILD_DIR SOURCE_DIR VERSION [DEB]
# With DEB the given package is checked instead of building one. Registered with CTest as packaging.deb.
# Checks: the control fields (Package, Version, Depends); the file list; no RUNPATH; every library the binaries
# link resolves, comes from a package that Depends names, and meets dpkg-shlibdeps' minimum version; the
# programs start from the unpacked /usr/bin (--version, --headless, a measurement that must use the packaged
# tunescope-runner); the translations are compiled in; the desktop entry (desktop-file-validate where installed).
set -euo pipefail

if [ $# -lt 3 ]; then
  sed -n '2,10p' "$0"
  exit 2
fi
build=$(realpath "$1")
source=$(realpath "$2")
version=$3
deb=${4:-}

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tunescope-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -z "$deb" ]; then
  # -B keeps CPack's staging folders and the .deb out of the build tree the user packages from.
  start=$SECONDS
  (cd "$build" && cpack -G DEB -B "$tmp/cpack" > "$tmp/cpack.log" 2>&1) || {
    cat "$tmp/cpack.log" >&2
    echo "FAIL: cpack -G DEB failed" >&2
    exit 1
  }
  deb=$(find "$tmp/cpack" -maxdepth 1 -name 'tunescope_*.deb' | head -n 1)
  echo "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) in $((SECONDS - start)) s"
fi
[ -f "$deb" ] || { echo "FAIL: no package at '$deb'" >&2; exit 1; }

# --- control fields
info=$(dpkg-deb -I "$deb")
echo "$info" | grep -E '^ (Package|Version|Depends|Suggests):'
[ "$(dpkg-deb -f "$deb" Package)" = tunescope ] || fail "Package is not 'tunescope'"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version is not $version"
depends=$(dpkg-deb -f "$deb" Depends)
[ -n "$depends" ] || fail "dpkg-deb -I shows no Depends line"
declare -A declared # package name -> its entry in Depends, e.g. libc6 -> "libc6 (>= 2.34)"
while IFS= read -r entry; do
  entry=${entry#"${entry%%[! ]*}"}
  declared[${entry%% *}]=$entry
done < <(echo "$depends" | tr ',' '\n')

# --- file list
root="$tmp/root"
dpkg-deb -x "$deb" "$root"
expected=(
  usr/bin/tunescope
  usr/bin/tunescope-cli
  usr/bin/tunescope-runner
  usr/share/applications/tunescope.desktop
  usr/share/icons/hicolor/scalable/apps/tunescope.svg
  usr/share/doc/tunescope/README.md
)
while IFS= read -r doc; do
  expected+=("usr/share/doc/tunescope/docs/${doc#"$source/docs/"}")
done < <(find "$source/docs" -type f | sort)
for file in "${expected[@]}"; do
  [ -f "$root/$file" ] || fail "the package lacks /$file"
done
for exe in tunescope tunescope-cli tunescope-runner; do
  [ -x "$root/usr/bin/$exe" ] || fail "/usr/bin/$exe is not executable"
done
echo "checked ${#expected[@]} expected files; the package holds $(find "$root" -type f | wc -l)"

# --- libraries: each NEEDED entry resolves on this host, and its package is in Depends
owner() { # the package that owns a library path, trying both spellings of a merged /usr
  local real candidate
  real=$(readlink -f "$1")
  for candidate in "$1" "$real" "${real#/usr}" "/usr${real}"; do
    dpkg -S "$candidate" 2> /dev/null | head -n 1 | cut -d: -f1 && return 0
  done
  return 1
}
for exe in tunescope tunescope-cli tunescope-runner; do
  binary="$root/usr/bin/$exe"
  [ -f "$binary" ] || continue
  if readelf -d "$binary" | grep -qE 'RUNPATH|RPATH'; then
    fail "$exe keeps a run path: $(readelf -d "$binary" | grep -E 'RUNPATH|RPATH')"
  fi
  # Run with LD_LIBRARY_PATH unset, as the installed program would be.
  resolved=$(env -u LD_LIBRARY_PATH ldd "$binary") || true
  if echo "$resolved" | grep -q 'not found'; then
    fail "$exe: $(echo "$resolved" | grep 'not found' | tr -s ' \t' ' ')"
  fi
  for soname in $(readelf -d "$binary" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p'); do
    path=$(echo "$resolved" | awk -v s="$soname" '$1 == s { print $3 }')
    package=$(owner "$path") || { fail "$exe: $soname ($path) belongs to no Debian package"; continue; }
    [ -n "${declared[$package]:-}" ] || fail "$exe links $soname from $package, which Depends does not name"
  done
done

# Where dpkg-dev is installed, dpkg-shlibdeps says which minimum versions the binaries' symbols need; the
# Depends line must ask for at least as much.
if command -v dpkg-shlibdeps > /dev/null; then
  mkdir -p "$tmp/shlibdeps/debian"
  printf 'Source: tunescope\n\nPackage: tunescope\nArchitecture: any\n' > "$tmp/shlibdeps/debian/control"
  shlibs=$(cd "$tmp/shlibdeps" && dpkg-shlibdeps -O "$root"/usr/bin/* 2> "$tmp/shlibdeps.log") || true
  shlibs=$(echo "$shlibs" | sed -n 's/^shlibs:Depends=//p')
  [ -n "$shlibs" ] || fail "dpkg-shlibdeps computed no dependencies: $(cat "$tmp/shlibdeps.log")"
  minimum() { sed -nE 's/.*\(>= ([^)]+)\).*/\1/p'; } # "pkg (>= 1.2)" -> "1.2"
  while IFS= read -r entry; do
    entry=${entry#"${entry%%[! ]*}"}
    name=${entry%% *}
    need=$(echo "$entry" | minimum)
    have=$(echo "${declared[$name]:-}" | minimum)
    if [ -z "${declared[$name]:-}" ]; then
      fail "dpkg-shlibdeps asks for $entry, which Depends does not name"
    elif [ -n "$need" ] && { [ -z "$have" ] || dpkg --compare-versions "$have" lt "$need"; }; then
      fail "dpkg-shlibdeps asks for $entry; Depends says ${declared[$name]}"
    fi
  done < <(echo "$shlibs" | tr ',' '\n')
else
  echo "dpkg-shlibdeps not installed (package dpkg-dev): minimum versions not checked"
fi

# --- the binaries run from the unpacked /usr/bin
bin=$(realpath "$root/usr/bin") # the runner lookup canonicalises its path
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/home/data" XDG_RUNTIME_DIR="$tmp/runtime"
mkdir -p "$XDG_DATA_HOME"
mkdir -m 700 "$XDG_RUNTIME_DIR"
run() { env -u LD_LIBRARY_PATH -u TUNESCOPE_RUNNER "$@" 2>&1; }
out=$(run "$bin/tunescope-cli" --version) || fail "tunescope-cli --version exited non-zero"
[ "$out" = "tunescope-cli $version" ] || fail "tunescope-cli --version printed '$out'"
out=$(run "$bin/tunescope" --headless) || fail "tunescope --headless exited non-zero: $out"
echo "$out" | grep -q 'TuneScope demo workspace: network resnet-18' || fail "tunescope --headless printed: $out"
out=$(run env QT_QPA_PLATFORM=offscreen "$bin/tunescope" --version) || fail "tunescope --version exited non-zero"
echo "$out" | grep -qx "TuneScope $version" || fail "tunescope --version printed '$out'"
# A measurement runs in tunescope-runner, which tunescope-cli looks for next to itself. Failing that it would
# fall back to the build tree's runner and still pass, so where strace works it checks which runner started.
measure=("$bin/tunescope-cli" measure --workload "matmul:16,16,16" --number 1 --min-repeat-ms 0)
if command -v strace > /dev/null && strace -qq -e trace=none true 2> /dev/null; then
  out=$(run strace -f -qq -e trace=execve -o "$tmp/execve.log" "${measure[@]}") || fail "tunescope-cli measure: $out"
  grep -qF "execve(\"$bin/tunescope-runner\"" "$tmp/execve.log" ||
    fail "tunescope-cli did not start $bin/tunescope-runner: $(grep -o 'execve("[^"]*runner"' "$tmp/execve.log")"
else
  out=$(run "${measure[@]}") || fail "tunescope-cli measure: $out"
  echo "strace not usable here: which tunescope-runner measured is not checked"
fi
echo "$out" | grep -q 'status: *0 (ok)' || fail "tunescope-cli measure printed: $out"
# qt_add_translations compiles the .qm files in; resource names are stored as UTF-16 big-endian. (grep reads to the
# end, not -q: under pipefail, strings killed by SIGPIPE after an early match would fail the pipeline.)
qms=$(strings -e b "$bin/tunescope" | grep -x 'tunescope_.*\.qm' || true)
for qm in tunescope_de.qm tunescope_zh_CN.qm; do
  echo "$qms" | grep -qx "$qm" || fail "tunescope has no compiled-in $qm"
done

# --- desktop entry
desktop="$root/usr/share/applications/tunescope.desktop"
grep -qx 'Icon=tunescope' "$desktop" || fail "the desktop entry does not say Icon=tunescope"
grep -qx 'Exec=tunescope' "$desktop" || fail "the desktop entry does not say Exec=tunescope"
if command -v desktop-file-validate > /dev/null; then
  desktop-file-validate "$desktop" || fail "desktop-file-validate rejects tunescope.desktop"
else
  echo "desktop-file-validate not installed (package desktop-file-utils): desktop entry validation skipped"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "package ok"
