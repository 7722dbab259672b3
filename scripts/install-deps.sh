#!/usr/bin/env bash
# Installs what building and testing gio needs on Debian 12 / Ubuntu 22.04+ (apt). Idempotent:
# packages already present are left alone. Runs as root, or through sudo otherwise.
#   scripts/install-deps.sh          host toolchain, MPI, hwloc, rdma-core, GoogleTest, plotting, and the
#                                    kernel's mlx5 PRM layout header for tests/unit/mlx5_prm_test.cpp
#                                    (extracted into third_party/linux-mlx5-ifc/, not installed)
#   scripts/install-deps.sh --hip    also hipcc, the HIP runtime headers and rocSPARSE (compile-only AMD
#                                    builds; rocSPARSE is apps/spts's vendor baseline)
# CUDA (nvcc) is not installed here: use NVIDIA's toolkit, found via PATH or /usr/local/cuda.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

packages=(cmake ninja-build g++ libopenmpi-dev openmpi-bin libhwloc-dev libibverbs-dev
          libgtest-dev python3 python3-matplotlib)
# Debian's librocsparse-dev (5.3) installs beside its hipcc 5.2.
hip_packages=(hipcc libamdhip64-dev rocm-device-libs librocsparse-dev)

for arg in "$@"; do
  case "$arg" in
    --hip) packages+=("${hip_packages[@]}") ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "install-deps.sh: unknown option '$arg' (expected --hip)" >&2; exit 2 ;;
  esac
done

# A tool already on PATH (e.g. cmake/ninja from pip, as on the GPU machines) counts as present.
provided_otherwise() {
  case "$1" in
    cmake | g++ | python3 | hipcc) command -v "$1" >/dev/null ;;
    ninja-build) command -v ninja >/dev/null ;;
    python3-matplotlib) python3 -c 'import matplotlib' 2>/dev/null ;;
    *) return 1 ;;
  esac
}

as_root=()
if ((EUID != 0)); then
  as_root=(sudo)
fi
need_root() {
  ((EUID == 0)) || command -v sudo >/dev/null || { echo "install-deps.sh: run as root or install sudo" >&2; exit 1; }
}

install_packages() {
  local missing=() package
  for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' &&
      ! provided_otherwise "$package"; then
      missing+=("$package")
    fi
  done
  if ((${#missing[@]} == 0)); then
    echo "install-deps.sh: all ${#packages[@]} packages already installed"
    return
  fi
  need_root
  echo "install-deps.sh: installing ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# The newest linux-headers-*-common package apt knows (not the -rt flavour), printed as
# "name version"; nothing when apt lists none.
newest_kernel_headers() {
  local name version best="" best_version=""
  while read -r name _; do
    [[ $name == *-rt-* ]] && continue
    version=$(apt-cache show --no-all-versions "$name" 2>/dev/null | awk '/^Version:/ {print $2; exit}')
    [[ -z $version ]] && continue
    if [[ -z $best ]] || dpkg --compare-versions "$version" gt "$best_version"; then
      best=$name
      best_version=$version
    fi
  done < <(apt-cache search --names-only '^linux-headers-.*-common$')
  [[ -n $best ]] && echo "$best $best_version"
}

# The Linux kernel's mlx5 PRM layout header (include/linux/mlx5/mlx5_ifc.h and its siblings): the
# reference tests/unit/mlx5_prm_test.cpp checks gio's DevX command encoder against. Taken from
# Debian's linux-headers-*-common package with `apt-get download` (no install, no root) and only
# include/linux/mlx5/ extracted into third_party/linux-mlx5-ifc/ (git-ignored), which CMake's
# GIO_MLX5_IFC_DIR names by default. Kept once there: delete the directory to fetch anew.
fetch_mlx5_ifc() {
  local dest=$repo/third_party/linux-mlx5-ifc
  if [[ -f $dest/linux/mlx5/mlx5_ifc.h ]]; then
    echo "install-deps.sh: kernel mlx5_ifc.h already in $dest ($(cat "$dest/SOURCE" 2>/dev/null || echo 'source unknown'))"
    return
  fi
  local chosen
  chosen=$(newest_kernel_headers || true)
  if [[ -z $chosen ]]; then  # package lists not fetched yet (a fresh machine)
    need_root
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    chosen=$(newest_kernel_headers || true)
  fi
  [[ -n $chosen ]] || { echo "install-deps.sh: apt knows no linux-headers-*-common package" >&2; exit 1; }
  local name=${chosen%% *} work
  work=$(mktemp -d)
  echo "install-deps.sh: fetching $chosen for its include/linux/mlx5/"
  (cd "$work" && apt-get download -q "$name")
  dpkg-deb --fsys-tarfile "$work"/*.deb | tar -x -C "$work" --wildcards '*/include/linux/mlx5/*'
  local found
  found=$(find "$work" -path '*/include/linux/mlx5/mlx5_ifc.h' -print -quit)
  [[ -n $found ]] || { echo "install-deps.sh: $name has no include/linux/mlx5/mlx5_ifc.h" >&2; exit 1; }
  rm -rf "$dest"
  mkdir -p "$dest/linux"
  cp -r "$(dirname "$found")" "$dest/linux/mlx5"
  echo "$chosen" >"$dest/SOURCE"
  rm -rf "$work"
  echo "install-deps.sh: kernel mlx5 headers in $dest"
}

install_packages
fetch_mlx5_ifc
