// Uses the installed headers and library: one PE without a launcher, a collective allocation,
// a host put to itself and a get back.
#include <gio/host.hpp>

#include <cstdio>
#include <cstring>

int main() {
  gio::shmem_init();
  const int me = gio::shmem_my_pe();
  auto* buffer = static_cast<char*>(gio::shmem_malloc(64));
  const char message[] = "installed gio works";
  gio::shmem_putmem(buffer, message, sizeof message, me);
  char back[sizeof message] = {};
  gio::shmem_getmem(back, buffer, sizeof message, me);
  gio::shmem_free(buffer);
  gio::shmem_finalize();
  std::printf("%s\n", back);
  return std::strcmp(back, message) == 0 ? 0 : 1;
}
