// The three workloads as gio::ws programs (docs/worksteal.md, "Workloads"): trivially copyable
// structs the kernel gets by value, each listing its task types and making its initial tasks.
#pragma once
#include <cstdint>

#include "gio/ws.hpp"
#include "uts.hpp"

namespace worksteal {

// ---- memset: task i adds 1 to slot i, which lives on the PE that owns index i ----
struct memset_program;
struct memset_task {
  std::uint64_t index;
  template <class Spawn> GIO_DEVICE void operator()(const memset_program& p, Spawn& spawn) const;
};
struct memset_program {
  using tasks = gio::ws::task_list<memset_task>;
  std::uint64_t* slots;      // symmetric: slots_per_pe per PE
  std::uint64_t slots_per_pe;
  std::uint64_t first;       // this PE's first index
  GIO_DEVICE gio::ws::task initial(std::uint64_t i) const { return gio::ws::make_task<tasks>(memset_task{first + i}); }
};
template <class Spawn> GIO_DEVICE void memset_task::operator()(const memset_program& p, Spawn& spawn) const {
  const int owner = static_cast<int>(index / p.slots_per_pe);
  // An add, not a store, so that a task run twice shows as a 2; through the runtime's comm, so
  // that the program runs over gio and over NVSHMEM alike.
  Spawn::comm::add(spawn.context(), p.slots + index % p.slots_per_pe, 1, owner);
}

// ---- uts: a task generates one child of a node and splits the node's other children in two ----
struct uts_program;
struct uts_children {
  std::uint32_t digest[5];  // the parent
  std::uint16_t height;     // the parent's
  std::uint16_t first;      // children [first, first + count) of the parent are still to be made
  std::uint16_t count;
  template <class Spawn> GIO_DEVICE void operator()(const uts_program& p, Spawn& spawn) const;
};
static_assert(sizeof(uts_children) <= gio::ws::task_payload_bytes, "a UTS task is one 32-byte task");
struct uts_program {
  using tasks = gio::ws::task_list<uts_children>;
  uts::tree_params params;
  const gio::ws::task* frontier;  // this PE's share of the host's breadth-first frontier
  GIO_DEVICE gio::ws::task initial(std::uint64_t i) const { return frontier[i]; }
};
// One SHA-1 per task: every thread of a phase does the same work, and a node with many children
// (a binomial root has 2000) is spread over the workers in log2(children) rounds.
template <class Spawn> GIO_DEVICE void uts_children::operator()(const uts_program& p, Spawn& spawn) const {
  uts::node parent;
  for (int k = 0; k < 5; ++k) parent.digest[k] = digest[k];
  parent.height = height;
  const uts::node kid = uts::child(parent, first);
  const int grandchildren = uts::num_children(p.params, kid);
  if (grandchildren > 0) {
    uts_children next{{kid.digest[0], kid.digest[1], kid.digest[2], kid.digest[3], kid.digest[4]},
                      static_cast<std::uint16_t>(kid.height), 0, static_cast<std::uint16_t>(grandchildren)};
    spawn.spawn(next);
  } else {
    spawn.tally(0, 1);  // a leaf
  }
  spawn.tally_max(static_cast<std::uint64_t>(kid.height));
  const std::uint16_t rest = static_cast<std::uint16_t>(count - 1);
  if (rest == 0) return;
  const std::uint16_t half = rest / 2;
  uts_children upper = *this;
  upper.first = static_cast<std::uint16_t>(first + 1 + half);
  upper.count = static_cast<std::uint16_t>(rest - half);
  spawn.spawn(upper);
  if (half > 0) {
    uts_children lower = *this;
    lower.first = static_cast<std::uint16_t>(first + 1);
    lower.count = half;
    spawn.spawn(lower);
  }
}

// ---- contains: a task searches a document, or a part of a long one, stopping at the first hit ----
// A document with more than `piece` places the word could start at is split in halves until each
// part has at most `piece` (docs/worksteal.md, "Workloads": one thread scanning a whole long
// document holds up its worker's phase). A part that finds the word counts the document if it is
// the first to mark it found (one flag per document, on the PE that owns it); a part that starts
// after the document was found skips its scan.
struct contains_program;
struct contains_task {
  std::uint64_t document;
  std::uint32_t offset;  // a part: the first start position it searches, from the document's start
  std::uint32_t length;  // a part: how many start positions; 0: the whole document
  template <class Spawn> GIO_DEVICE void operator()(const contains_program& p, Spawn& spawn) const;
};
struct contains_program {
  using tasks = gio::ws::task_list<contains_task>;
  const char* text;               // the whole corpus, on every GPU
  const std::uint64_t* offsets;
  const char* word;
  std::uint32_t word_length;
  std::uint32_t piece;            // most start positions one task searches; 0: whole documents
  std::uint64_t first;            // this PE's first document
  std::uint64_t per_pe;           // documents per PE: document d belongs to PE d / per_pe
  std::uint64_t* found;           // symmetric, per_pe words: split documents' flags on their PE
  GIO_DEVICE gio::ws::task initial(std::uint64_t i) const {
    return gio::ws::make_task<tasks>(contains_task{first + i, 0, 0});
  }
  // Whether the word starts at one of text[from, from + starts).
  GIO_DEVICE bool holds(std::uint64_t from, std::uint64_t starts) const {
    const char first_letter = word[0];
    for (std::uint64_t i = from; i < from + starts; ++i) {
      if (text[i] != first_letter) continue;
      std::uint32_t k = 1;
      while (k < word_length && text[i + k] == word[k]) ++k;
      if (k == word_length) return true;
    }
    return false;
  }
};
template <class Spawn> GIO_DEVICE void contains_task::operator()(const contains_program& p, Spawn& spawn) const {
  const std::uint64_t begin = p.offsets[document], size = p.offsets[document + 1] - begin;
  if (size < p.word_length) return;
  const std::uint64_t starts = length ? length : size - p.word_length + 1;
  if (p.piece != 0 && starts > p.piece) {
    const auto half = static_cast<std::uint32_t>(starts / 2);
    spawn.spawn(contains_task{document, offset, half});
    spawn.spawn(contains_task{document, offset + half, static_cast<std::uint32_t>(starts - half)});
    return;
  }
  if (length == 0) {  // a whole document, never split
    if (p.holds(begin, starts)) spawn.tally(0, 1);
    return;
  }
  using comm = typename Spawn::comm;
  const int owner = static_cast<int>(document / p.per_pe);
  std::uint64_t* flag = p.found + document % p.per_pe;
  if (comm::fetch(spawn.context(), flag, owner) != 0) return;
  if (p.holds(begin + offset, starts) && comm::fetch_add(spawn.context(), flag, 1, owner) == 0) spawn.tally(0, 1);
}

}  // namespace worksteal
