#!/usr/bin/env bash
# Installs what building and testing gio needs on Debian 12 / Ubuntu 22.04+ (apt). Idempotent:
# packages already present are left alone. Runs as root, or through sudo otherwise.
#   scripts/install-deps.sh          host toolchain, MPI, hwloc, rdma-core, GoogleTest, plotting
#   scripts/install-deps.sh --hip    also hipcc, the HIP runtime headers and rocSPARSE (compile-only AMD
#                                    builds; rocSPARSE is apps/spts's vendor baseline)
# CUDA (nvcc) is not installed here: use NVIDIA's toolkit, found via PATH or /usr/local/cuda.
set -euo pipefail

packages=(cmake ninja-build g++ libopenmpi-dev openmpi-bin libhwloc-dev libibverbs-dev
          libgtest-dev python3 python3-matplotlib)
# Debian's librocsparse-dev (5.3) installs beside its hipcc 5.2.
hip_packages=(hipcc libamdhip64-dev rocm-device-libs librocsparse-dev)

for arg in "$@"; do
  case "$arg" in
    --hip) packages+=("${hip_packages[@]}") ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
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

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' &&
    ! provided_otherwise "$package"; then
    missing+=("$package")
  fi
done
if ((${#missing[@]} == 0)); then
  echo "install-deps.sh: all ${#packages[@]} packages already installed"
  exit 0
fi

as_root=()
if ((EUID != 0)); then
  command -v sudo >/dev/null || { echo "install-deps.sh: run as root or install sudo" >&2; exit 1; }
  as_root=(sudo)
fi
echo "install-deps.sh: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
