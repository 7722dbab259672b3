// The Unbalanced Tree Search (UTS) tree, as the reference UTS distribution (uts.c with the SHA-1
// generator rng/brg_sha1.c) defines it, so that node counts equal the published ones.
//
// A node is the 20-byte SHA-1 state of a splittable random number generator plus its height. The
// root's state is SHA-1(16 zero bytes || seed), child i's is SHA-1(parent's state || i), integers
// as 4 big-endian bytes. The node's one random draw is the last 4 bytes of its state; the number
// of children is drawn from it by the tree type's rule (num_children). Nothing else is stored, so a
// node can be expanded by whichever thread or PE holds it.
//
// Written once for the host and the device: g++ sees plain inline functions, nvcc/hipcc
// __host__ __device__ ones (one GPU thread hashes one node; the SHA-1 below is one compression of
// one padded block, with its message schedule in a 16-word ring held in registers).
#pragma once
#include <cmath>
#include <cstdint>

#include "gio/platform/host_device.hpp"

namespace worksteal::uts {

enum class tree_type : std::int32_t { binomial = 0, geometric = 1, hybrid = 2 };
// How a geometric tree's expected branching factor b_i changes with depth.
enum class geo_shape : std::int32_t { linear = 0, expdec = 1, cyclic = 2, fixed = 3 };

// UTS's command-line parameters; the defaults are uts.c's. Passed to kernels by value.
struct tree_params {
  tree_type type = tree_type::geometric;  // -t
  geo_shape shape = geo_shape::linear;    // -a
  std::int32_t gen_mx = 6;                // -d: geometric trees' depth parameter
  std::int32_t nonleaf_bf = 4;            // -m: binomial trees' children of a non-leaf
  std::int32_t root_seed = 0;             // -r
  std::int32_t pad = 0;
  double b0 = 4.0;                       // -b: root branching factor
  double nonleaf_prob = 15.0 / 64.0;     // -q: binomial trees' probability of a non-leaf
  double shift_depth = 0.5;              // -f: hybrid trees go binomial at shift_depth * gen_mx
};

// digest[k] holds state bytes 4k..4k+3 big-endian, i.e. SHA-1's own word order.
struct node {
  std::uint32_t digest[5];
  std::int32_t height;
};
static_assert(sizeof(node) == 24, "a node is a 20-byte SHA-1 state and a 4-byte height");

// uts.h's MAXNUMCHILDREN: the cap on children of every node but a binomial tree's root.
inline constexpr int max_children = 100;

// ---- SHA-1 (FIPS 180-4) of messages of one block ----

GIO_HOST_DEVICE_INLINE std::uint32_t sha1_rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// SHA-1 of the message already padded into the block `w` (16 big-endian words), from the initial
// hash value. `w` is overwritten: it is the schedule's 16-word ring. Fully unrolled so that ring
// indices are constants (registers on a GPU, not local memory) and the padding's zero and constant
// words fold away in the callers below.
GIO_HOST_DEVICE_INLINE void sha1_single_block(std::uint32_t w[16], std::uint32_t digest[5]) {
  std::uint32_t a = 0x67452301u, b = 0xEFCDAB89u, c = 0x98BADCFEu, d = 0x10325476u, e = 0xC3D2E1F0u;
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__clang__)
#pragma unroll
#elif defined(__GNUC__)
#pragma GCC unroll 80
#endif
  for (int t = 0; t < 80; ++t) {
    std::uint32_t wt = w[t & 15];
    if (t >= 16) {
      wt = sha1_rotl(w[(t + 13) & 15] ^ w[(t + 8) & 15] ^ w[(t + 2) & 15] ^ wt, 1);
      w[t & 15] = wt;
    }
    std::uint32_t f, k;
    if (t < 20) {
      f = d ^ (b & (c ^ d));  // Ch
      k = 0x5A827999u;
    } else if (t < 40) {
      f = b ^ c ^ d;  // Parity
      k = 0x6ED9EBA1u;
    } else if (t < 60) {
      f = (b & c) | (d & (b | c));  // Maj
      k = 0x8F1BBCDCu;
    } else {
      f = b ^ c ^ d;
      k = 0xCA62C1D6u;
    }
    const std::uint32_t next = sha1_rotl(a, 5) + f + e + k + wt;
    e = d;
    d = c;
    c = sha1_rotl(b, 30);
    b = a;
    a = next;
  }
  digest[0] = 0x67452301u + a;
  digest[1] = 0xEFCDAB89u + b;
  digest[2] = 0x98BADCFEu + c;
  digest[3] = 0x10325476u + d;
  digest[4] = 0xC3D2E1F0u + e;
}

// SHA-1 of a 20-byte message (5 big-endian words): one block, 160 message bits.
GIO_HOST_DEVICE_INLINE void sha1_20_bytes(const std::uint32_t message[5], std::uint32_t digest[5]) {
  std::uint32_t w[16] = {message[0], message[1], message[2], message[3], message[4], 0x80000000u, 0, 0,
                         0,          0,          0,          0,          0,          0,           0, 160};
  sha1_single_block(w, digest);
}

// SHA-1 of a 24-byte message (5 big-endian words, then `last`): one block, 192 message bits.
GIO_HOST_DEVICE_INLINE void sha1_24_bytes(const std::uint32_t message[5], std::uint32_t last,
                                          std::uint32_t digest[5]) {
  std::uint32_t w[16] = {message[0], message[1], message[2], message[3], message[4], last, 0x80000000u, 0,
                         0,          0,          0,          0,          0,          0,    0,           192};
  sha1_single_block(w, digest);
}

// ---- the tree ----

// brg_sha1.c's rng_init: SHA-1 of 16 zero bytes and the seed.
GIO_HOST_DEVICE_INLINE node root(const tree_params& params) {
  const std::uint32_t message[5] = {0, 0, 0, 0, static_cast<std::uint32_t>(params.root_seed)};
  node n;
  sha1_20_bytes(message, n.digest);
  n.height = 0;
  return n;
}

// brg_sha1.c's rng_spawn: SHA-1 of the parent's state and the child's index.
GIO_HOST_DEVICE_INLINE node child(const node& parent, int index) {
  node n;
  sha1_24_bytes(parent.digest, static_cast<std::uint32_t>(index), n.digest);
  n.height = parent.height + 1;
  return n;
}

// brg_sha1.c's rng_rand: state bytes 16..19, as a non-negative 31-bit integer.
GIO_HOST_DEVICE_INLINE std::int32_t rng_rand(const node& n) { return static_cast<std::int32_t>(n.digest[4] & 0x7FFFFFFFu); }

// brg_sha1.c's rng_toProb: uniform in [0, 1).
GIO_HOST_DEVICE_INLINE double to_prob(std::int32_t r) { return r / 2147483648.0; }

// uts.c's binomial rule below the root: nonleaf_bf children with probability nonleaf_prob.
GIO_HOST_DEVICE_INLINE int binomial_children(const tree_params& params, const node& n) {
  return to_prob(rng_rand(n)) < params.nonleaf_prob ? params.nonleaf_bf : 0;
}

// uts.c's geometric rule: a geometric distribution of mean b_i, the shape's branching factor at
// this depth. The expressions are uts.c's, operation for operation, so that the doubles (and hence
// the floors) are the same. Clamped to [0, max_children] in double, which is uts.c's cap, and
// defines the cases where uts.c would convert NaN or infinity to int.
GIO_HOST_DEVICE_INLINE int geometric_children(const tree_params& params, const node& n) {
  const double b0 = params.b0;
  const int depth = n.height;
  double b_i = b0;
  if (depth > 0) {
    switch (params.shape) {
      case geo_shape::expdec:
        b_i = b0 * std::pow(static_cast<double>(depth), -std::log(b0) / std::log(static_cast<double>(params.gen_mx)));
        break;
      case geo_shape::cyclic:
        if (depth > 5 * params.gen_mx)
          b_i = 0.0;
        else
          b_i = std::pow(b0, std::sin(2.0 * 3.141592653589793 * static_cast<double>(depth) / static_cast<double>(params.gen_mx)));
        break;
      case geo_shape::fixed:
        b_i = depth < params.gen_mx ? b0 : 0.0;
        break;
      case geo_shape::linear:
      default:
        b_i = b0 * (1.0 - static_cast<double>(depth) / static_cast<double>(params.gen_mx));
        break;
    }
  }
  const double p = 1.0 / (1.0 + b_i);
  const double u = to_prob(rng_rand(n));
  const double count = std::floor(std::log(1 - u) / std::log(1 - p));
  if (!(count > 0)) return 0;
  return count > max_children ? max_children : static_cast<int>(count);
}

// uts.c's uts_numChildren: a binomial tree's root has floor(b0) children (capped at ceil(b0), a
// no-op); a hybrid tree is geometric above shift_depth * gen_mx and binomial from there.
GIO_HOST_DEVICE_INLINE int num_children(const tree_params& params, const node& n) {
  int count = 0;
  switch (params.type) {
    case tree_type::binomial:
      if (n.height == 0) return static_cast<int>(std::floor(params.b0));
      count = binomial_children(params, n);
      break;
    case tree_type::geometric:
      return geometric_children(params, n);
    case tree_type::hybrid:
      if (n.height < params.shift_depth * params.gen_mx) return geometric_children(params, n);
      count = binomial_children(params, n);
      break;
  }
  return count > max_children ? max_children : count;
}

}  // namespace worksteal::uts
