// SplitMix64's finaliser: a bijective 64-bit mix with good avalanche (Steele, Lea, Flood 2014),
// for inputs that must be a pure function of an index (generated grids, corpora).
#pragma once
#include <cstdint>

namespace support {

constexpr std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace support
