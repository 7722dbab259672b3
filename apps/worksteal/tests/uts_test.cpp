#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "worksteal/uts.hpp"
#include "worksteal/uts_cpu.hpp"
#include "worksteal/uts_trees.hpp"

namespace worksteal::uts {
namespace {

// A plain SHA-1 of any byte string (FIPS 180-4, section 6.1), independent of uts.hpp's: padding
// and any number of blocks, an 80-word schedule, no unrolling.
std::vector<std::uint32_t> reference_sha1(const std::vector<std::uint8_t>& message) {
  std::vector<std::uint8_t> padded = message;
  padded.push_back(0x80);
  while (padded.size() % 64 != 56) padded.push_back(0);
  const std::uint64_t bits = static_cast<std::uint64_t>(message.size()) * 8;
  for (int shift = 56; shift >= 0; shift -= 8) padded.push_back(static_cast<std::uint8_t>(bits >> shift));
  const auto rotl = [](std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); };
  std::vector<std::uint32_t> h = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  for (std::size_t block = 0; block < padded.size(); block += 64) {
    std::uint32_t w[80];
    for (int t = 0; t < 16; ++t) {
      w[t] = 0;
      for (int k = 0; k < 4; ++k) w[t] = (w[t] << 8) | padded[block + 4 * t + k];
    }
    for (int t = 16; t < 80; ++t) w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int t = 0; t < 80; ++t) {
      std::uint32_t f, k;
      if (t < 20) {
        f = (b & c) | (~b & d);
        k = 0x5A827999u;
      } else if (t < 40) {
        f = b ^ c ^ d;
        k = 0x6ED9EBA1u;
      } else if (t < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8F1BBCDCu;
      } else {
        f = b ^ c ^ d;
        k = 0xCA62C1D6u;
      }
      const std::uint32_t next = rotl(a, 5) + f + e + k + w[t];
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = next;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
  }
  return h;
}

std::vector<std::uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

void append_big_endian(std::vector<std::uint8_t>& bytes, std::uint32_t word) {
  for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<std::uint8_t>(word >> shift));
}

std::vector<std::uint32_t> digest_of(const node& n) { return {n.digest, n.digest + 5}; }

// FIPS 180-2 appendix A's examples: one block, empty, two blocks.
TEST(UtsSha1, ReferenceMatchesFipsVectors) {
  EXPECT_EQ(reference_sha1(bytes_of("abc")),
            (std::vector<std::uint32_t>{0xA9993E36u, 0x4706816Au, 0xBA3E2571u, 0x7850C26Cu, 0x9CD0D89Du}));
  EXPECT_EQ(reference_sha1({}),
            (std::vector<std::uint32_t>{0xDA39A3EEu, 0x5E6B4B0Du, 0x3255BFEFu, 0x95601890u, 0xAFD80709u}));
  EXPECT_EQ(reference_sha1(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            (std::vector<std::uint32_t>{0x84983E44u, 0x1C3BD26Eu, 0xBAAE4AA1u, 0xF95129E5u, 0xE54670F1u}));
}

TEST(UtsSha1, SpecialisedMatchesReferenceOnRandomMessages) {
  std::mt19937 gen(12345);
  for (int trial = 0; trial < 20000; ++trial) {
    std::uint32_t message[5];
    std::vector<std::uint8_t> bytes;
    for (std::uint32_t& word : message) {
      word = static_cast<std::uint32_t>(gen());
      append_big_endian(bytes, word);
    }
    std::uint32_t digest[5];
    sha1_20_bytes(message, digest);
    ASSERT_EQ(std::vector<std::uint32_t>(digest, digest + 5), reference_sha1(bytes)) << "20 bytes, trial " << trial;

    const auto last = static_cast<std::uint32_t>(gen());
    append_big_endian(bytes, last);
    sha1_24_bytes(message, last, digest);
    ASSERT_EQ(std::vector<std::uint32_t>(digest, digest + 5), reference_sha1(bytes)) << "24 bytes, trial " << trial;
  }
}

// rng_init and rng_spawn as byte strings: the seed after 16 zero bytes; the parent's state, then
// the child's index, both big-endian (negative seeds as their two's complement bytes).
TEST(UtsTree, RootAndChildHashTheUtsMessages) {
  for (const std::int32_t seed : {0, 1, 19, 42, 502, 0x12345678, -1}) {
    tree_params params;
    params.root_seed = seed;
    const node r = root(params);
    EXPECT_EQ(r.height, 0);
    std::vector<std::uint8_t> message(16, 0);
    append_big_endian(message, static_cast<std::uint32_t>(seed));
    ASSERT_EQ(digest_of(r), reference_sha1(message)) << "seed " << seed;

    for (const int index : {0, 1, 7, 99, 1999}) {
      const node c = child(r, index);
      EXPECT_EQ(c.height, 1);
      std::vector<std::uint8_t> spawn;
      for (const std::uint32_t word : r.digest) append_big_endian(spawn, word);
      append_big_endian(spawn, static_cast<std::uint32_t>(index));
      ASSERT_EQ(digest_of(c), reference_sha1(spawn)) << "seed " << seed << ", child " << index;
      EXPECT_EQ(child(c, 3).height, 2);
    }
  }
}

// rng_rand is bytes 16..19 without the sign bit.
TEST(UtsTree, RandomDrawIsTheLastWordWithoutItsSignBit) {
  node n{};
  n.digest[4] = 0xFFFFFFFFu;
  EXPECT_EQ(rng_rand(n), 0x7FFFFFFF);
  n.digest[4] = 0x80000001u;
  EXPECT_EQ(rng_rand(n), 1);
  EXPECT_EQ(to_prob(0), 0.0);
  EXPECT_EQ(to_prob(1 << 30), 0.5);
}

TEST(UtsTree, ChildCountRules) {
  tree_params bin;
  bin.type = tree_type::binomial;
  bin.b0 = 2000.5;
  EXPECT_EQ(num_children(bin, root(bin)), 2000);  // the root: floor(b0), not capped at 100
  bin.nonleaf_bf = 7;
  node n = root(bin);
  for (int i = 0; i < 50; ++i) {
    n = child(n, i);
    EXPECT_EQ(num_children(bin, n), to_prob(rng_rand(n)) < bin.nonleaf_prob ? 7 : 0);
  }
  bin.nonleaf_prob = 1.0;
  bin.nonleaf_bf = 500;
  EXPECT_EQ(num_children(bin, n), max_children);

  tree_params fixed;
  fixed.shape = geo_shape::fixed;
  fixed.gen_mx = 3;
  node deep = root(fixed);
  for (int i = 0; i < 3; ++i) deep = child(deep, 0);
  EXPECT_EQ(num_children(fixed, deep), 0);  // depth gen_mx: b_i = 0

  tree_params wide;
  wide.b0 = 1e9;
  EXPECT_EQ(num_children(wide, root(wide)), max_children);
}

TEST(UtsTrees, FindTree) {
  EXPECT_EQ(find_tree("T9"), nullptr);
  EXPECT_EQ(find_tree(""), nullptr);
  EXPECT_EQ(find_tree("t1"), nullptr);  // names are exact
  const named_tree* t3 = find_tree("T3");
  ASSERT_NE(t3, nullptr);
  EXPECT_EQ(t3->params.type, tree_type::binomial);
  EXPECT_EQ(t3->params.nonleaf_bf, 8);
  EXPECT_EQ(t3->nodes, 4112897u);
  EXPECT_EQ(tree_names(), "T1, T2, T3, T4, T5, T1L, T2L, T3L, T1XL");
  for (const named_tree& tree : all_trees()) EXPECT_EQ(find_tree(tree.name), &tree);
}

// The small sample trees against their published statistics: every tree type and the fixed,
// cyclic and linear shapes.
class UtsSampleTree : public ::testing::TestWithParam<std::string> {};

TEST_P(UtsSampleTree, CountMatchesPublished) {
  const named_tree* tree = find_tree(GetParam());
  ASSERT_NE(tree, nullptr);
  const tree_count count = count_tree(tree->params);
  EXPECT_EQ(count.nodes, tree->nodes);
  EXPECT_EQ(count.leaves, tree->leaves);
  EXPECT_EQ(count.depth, tree->depth);
}

INSTANTIATE_TEST_SUITE_P(UtsSmall, UtsSampleTree, ::testing::Values("T1", "T2", "T3", "T4", "T5"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// A subtree's count is what the whole tree's count adds up from: the root plus its children's.
TEST(UtsCpu, SubtreesAddUpToTheTree) {
  const named_tree* t1 = find_tree("T1");
  ASSERT_NE(t1, nullptr);
  const node r = root(t1->params);
  tree_count sum;
  sum.nodes = 1;
  const int children = num_children(t1->params, r);
  ASSERT_GT(children, 0);
  for (int i = 0; i < children; ++i) {
    const tree_count part = count_subtree(t1->params, child(r, i));
    sum.nodes += part.nodes;
    sum.leaves += part.leaves;
    if (part.depth > sum.depth) sum.depth = part.depth;
  }
  EXPECT_EQ(sum.nodes, t1->nodes);
  EXPECT_EQ(sum.leaves, t1->leaves);
  EXPECT_EQ(sum.depth, t1->depth);
}

}  // namespace
}  // namespace worksteal::uts
