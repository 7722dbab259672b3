// The host runtime: init/finalize, the collective symmetric heap, the peer table, host RMA.
//
// Init runs in stages; after each one every PE says whether it failed (bootstrap::agree), so a
// failure on one PE makes every PE throw gio::error naming that PE and its cause, instead of
// leaving the others blocked in the next collective.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime.hpp"
#include "teams.hpp"
#include "topology.hpp"

namespace gio {
namespace rt {

runtime::~runtime() {
  // Every PE gets here together (finalize, or an init failure all PEs agreed on). Each step
  // runs on its own, so a failing one (a trapped kernel makes synchronize throw) cannot make
  // this PE skip a barrier that the other PEs are waiting in.
  if (device_selected) shutdown_step("synchronizing the GPU", [&] { backend->synchronize(); });
  each_network_on([&](transports::host_transport& t) {
    shutdown_step("completing network operations", [&] { t.quiet(*backend, handle, nullptr); });
  });
  if (boot) shutdown_step("barrier", [&] { boot->barrier(); });  // nobody still uses a heap
  // Every transport this PE tried to open, on or not: one that opened here but is off because
  // another PE could not open it still holds its NIC (and the model's plugin).
  for (network_slot& net : networks)
    if (net.state.wanted)
      shutdown_step("closing a network transport", [&] { net.transport->close(*backend); });
  for (auto& c : connections)
    shutdown_step("unmapping a peer heap", [&] { transports::p2p::disconnect(*backend, c); });
  if (peers_device) shutdown_step("freeing the peer table", [&] { backend->free_table(peers_device); });
  if (teams_device) shutdown_step("freeing the team table", [&] { backend->free_table(teams_device); });
  if (heap) shutdown_step("freeing the heap", [&] { backend->free_heap(heap, heap_bytes); });
  if (boot) shutdown_step("barrier", [&] { boot->barrier(); });
}

void runtime::shutdown_step(const char* what, const std::function<void()>& step) noexcept {
  try {
    step();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gio: PE %d: shutting down, %s: %s\n", pe(), what, e.what());
  }
}

}  // namespace rt

using namespace rt;

namespace {

constexpr std::size_t heap_granularity = 2u << 20;
constexpr std::uint64_t probe_magic = 0x67696f2d70726f62ull;  // "gio-prob"

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

std::unique_ptr<runtime> the_runtime;

// Runs one init stage on every PE and makes them agree on its outcome.
void stage(std::unique_ptr<runtime>& r, const char* what, const std::function<void()>& body) {
  std::string failure;
  try {
    body();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  const auto failed = r->boot->agree(failure);
  if (!failed) return;
  const int me = r->pe();
  const error reason = failed->pe == me
                           ? error(me, std::string(what) + ": " + failed->cause)
                           : error(me, "PE " + std::to_string(failed->pe) + " failed while " + what + ": " + failed->cause);
  // Printed here, before the teardown's barriers: once one PE exits non-zero, mpirun may kill
  // the others, and each PE's account of the failure should reach the log first.
  std::fprintf(stderr, "%s\n", reason.what());
  std::fflush(stderr);
  r.reset();
  throw reason;
}

// What a network transport's setup sees of the runtime.
transports::setup_view view_of(runtime& r) { return {r.settings, *r.boot, *r.backend, r.device}; }

// The GPU's work done, and every network operation it posted complete (a kernel's end does not
// complete them: the NIC may still be placing data).
void quiet_everything(runtime& r) {
  r.backend->synchronize();
  r.each_network_on([&](transports::host_transport& t) { t.quiet(*r.backend, r.handle, nullptr); });
}

void select_gpu(runtime& r) {
  if (!gpu_build) return;
  const int visible = r.backend->device_count();
  if (visible == 0) throw std::runtime_error("no GPU visible to this process (check CUDA_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES)");
  if (r.settings.num_gpus > visible)
    throw std::runtime_error("GIO_NUM_GPUS=" + std::to_string(r.settings.num_gpus) + " but only " +
                             std::to_string(visible) + " GPUs are visible");
  const int usable = r.settings.num_gpus ? r.settings.num_gpus : visible;
  // Node-local rank modulo the GPU count: several PEs may share one GPU.
  r.backend->select_device(r.boot->node_rank() % usable);
  r.device_selected = true;
  r.device = r.backend->info();
}

void allocate_heap(runtime& r) {
  const int n = r.boot->size();
  r.team_sync_offset = round_up(probe_offset + sizeof(std::uint64_t), 64);
  r.internal_bytes = round_up(r.team_sync_offset + team_sync_area_bytes(r.settings.max_teams, n), 4096);
  for (runtime::network_slot& net : r.networks) {
    net.state.wanted = net.transport->wanted(r.settings, *r.boot);
    if (net.state.wanted) r.internal_bytes += net.transport->plan_heap_area(r.settings, n, r.internal_bytes);
  }
  if (r.settings.symmetric_size > (std::size_t(1) << 50))
    throw std::runtime_error("GIO_SYMMETRIC_SIZE=" + config::format_size(r.settings.symmetric_size) +
                             " is larger than 1 PiB");
  r.heap_bytes = round_up(r.internal_bytes + r.settings.symmetric_size, heap_granularity);
  if (gpu_build && r.heap_bytes > r.device.free_bytes)
    throw std::runtime_error("GIO_SYMMETRIC_SIZE=" + config::format_size(r.settings.symmetric_size) +
                             " does not fit in GPU " + std::to_string(r.device.ordinal) + " (" + r.device.name +
                             "): " + config::format_size(r.device.free_bytes) + " free of " +
                             config::format_size(r.device.total_bytes));
  r.heap = static_cast<char*>(r.backend->allocate_heap(r.heap_bytes, gpu::net_buffer_caching(r.settings)));
  // Offsets are symmetric and addresses must honour shmem_align: both hold only if every PE's
  // heap starts on the same (largest supported) alignment.
  if (reinterpret_cast<std::uintptr_t>(r.heap) % heap_granularity != 0)
    throw std::runtime_error("the symmetric heap is not 2 MiB aligned (backend " + std::string(r.backend->name()) + ")");
  r.backend->fill(r.heap, 0, r.internal_bytes);  // barrier slots and team sync areas start at 0
  // One allocator over the whole heap; gio's own page is its first block, at offset 0.
  r.allocator = std::make_unique<heap_allocator>(r.heap_bytes);
  if (r.allocator->allocate(r.internal_bytes) != std::optional<std::size_t>(0))
    throw std::runtime_error("could not reserve gio's page of the heap");
}

// Collective, so outside every stage body: a PE that failed earlier in a body would skip a
// collective inside it and leave the others waiting.
std::vector<transports::p2p::heap_card> exchange_cards(runtime& r, const transports::p2p::heap_card& mine) {
  std::vector<transports::p2p::heap_card> all(r.boot->size());
  r.boot->allgather(&mine, all.data(), sizeof mine);
  return all;
}

// The peer table: this PE itself, then whatever each transport can reach.
void connect_peers(runtime& r, const std::vector<transports::p2p::heap_card>& cards) {
  const int n = r.boot->size(), me = r.pe();
  // The first network transport that is on takes the peers load/store leaves.
  transports::host_transport* network = nullptr;
  for (runtime::network_slot& net : r.networks)
    if (!network && net.state.on) network = net.transport.get();
  r.connections.assign(n, {});
  r.peers.assign(n, {});
  for (int pe = 0; pe < n; ++pe) {
    auto& c = r.connections[pe];
    if (pe == me) {
      c.peer = {r.heap, static_cast<std::uint32_t>(transport::self),
                peer_load_store | peer_native_atomics | peer_same_device};
      c.gpu = r.device.ordinal;
    } else if (network && network->takes_every_peer(r.settings)) {
      c.peer = network->peer_entry();
    } else {
      c = transports::p2p::connect(*r.backend, gpu_build, cards[me], cards[pe]);
      // Whatever load/store cannot reach goes through the network.
      if (network && !c.peer.heap_base) c.peer = network->peer_entry();
    }
    // GIO_ATOMICS=cas: the device library's CAS-loop fallback for every peer, this PE included.
    if (r.settings.atomics == "cas") c.peer.caps &= ~static_cast<std::uint32_t>(peer_native_atomics);
    r.peers[pe] = c.peer;
  }
}

// The PEs of this node whose heap cards name this PE's GPU (by PCI bus id), and whether MPS runs
// their kernels side by side (gpu_share in gio/host.hpp).
gpu_share share_of_gpu(const runtime& r, const std::vector<transports::p2p::heap_card>& cards) {
  gpu_share share;
  if (!gpu_build) return share;
  const transports::p2p::heap_card& mine = cards[r.pe()];
  share.pes = 0;
  for (const auto& card : cards)
    share.pes += card.node_id == mine.node_id && std::strncmp(card.gpu_bus_id, mine.gpu_bus_id, sizeof mine.gpu_bus_id) == 0;
  const mps_state mps = discover_mps();
  share.mps = mps.active;
  share.mps_percentage = mps.thread_percentage;
  return share;
}

// Opens this PE's side of each network transport the job wants; one is on only if every PE
// opened it. Forced without one is an error on every PE (open throws); otherwise PE 0 says in
// one line why other nodes are unreachable.
void open_networks(std::unique_ptr<runtime>& r) {
  for (runtime::network_slot& net : r->networks) {
    if (!net.state.wanted) continue;
    bool have = false;
    std::string why;
    stage(r, net.transport->opening_stage(), [&] { have = net.transport->open(view_of(*r), &why); });
    const char mine = have ? 1 : 0;
    std::vector<char> all(r->boot->size());
    r->boot->allgather(&mine, all.data(), 1);
    net.state.on = true;
    for (int pe = 0; pe < r->boot->size(); ++pe) {
      if (all[pe]) continue;
      net.state.on = false;
      net.state.off_reason =
          "PE " + std::to_string(pe) + " " + net.transport->missing_on_a_pe() + (pe == r->pe() ? ": " + why : "");
    }
    if (!net.state.on && r->pe() == 0)
      std::fprintf(stderr, "gio: no %s transport (%s); PEs on other nodes are unreachable\n", net.transport->name(),
                   net.state.off_reason.c_str());
  }
}

// Collective: each network transport that is on connects to the PEs the peer table routes over it.
void connect_networks(std::unique_ptr<runtime>& r) {
  for (runtime::network_slot& net : r->networks) {
    if (!net.state.on) continue;
    std::string failure;
    try {
      net.transport->connect(view_of(*r), r->heap, r->heap_bytes, r->peers);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    stage(r, net.transport->connecting_stage(), [&] {
      if (!failure.empty()) throw std::runtime_error(failure);
    });
  }
}

// Every mapped heap must answer a load from this GPU with its owner's probe word.
void probe_peers(runtime& r) {
  const int n = r.boot->size();
  std::vector<char*> bases(n);
  for (int pe = 0; pe < n; ++pe) bases[pe] = r.peers[pe].heap_base;
  std::vector<std::uint64_t> seen(n);
  r.backend->probe_loads(bases.data(), n, probe_offset, seen.data());
  for (int pe = 0; pe < n; ++pe) {
    if (!bases[pe]) continue;
    const std::uint64_t expected = probe_magic ^ static_cast<std::uint64_t>(pe);
    if (seen[pe] != expected) {
      char text[160];
      std::snprintf(text, sizeof text, "PE %d's heap is mapped but a load from it returned 0x%llx (expected 0x%llx)",
                    pe, static_cast<unsigned long long>(seen[pe]), static_cast<unsigned long long>(expected));
      throw std::runtime_error(text);
    }
  }
}

void publish_handle(runtime& r) {
  const int n = r.boot->size();
  r.peers_device = static_cast<peer_info*>(r.backend->allocate_table(sizeof(peer_info) * n));
  r.backend->copy(r.peers_device, r.peers.data(), sizeof(peer_info) * n);
  r.handle = device_handle{};
  r.handle.abi_version = handle_abi_version;
  r.handle.my_pe = r.pe();
  r.handle.n_pes = n;
  r.handle.heap_base = r.heap;
  r.handle.heap_size = r.heap_bytes;
  r.handle.peers = r.peers_device;
  r.handle.wait_timeout_ns = r.settings.wait_timeout_ns;
  r.each_network_on([&](transports::host_transport& t) { t.publish(r.handle); });
  // The inline window starts at the node's first PE (mpirun places a node's PEs contiguously).
  const int first = std::max(0, r.pe() - r.boot->node_rank());
  r.handle.inline_first_pe = first;
  r.handle.inline_count = std::min(handle_inline_peers, n - first);
  for (int i = 0; i < r.handle.inline_count; ++i) {
    char* base = r.peers[first + i].heap_base;
    if (!base) continue;
    r.handle.inline_reachable |= 1u << i;
    if (r.peers[first + i].caps & peer_native_atomics) r.handle.inline_native_atomics |= 1u << i;
    r.handle.inline_delta[i] = base - r.heap;
  }
}

// --- the collective heap ---------------------------------------------------------------------

// The handle's atomics area: from the lowest block of shmem_malloc_with_hints(SHMEM_MALLOC_ATOMICS_
// REMOTE) to the end of the highest (they gather at the heap's top end, so little else lies
// between), while a network transport is on; the same on every PE, since the blocks are symmetric.
// Kernels launched with a handle taken before a change keep the area they were given.
void refresh_atomics_area(runtime& r) {
  bool network = false;
  r.each_network_on([&](transports::host_transport&) { network = true; });
  r.handle.atomics_area_offset = 0;
  r.handle.atomics_area_bytes = 0;
  if (!network || r.atomics_blocks.empty()) return;
  const std::size_t first = *r.atomics_blocks.begin();
  std::size_t end = first;
  for (std::size_t offset : r.atomics_blocks) end = std::max(end, offset + r.allocator->block_size(offset));
  r.handle.atomics_area_offset = first;
  r.handle.atomics_area_bytes = end - first;
}

enum class collective_kind : std::uint32_t { malloc = 1, calloc, align, free };
const char* collective_name(collective_kind k) {
  switch (k) {
    case collective_kind::malloc: return "shmem_malloc";
    case collective_kind::calloc: return "shmem_calloc";
    case collective_kind::align: return "shmem_align";
    case collective_kind::free: return "shmem_free";
  }
  return "?";
}

struct collective_call {
  std::uint64_t serial;
  std::uint32_t kind;
  std::uint32_t pad;
  std::uint64_t size;
  std::uint64_t alignment_or_offset;
};

// Checked builds: every PE must make the same collective call with the same arguments. The
// check gathers every PE's call, so all PEs see the same mismatch and all throw.
void check_collective_call(runtime& r, collective_kind kind, std::uint64_t size, std::uint64_t extra) {
  if (!checked_build) return;
  const collective_call mine{r.collective_calls, static_cast<std::uint32_t>(kind), 0, size, extra};
  std::vector<collective_call> all(r.boot->size());
  r.boot->allgather(&mine, all.data(), sizeof mine);
  for (int pe = 1; pe < r.boot->size(); ++pe) {
    const auto& a = all[0];
    const auto& b = all[pe];
    if (a.kind == b.kind && a.size == b.size && a.alignment_or_offset == b.alignment_or_offset) continue;
    char text[320];
    std::snprintf(text, sizeof text,
                  "collective call #%llu does not match across PEs: PE 0 called %s(size %llu, %llu), PE %d called "
                  "%s(size %llu, %llu)",
                  static_cast<unsigned long long>(a.serial), collective_name(static_cast<collective_kind>(a.kind)),
                  static_cast<unsigned long long>(a.size), static_cast<unsigned long long>(a.alignment_or_offset), pe,
                  collective_name(static_cast<collective_kind>(b.kind)), static_cast<unsigned long long>(b.size),
                  static_cast<unsigned long long>(b.alignment_or_offset));
    throw error(r.pe(), text);
  }
}

// `overflowed`: shmem_calloc's count x size did not fit; every PE still takes part.
void* collective_allocate(collective_kind kind, std::size_t size, std::size_t alignment, bool overflowed = false,
                          heap_allocator::end from = heap_allocator::end::low) {
  runtime& r = running(collective_name(kind));
  check_collective_call(r, kind, size, alignment);
  ++r.collective_calls;
  if (overflowed) {
    std::fprintf(stderr, "gio: PE %d: shmem_calloc: count x size overflows size_t\n", r.pe());
    r.boot->barrier();
    return nullptr;
  }
  if ((alignment & (alignment - 1)) || alignment > heap_granularity) {
    std::fprintf(stderr, "gio: PE %d: shmem_align: alignment %zu is not a power of two of at most %zu\n", r.pe(),
                 alignment, heap_granularity);
    r.boot->barrier();
    return nullptr;
  }
  const auto offset = r.allocator->allocate(size, alignment, from);
  if (!offset) {
    std::fprintf(stderr, "gio: PE %d: %s: symmetric heap exhausted: %s (GIO_SYMMETRIC_SIZE=%s)\n", r.pe(),
                 collective_name(kind), r.allocator->describe_shortage(size).c_str(),
                 config::format_size(r.settings.symmetric_size).c_str());
    r.boot->barrier();
    return nullptr;
  }
  char* ptr = r.heap + *offset;
  std::string failure;
  try {
    if (kind == collective_kind::calloc && size) r.backend->fill(ptr, 0, size);  // synchronous
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (const auto failed = r.boot->agree(failure)) {  // also the call's barrier
    r.allocator->release(*offset);
    throw error(r.pe(), std::string(collective_name(kind)) + ": PE " + std::to_string(failed->pe) + ": " +
                            failed->cause);
  }
  return ptr;
}

}  // namespace

runtime& rt::running(const char* call) {
  if (!the_runtime) throw error(-1, std::string(call) + " called before shmem_init");
  return *the_runtime;
}

std::size_t rt::heap_offset(runtime& r, const void* ptr, std::size_t bytes, const char* call) {
  const char* p = static_cast<const char*>(ptr);
  if (p < r.heap || p >= r.heap + r.heap_bytes)
    throw error(r.pe(), std::string(call) + ": address " + std::to_string(reinterpret_cast<std::uintptr_t>(ptr)) +
                            " is not in the symmetric heap");
  const std::size_t offset = static_cast<std::size_t>(p - r.heap);
  if (bytes > r.heap_bytes - offset)
    throw error(r.pe(), std::string(call) + ": " + std::to_string(bytes) + " bytes at heap offset " +
                            std::to_string(offset) + " run past the end of the symmetric heap");
  return offset;
}

namespace {
void require_pe_in_range(runtime& r, int pe, const char* call) {
  if (pe < 0 || pe >= r.boot->size())
    throw error(r.pe(), std::string(call) + ": PE " + std::to_string(pe) + " out of range [0, " +
                            std::to_string(r.boot->size()) + ")");
}
}  // namespace

char* rt::reachable_heap(runtime& r, int pe, const char* call) {
  require_pe_in_range(r, pe, call);
  if (!r.peers[pe].heap_base)
    throw error(r.pe(), std::string(call) + ": PE " + std::to_string(pe) + " is not reachable from this PE");
  return r.peers[pe].heap_base;
}

bool rt::device_reachable(const runtime& r, int pe) {
  return r.peers[pe].heap_base || r.peers[pe].transport != static_cast<std::uint32_t>(transport::none);
}

void rt::require_device_reachable(runtime& r, int pe, const char* call) {
  require_pe_in_range(r, pe, call);
  if (!device_reachable(r, pe))
    throw error(r.pe(), std::string(call) + ": PE " + std::to_string(pe) + " is not reachable from this GPU");
}

// --- API ---------------------------------------------------------------------------------------

void shmem_init() {
  if (the_runtime) throw error(the_runtime->pe(), "shmem_init called twice");
  const auto started = std::chrono::steady_clock::now();
  auto r = std::make_unique<runtime>();
  const char* kind = std::getenv("GIO_BOOTSTRAP");
  try {
    r->boot = make_bootstrap(kind && *kind ? kind : "mpi");
  } catch (const std::exception& e) {
    const error reason(-1, e.what());
    std::fprintf(stderr, "%s\n", reason.what());  // as for every init failure
    throw reason;
  }
  stage(r, "reading the configuration", [&] { r->settings = config::load(); });
  stage(r, "selecting the GPU", [&] {
    r->backend = gpu::make_backend();
    select_gpu(*r);
    for (auto& t : transports::make_network_transports()) r->networks.push_back({std::move(t), {}});
  });
  stage(r, "allocating the symmetric heap", [&] { allocate_heap(*r); });
  open_networks(r);
  transports::p2p::heap_card mine{};
  stage(r, "exporting the heap", [&] {
    mine = transports::p2p::make_card(*r->backend, r->heap, r->heap_bytes, r->device.pci_bus_id, r->boot->node_id());
  });
  const std::vector<transports::p2p::heap_card> cards = exchange_cards(*r, mine);
  stage(r, "mapping peer heaps", [&] {
    connect_peers(*r, cards);
    r->share = share_of_gpu(*r, cards);
    const std::uint64_t word = probe_magic ^ static_cast<std::uint64_t>(r->pe());
    r->backend->copy(r->heap + probe_offset, &word, sizeof word);
  });
  connect_networks(r);
  r->boot->barrier();  // every import done and every probe word written
  stage(r, "probing peers", [&] {
    r->backend->exports_done();
    probe_peers(*r);
    publish_handle(*r);
  });
  std::vector<team_slot> teams = make_predefined_teams(*r);
  stage(r, "publishing the team table", [&] { publish_teams(*r, std::move(teams)); });
  r->init_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (r->settings.debug == "info" && r->pe() == 0)
    std::fprintf(stderr, "gio: %d PEs up in %.3f s (bootstrap %s, backend %s, heap %s per PE)\n", r->boot->size(),
                 r->init_seconds, r->boot->name(), r->backend->name(), config::format_size(r->heap_bytes).c_str());
  the_runtime = std::move(r);
}

void shmem_finalize() {
  if (!the_runtime) return;
  the_runtime.reset();
}

bool shmem_initialized() noexcept { return the_runtime != nullptr; }

gpu_share shmem_gpu_share() noexcept { return the_runtime ? the_runtime->share : gpu_share{}; }

int reserved_multiprocessors() noexcept {
  int reserved = 0;
  if (the_runtime)
    the_runtime->each_network_on([&](transports::host_transport& t) { reserved += t.reserved_multiprocessors(); });
  return reserved;
}

namespace {
int provided_thread_level = SHMEM_THREAD_SINGLE;
}  // namespace

int shmem_init_thread(int requested, int* provided) {
  if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
    throw error(-1, "shmem_init_thread: " + std::to_string(requested) + " is not a thread level (SHMEM_THREAD_SINGLE "
                    "to SHMEM_THREAD_MULTIPLE)");
  shmem_init();
  provided_thread_level = std::min(requested, SHMEM_THREAD_SERIALIZED);
  if (provided) *provided = provided_thread_level;
  return 0;
}

void shmem_query_thread(int* provided) {
  running("shmem_query_thread");
  *provided = provided_thread_level;
}

void shmem_global_exit(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  if (the_runtime) the_runtime->boot->abort_job(status);
  std::exit(status);  // before shmem_init (abort_job does not return either)
}

void shmem_info_get_version(int* major, int* minor) {
  *major = SHMEM_MAJOR_VERSION;
  *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char* name) {
  std::snprintf(name, SHMEM_MAX_NAME_LEN, "%s %s (OpenSHMEM %d.%d)", SHMEM_VENDOR_STRING, GIO_VERSION_STRING,
                SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
}

int shmem_pe_accessible(int pe) {
  const runtime& r = running("shmem_pe_accessible");
  return pe >= 0 && pe < r.boot->size() && rt::device_reachable(r, pe) ? 1 : 0;
}

int shmem_addr_accessible(const void* addr, int pe) {
  const runtime& r = running("shmem_addr_accessible");
  const char* p = static_cast<const char*>(addr);
  return shmem_pe_accessible(pe) && p >= r.heap + r.internal_bytes && p < r.heap + r.heap_bytes ? 1 : 0;
}

int shmem_my_pe() { return running("shmem_my_pe").pe(); }
int shmem_n_pes() { return running("shmem_n_pes").boot->size(); }

void* shmem_malloc(std::size_t size) { return collective_allocate(collective_kind::malloc, size, 0); }

void* shmem_calloc(std::size_t count, std::size_t size) {
  const bool overflowed = size != 0 && count > SIZE_MAX / size;
  return collective_allocate(collective_kind::calloc, overflowed ? SIZE_MAX : count * size, 0, overflowed);
}

void* shmem_align(std::size_t alignment, std::size_t size) {
  return collective_allocate(collective_kind::align, size, alignment);
}

void shmem_free(void* ptr) {
  runtime& r = running("shmem_free");
  // A pointer outside the heap is reported after the collective part, which every PE must reach.
  const char* p = static_cast<const char*>(ptr);
  const bool in_heap = p >= r.heap && p < r.heap + r.heap_bytes;
  const std::size_t offset = ptr && in_heap ? static_cast<std::size_t>(p - r.heap) : 0;
  check_collective_call(r, collective_kind::free, 0, ptr && !in_heap ? SIZE_MAX : offset);
  ++r.collective_calls;
  quiet_everything(r);
  r.boot->barrier();  // no PE may still be using the block
  if (!ptr) return;
  if (!in_heap || offset < r.internal_bytes || !r.allocator->release(offset))
    throw error(r.pe(), "shmem_free: " + std::to_string(reinterpret_cast<std::uintptr_t>(ptr)) +
                            " was not returned by shmem_malloc/calloc/align (or was freed already)");
  if (r.atomics_blocks.erase(offset)) refresh_atomics_area(r);
}

void* shmem_realloc(void* ptr, std::size_t size) {
  if (!ptr) return shmem_malloc(size);
  if (size == 0) {
    shmem_free(ptr);
    return nullptr;
  }
  runtime& r = running("shmem_realloc");
  const char* p = static_cast<const char*>(ptr);
  const std::size_t old_bytes =
      p >= r.heap && p < r.heap + r.heap_bytes ? r.allocator->block_size(static_cast<std::size_t>(p - r.heap)) : 0;
  // Every PE allocates (collectively) before any reports a bad pointer, so none is left waiting.
  // A block of the atomics area stays in it.
  const bool atomics = p >= r.heap && r.atomics_blocks.count(static_cast<std::size_t>(p - r.heap)) != 0;
  void* fresh = atomics ? shmem_malloc_with_hints(size, SHMEM_MALLOC_ATOMICS_REMOTE) : shmem_malloc(size);
  if (!fresh) return nullptr;
  if (old_bytes == 0) {
    shmem_free(fresh);
    throw error(r.pe(), "shmem_realloc: " + std::to_string(reinterpret_cast<std::uintptr_t>(ptr)) +
                            " was not returned by shmem_malloc/calloc/align/realloc (or was freed already)");
  }
  r.backend->copy(fresh, ptr, std::min(old_bytes, size));
  shmem_free(ptr);
  return fresh;
}

void* shmem_malloc_with_hints(std::size_t size, long hints) {
  runtime& r = running("shmem_malloc_with_hints");
  const long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
  const bool atomics = (hints & SHMEM_MALLOC_ATOMICS_REMOTE) != 0;
  // First, collectively: a bad hint must not leave PEs waiting.
  void* block = collective_allocate(collective_kind::malloc, size, 0, false,
                                    atomics ? heap_allocator::end::high : heap_allocator::end::low);
  if (hints & ~known) {
    shmem_free(block);
    throw error(r.pe(), "shmem_malloc_with_hints: hints " + std::to_string(hints) +
                            " hold bits outside SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE");
  }
  if (block && atomics) {
    r.atomics_blocks.insert(static_cast<std::size_t>(static_cast<char*>(block) - r.heap));
    refresh_atomics_area(r);
  }
  return block;
}

void* shmem_ptr(const void* dest, int pe) {
  runtime& r = running("shmem_ptr");
  const char* p = static_cast<const char*>(dest);
  if (pe < 0 || pe >= r.boot->size() || p < r.heap || p >= r.heap + r.heap_bytes) return nullptr;
  char* base = r.peers[pe].heap_base;
  return base ? base + (p - r.heap) : nullptr;
}

void shmem_quiet() { quiet_everything(running("shmem_quiet")); }

void shmem_barrier_all() {
  runtime& r = running("shmem_barrier_all");
  quiet_everything(r);
  r.boot->barrier();
}

namespace {
// Whether host RMA to `pe` goes through a network transport: reachable, nothing mapped to copy
// through (a PE out of range is reachable_heap's error).
bool over_network(const runtime& r, int pe) {
  return pe >= 0 && pe < r.boot->size() && !r.peers[pe].heap_base && device_reachable(r, pe);
}

// A host put/get: a copy through the mapped heap, or over a network a one-workgroup kernel running the
// device library (the NIC reaches the peer; nothing is mapped to copy through).
void host_rma(const char* call, bool put, void* symmetric, void* local, std::size_t nbytes, int pe,
              const stream_t* stream) {
  runtime& r = running(call);
  const std::size_t offset = heap_offset(r, symmetric, nbytes, call);
  if (over_network(r, pe)) {
    r.backend->rma(r.handle, {call, put, symmetric, local, nbytes, pe}, stream);
    return;
  }
  char* remote = reachable_heap(r, pe, call) + offset;
  void* dst = put ? static_cast<void*>(remote) : local;
  const void* src = put ? static_cast<const void*>(local) : remote;
  if (stream)
    r.backend->copy_async(dst, src, nbytes, *stream);
  else
    r.backend->copy(dst, src, nbytes);
}
}  // namespace

void shmem_putmem(void* dest, const void* source, std::size_t nbytes, int pe) {
  host_rma("shmem_putmem", true, dest, const_cast<void*>(source), nbytes, pe, nullptr);
}

void shmem_getmem(void* dest, const void* source, std::size_t nbytes, int pe) {
  host_rma("shmem_getmem", false, const_cast<void*>(source), dest, nbytes, pe, nullptr);
}

void detail::host_strided(const char* call, bool put, void* dest, const void* source, std::ptrdiff_t dst,
                          std::ptrdiff_t sst, std::size_t nelems, std::size_t size, int pe) {
  runtime& r = running(call);
  if (dst < 1 || sst < 1)
    throw error(r.pe(), std::string(call) + ": strides must be at least 1 element (dst " + std::to_string(dst) +
                            ", sst " + std::to_string(sst) + ")");
  if (nelems == 0) return;
  // Bytes from the first element's start to the last one's end, at `stride` elements apart.
  const auto span = [&](std::ptrdiff_t stride, const char* side) {
    std::size_t bytes = 0;
    if (__builtin_mul_overflow(nelems - 1, static_cast<std::size_t>(stride), &bytes) ||
        __builtin_mul_overflow(bytes, size, &bytes) || __builtin_add_overflow(bytes, size, &bytes))
      throw error(r.pe(), std::string(call) + ": " + std::to_string(nelems) + " elements " + std::to_string(stride) +
                              " apart overflow the " + side + " address range");
    return bytes;
  };
  span(put ? sst : dst, "local");
  char* symmetric = static_cast<char*>(put ? dest : const_cast<void*>(source));
  char* local = static_cast<char*>(put ? const_cast<void*>(source) : dest);
  const std::size_t symmetric_pitch = static_cast<std::size_t>(put ? dst : sst) * size;
  const std::size_t local_pitch = static_cast<std::size_t>(put ? sst : dst) * size;
  const std::size_t offset = heap_offset(r, symmetric, span(put ? dst : sst, "symmetric"), call);
  if (over_network(r, pe)) {
    for (std::size_t i = 0; i < nelems; ++i)  // one network transfer per element
      r.backend->rma(r.handle, {call, put, symmetric + i * symmetric_pitch, local + i * local_pitch, size, pe}, nullptr);
    return;
  }
  char* remote = reachable_heap(r, pe, call) + offset;
  if (put)
    r.backend->copy_strided(remote, symmetric_pitch, local, local_pitch, size, nelems);
  else
    r.backend->copy_strided(local, local_pitch, remote, symmetric_pitch, size, nelems);
}

bool detail::host_wait(const char* call, const void* ivar, dtype type, int cmp, const void* value, bool once) {
  runtime& r = running(call);
  if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
    throw error(r.pe(), std::string(call) + ": " + std::to_string(cmp) + " is not a comparison operator (SHMEM_CMP_EQ to "
                        "SHMEM_CMP_LE)");
  const std::size_t size = dtype_size(type);
  const std::size_t offset = rt::heap_offset(r, ivar, size, call);
  [[maybe_unused]] const auto started = std::chrono::steady_clock::now();
  return visit_dtype(type, [&](auto zero) {
    using T = decltype(zero);
    T want;
    std::memcpy(&want, value, sizeof want);
    for (unsigned polls = 0;; ++polls) {
      T seen;
      r.backend->copy(&seen, r.heap + offset, sizeof seen);
      if (detail::compare(seen, cmp, want)) {
        std::atomic_thread_fence(std::memory_order_acquire);
        return true;
      }
      if (once) return false;
#if defined(GIO_CHECKS) && GIO_CHECKS
      const auto waited = std::chrono::steady_clock::now() - started;
      if (r.settings.wait_timeout_ns &&
          std::chrono::duration_cast<std::chrono::nanoseconds>(waited).count() > static_cast<long long>(r.settings.wait_timeout_ns))
        throw error(r.pe(), std::string(call) + ": waited GIO_WAIT_TIMEOUT for the word at heap offset " +
                                std::to_string(offset) + " (comparison " + std::to_string(cmp) + " with " +
                                std::to_string(want) + "): it holds " + std::to_string(seen));
#endif
      if (polls > 64) std::this_thread::yield();
    }
  });
}

void shmem_putmem_nbi(void* dest, const void* source, std::size_t nbytes, int pe) {
  host_rma("shmem_putmem_nbi", true, dest, const_cast<void*>(source), nbytes, pe, nullptr);
}

void shmem_getmem_nbi(void* dest, const void* source, std::size_t nbytes, int pe) {
  host_rma("shmem_getmem_nbi", false, const_cast<void*>(source), dest, nbytes, pe, nullptr);
}

void shmem_putmem_on_stream(void* dest, const void* source, std::size_t nbytes, int pe, stream_t stream) {
  host_rma("shmem_putmem_on_stream", true, dest, const_cast<void*>(source), nbytes, pe, &stream);
}

void shmem_getmem_on_stream(void* dest, const void* source, std::size_t nbytes, int pe, stream_t stream) {
  host_rma("shmem_getmem_on_stream", false, const_cast<void*>(source), dest, nbytes, pe, &stream);
}

// Copies enqueued on a stream complete before the stream's next work starts, and the copy
// engine's writes to a peer are visible once the copy completes: stream order already gives
// quiet's guarantee for the mapped peers. A network transport's quiet waits on the stream for its WQEs.
void shmem_quiet_on_stream(stream_t stream) {
  runtime& r = running("shmem_quiet_on_stream");
  // A network's operations outlive the kernels that posted them.
  r.each_network_on([&](transports::host_transport& t) { t.quiet(*r.backend, r.handle, &stream); });
}

// The world team's device sync with quiet, on the stream: the protocol and count of the kernels'
// shmem_barrier_all, so the two are one sequence of world barriers.
void shmem_barrier_all_on_stream(stream_t stream) {
  constexpr const char* call = "shmem_barrier_all_on_stream";
  runtime& r = running(call);
  if (!gpu_build) return shmem_barrier_all();  // no device: streams run synchronously
  // The device barrier writes into every PE's heap: through a mapping or over a network.
  for (int pe = 0; pe < r.boot->size(); ++pe) require_device_reachable(r, pe, call);
  r.backend->team_sync(r.handle, SHMEM_TEAM_WORLD, /*quiet=*/true, call, &stream);
}

device_handle detail::device_handle_for(std::uint32_t caller_abi) {
  runtime& r = running("shmem_device_handle");
  if (caller_abi != handle_abi_version)
    throw error(r.pe(), "shmem_device_handle: the caller was compiled with gio headers whose device_handle is version " +
                            std::to_string(caller_abi) + ", but the linked libgio's is version " +
                            std::to_string(handle_abi_version) + ": rebuild the kernels against this gio's headers");
  return r.handle;
}

runtime_report shmem_runtime_report() {
  runtime& r = running("shmem_runtime_report");
  runtime_report rep;
  rep.my_pe = r.pe();
  rep.n_pes = r.boot->size();
  rep.node_pe = r.boot->node_rank();
  rep.node_pes = r.boot->node_size();
  rep.gpu = r.device.ordinal;
  rep.gpu_name = r.device.name;
  rep.gpu_bus_id = r.device.pci_bus_id;
  rep.heap_size = r.heap_bytes;
  rep.gpu_memory_used =
      gpu_build ? r.heap_bytes + sizeof(peer_info) * r.peers.size() + sizeof(team_info) * r.teams.size() : 0;
  rep.init_seconds = r.init_seconds;
  for (const runtime::network_slot& net : r.networks)
    rep.network += (rep.network.empty() ? "" : "; ") + net.transport->report(r.settings, net.state);
  return rep;
}

peer_report shmem_peer_report(int pe) {
  runtime& r = running("shmem_peer_report");
  if (pe < 0 || pe >= r.boot->size())
    throw error(r.pe(), "shmem_peer_report: PE " + std::to_string(pe) + " out of range");
  return {pe, static_cast<transport>(r.peers[pe].transport), r.peers[pe].caps, r.connections[pe].gpu};
}

}  // namespace gio
