// Every put-with-signal binding at every scope: see signal_families.hpp.
#include "signal_families.hpp"

namespace gio_test {

std::vector<signal_family> signal_mem_family() { return {{"mem", &run_signal_forms<mem_signal, unsigned char>}}; }

namespace {

std::vector<signal_family> families() {
  std::vector<signal_family> out;
  for (auto shard : {signal_mem_family, signal_shard_0, signal_shard_1, signal_shard_2})
    for (auto& f : shard()) out.push_back(f);
  return out;
}

class PutSignal : public ::testing::TestWithParam<signal_family> {};
TEST_P(PutSignal, EveryFormSignalAndPayload) { GetParam().run(GetParam().name); }
INSTANTIATE_TEST_SUITE_P(Bindings, PutSignal, ::testing::ValuesIn(families()),
                         [](const ::testing::TestParamInfo<signal_family>& info) { return info.param.name; });

}  // namespace
}  // namespace gio_test
