// Broadcast/fcollect/alltoall families (generic templates once per element size, typed names
// where gio::types::rma_types' structs have them, the byte forms) and the generic reduction
// templates (see collective_families.hpp).
#include "collective_families.hpp"

namespace gio_test {

namespace {
void run_mem_family(const std::string& name) {
  run_data_scope<mem_data, unsigned char, thread>(name, true);
  run_data_scope<mem_data, unsigned char, wave>(name, true);
  run_data_scope<mem_data, unsigned char, wg>(name, true);
}
}  // namespace

std::vector<coll_family> collective_shard_4() {
  std::vector<coll_family> out = data_families_of_rows<0, data_rows>();
  out.push_back({"data_mem", &run_mem_family});
  // The generic reduction templates differ between types only by T: an integer and a floating type.
  out.push_back({"reduce_generic_int", &run_reduce_family<generic_reduce<int>, int>});
  out.push_back({"reduce_generic_uint64", &run_reduce_family<generic_reduce<std::uint64_t>, std::uint64_t>});
  out.push_back({"reduce_generic_double", &run_reduce_family<generic_reduce<double>, double>});
  return out;
}

}  // namespace gio_test
