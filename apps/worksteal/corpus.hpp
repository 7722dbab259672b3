// The `contains` workload's input (MGWS thesis §6.2, CONTAINS): documents, one per task, in which
// a word is searched, stopping at the first hit. A deterministic synthetic corpus with skewed
// document lengths (most short, a few very long: the irregularity stealing is for), or a file
// with one document per line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace worksteal {

struct corpus {
  std::vector<char> text;              // every document, back to back
  std::vector<std::uint64_t> offsets;  // document i is text[offsets[i], offsets[i + 1])
  std::uint64_t documents() const { return offsets.empty() ? 0 : offsets.size() - 1; }
};

// `documents` documents of lowercase words. Lengths are skewed twice: runs of 512 documents share a
// size scale (1x to 32x, most near 1x) and each document's length has a heavy tail (up to
// max_length). About one in `plant_every` holds `word` at a random place. Same arguments, same corpus.
corpus synthetic_corpus(std::uint64_t documents, const std::string& word, std::uint64_t seed = 1,
                        std::uint32_t max_length = 16384, std::uint32_t plant_every = 8);

// One document per line of `path` (the newline is not part of it). Throws std::runtime_error
// naming the file when it cannot be read or holds no document.
corpus read_corpus(const std::string& path);

// Whether document i holds `word`: the reference the GPU's count is checked against.
bool document_contains(const corpus& c, std::uint64_t i, const std::string& word);
std::uint64_t count_containing(const corpus& c, const std::string& word);

// Tasks the `contains` program runs for a document with `starts` places the word could start at
// (size - word length + 1): one, or with `piece` > 0 and more places than that, the task that
// splits it in halves plus the halves' own (programs.hpp). The GPU run's executed count must equal
// the sum over the documents.
std::uint64_t contains_tasks_for(std::uint64_t starts, std::uint32_t piece);

}  // namespace worksteal
