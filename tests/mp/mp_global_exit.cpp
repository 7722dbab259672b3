// shmem_global_exit from one PE ends every PE's process with its status: PE 1 exits with 3 while
// the others wait in a barrier it never reaches (tests/mp/CMakeLists.txt checks the status).
#include <cstdio>

#include "gio/host.hpp"

int main() {
  gio::shmem_init();
  if (gio::shmem_my_pe() == 1) {
    std::printf("PE 1: shmem_global_exit(3)\n");
    gio::shmem_global_exit(3);
  }
  gio::shmem_barrier_all();  // never completes: PE 1 ended the job
  std::printf("PE %d: passed a barrier PE 1 never reached\n", gio::shmem_my_pe());
  gio::shmem_finalize();
  return 0;
}
