# Sourced by this session's round scripts: session 15's (device environment, build_spts,
# spts_tests, spts_done, `sp` on SP_NP PEs), and build_variant DIR CUDA_FLAGS, a second build of
# spts with extra compile flags (an experiment beside the tree's code, same run).
source docs/results/session15/common.sh
build_variant() {
  cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGIO_GPU=cuda -DGIO_BUILD_TESTS=ON \
    -DCMAKE_CUDA_FLAGS="$2" > $o/configure-$(basename $1).log 2>&1
  cmake --build "$1" -j 16 --target spts > $o/build-$(basename $1).log 2>&1 || { tail -30 $o/build-$(basename $1).log; exit 1; }
  rm -f $o/configure-$(basename $1).log $o/build-$(basename $1).log
}
