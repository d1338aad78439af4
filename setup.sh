#!/usr/bin/env bash
# TuneScope set-up on Debian 12. One script, four verbs:
#   ./setup.sh run [--headless]   install dependencies, build, start the workbench on its demo workspace
#                                 (--headless, or no display: print the demo's content and a short
#                                 tuning run instead)
#   ./setup.sh test               install dependencies, build, run every test (CTest)
#   ./setup.sh deps               install the Debian packages only
#   ./setup.sh build              configure and build only
# PRESET=debug or PRESET=asan picks another CMake preset (default: release).
set -euo pipefail
cd "$(dirname "$0")"
PRESET=${PRESET:-release}

PACKAGES=(
  g++ cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev libqt6sql6-sqlite
  libqcustomplot-dev libqcustomplot2.1-qt6
  libtorch-dev libgloo-dev libopenblas0-pthread libopenblas-dev
  libxgboost-dev llvm-15-dev libgraphviz-dev libsqlite3-dev sqlite3 xz-utils nlohmann-json3-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata python3-torch python3-torchvision
  libgtest-dev libgmock-dev libbenchmark-dev
  # A shared workspace on a PostgreSQL server (libpq); the tests start a private server (initdb, pg_ctl).
  libpq-dev postgresql
  xvfb xauth fonts-dejavu-core libxkbcommon-dev
  # The Chinese interface (--lang zh_CN): CJK glyphs (about 57 MB download, 89 MB installed; see
  # docs/user-guide.md, Languages) and Qt's own strings (standard buttons) in German and Chinese.
  fonts-noto-cjk qt6-translations-l10n
)

deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all ${#PACKAGES[@]} Debian packages are installed"
    return
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build() {
  cmake --preset "$PRESET"
  cmake --build --preset "$PRESET"
}

app="build/$PRESET/app/gui/tunescope"
cli="build/$PRESET/app/tunescope-cli"

case "${1:-}" in
  deps) deps ;;
  build) build ;;
  test)
    deps
    build
    ctest --preset "$PRESET"
    ;;
  run)
    deps
    build
    if [ "${2:-}" = "--headless" ] || { [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; }; then
      [ "${2:-}" = "--headless" ] || echo "setup: no display found, printing the demo workspace instead (--headless)"
      "$app" --headless
      ws="$(mktemp -d)/demo.tunescope"
      echo
      echo "setup: a short tuning run: ResNet-18's 3x3 conv2d (NHWC task 2), 32 trials, into $ws"
      exec "$cli" tune --network resnet-18 --layout NHWC --tasks 2 --trials 32 --measures-per-round 16 --workspace "$ws"
    fi
    exec "$app"
    ;;
  *)
    sed -n '2,9p' "$0"
    exit 2
    ;;
esac
