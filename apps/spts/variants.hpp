// The solve variants and push mechanisms the program measures, with the names the command line
// and the CSV use. Plain C++: the options (CPU) and the kernels (GPU) share these.
#pragma once
#include <cstdint>
#include <string>

namespace spts {

// gda and ikn are the gio solve with every other PE reached through the NIC (GIO_TRANSPORT=gda:
// the kernel rings the NIC; ikn: a CPU proxy posts, GIO Section 6.1): one transport per job, so
// at most one of gio, gda, ikn per run.
enum class variant { cpu, vendor, single, gio, gda, ikn };
bool is_distributed(variant v);  // gio, gda, ikn: every PE solves its rows and pushes

// How a solved x value reaches the PEs that read it (gio variant). solve_kernel.hpp has the calls.
enum class push_mode : int {
  none,    // one PE: no pushes (the `single` variant)
  packed,  // shmem_p of the 8-byte x word: value and ready flag in one store
  signal,  // shmem_put_signal: x, then a separate ready word at the consumer
  fence,   // shmem_p of x to each consumer, one shmem_fence, shmem_p of the ready word
  amo,     // shmem_atomic_set of the packed word (the transport's atomic path)
};

// How the gio kernels reach other PEs' words (docs/spts.md, "Occupancy"): gio's calls through a
// context (any transport), or, where every PE's heap is mapped in this GPU's address space, stores
// and atomics on the mapped addresses (packed pushes only).
enum class push_path : int {
  calls,   // shmem_p, shmem_atomic_fetch_add, shmem_atomic_fetch_inc, shmem_quiet
  mapped,  // the same loads, stores and atomics on shmem_ptr's addresses, resolved once on the host
};

// Modes that keep a ready word per x entry (else the unsolved bit pattern of x is the flag).
template <push_mode M>
inline constexpr bool has_ready_flags = M == push_mode::signal || M == push_mode::fence;

// The indegree kernel's shared-memory stack of ready rows per wave: the most --stack-rows.
inline constexpr std::int32_t indegree_stack_rows = 128;

const char* name(variant v);
const char* name(push_mode m);
// Throw std::invalid_argument listing the accepted names.
variant parse_variant(const std::string& text);
push_mode parse_push_mode(const std::string& text);  // packed, signal, fence or amo

}  // namespace spts
