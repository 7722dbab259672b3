#include "corpus.hpp"

#include "support/mix64.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace worksteal {
namespace {

// A stateless hash, so document i's content depends on (seed, i) alone.
using support::mix64;

double unit(std::uint64_t bits) { return (static_cast<double>(bits >> 11) + 1.0) / 9007199254740993.0; }

constexpr std::uint64_t scale_run = 512;  // documents sharing a size scale

}  // namespace

corpus synthetic_corpus(std::uint64_t documents, const std::string& word, std::uint64_t seed, std::uint32_t max_length,
                        std::uint32_t plant_every) {
  if (word.empty()) throw std::runtime_error("the search word is empty");
  corpus c;
  c.offsets.reserve(documents + 1);
  c.offsets.push_back(0);
  double scale = 1;
  for (std::uint64_t d = 0; d < documents; ++d) {
    // Skewed twice: a scale per run of documents (sources of very different sizes: 1x to 32x,
    // most near 1x), so that equal contiguous shares hold very different work, and a heavy tail
    // per document (10 / u^1.3 bytes times the scale, capped).
    if (d % scale_run == 0) {
      const double v = unit(mix64(seed ^ (d / scale_run) * 0x9E3779B97F4A7C15ULL));
      scale = std::pow(2.0, 5.0 * v * v * v);
    }
    std::uint64_t state = mix64(seed * 0x100000001B3ULL ^ d);
    const double length = std::min<double>(max_length, scale * 10.0 / std::pow(unit(state), 1.3));
    const auto n = static_cast<std::size_t>(std::max<double>(length, static_cast<double>(word.size())));
    const std::size_t start = c.text.size();
    c.text.resize(start + n);
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 8 == 0) state = mix64(state);
      const unsigned r = static_cast<unsigned>(state >> (8 * (i % 8))) & 0xff;
      // Words of a few letters from the first half of the alphabet: a word of the second half
      // (the default "worksteal" is not) only appears where planted.
      c.text[start + i] = r % 6 == 0 ? ' ' : static_cast<char>('a' + r % 13);
    }
    state = mix64(state);
    if (state % plant_every == 0) {
      const std::size_t at = static_cast<std::size_t>(mix64(state) % (n - word.size() + 1));
      std::memcpy(&c.text[start + at], word.data(), word.size());
    }
    c.offsets.push_back(c.text.size());
  }
  return c;
}

corpus read_corpus(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the file for reading");
  corpus c;
  c.offsets.push_back(0);
  std::string line;
  while (std::getline(in, line)) {
    c.text.insert(c.text.end(), line.begin(), line.end());
    c.offsets.push_back(c.text.size());
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  if (c.documents() == 0) throw std::runtime_error(path + ": no document (one per line)");
  return c;
}

bool document_contains(const corpus& c, std::uint64_t i, const std::string& word) {
  const char* begin = c.text.data() + c.offsets[i];
  const char* end = c.text.data() + c.offsets[i + 1];
  return std::search(begin, end, word.begin(), word.end()) != end;
}

std::uint64_t count_containing(const corpus& c, const std::string& word) {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < c.documents(); ++i) n += document_contains(c, i, word);
  return n;
}

std::uint64_t contains_tasks_for(std::uint64_t starts, std::uint32_t piece) {
  // Level by level: halving sizes n and n + 1 gives sizes m and m + 1 again, so each level holds
  // at most two sizes and their counts (the tree itself has ~2 * starts / piece nodes).
  std::uint64_t small = starts, small_count = 1, large_count = 0, tasks = 0;  // large = small + 1
  while (small_count + large_count > 0) {
    tasks += small_count + large_count;
    const std::uint64_t next_small = small / 2;
    std::uint64_t next_small_count = 0, next_large_count = 0;
    const auto split = [&](std::uint64_t size, std::uint64_t count) {
      if (count == 0 || piece == 0 || size <= piece) return;  // parts of this size are searched
      for (const std::uint64_t half : {size / 2, size - size / 2}) (half == next_small ? next_small_count : next_large_count) += count;
    };
    split(small, small_count);
    split(small + 1, large_count);
    small = next_small, small_count = next_small_count, large_count = next_large_count;
  }
  return tasks;
}

}  // namespace worksteal
