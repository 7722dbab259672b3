// The teams the team and collective tests run on: WORLD, SHARED and splits of every shape the
// OpenSHMEM 1.5 team API makes (strided with stride 2, an offset team, a one-PE team, both axes
// of a 2-D split, a split of a split). Each entry also says which world PEs the test expects in
// the team (the shape), so tests check gio's answers against it rather than against gio itself.
// Host code; creating and destroying are collective over every PE, same order everywhere.
#pragma once
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gio/host.hpp"
#include "harness.hpp"

namespace gio_test {

struct test_team {
  std::string name;
  gio::shmem_team_t team = gio::SHMEM_TEAM_INVALID;  // this PE's handle; INVALID when not a member
  int start = 0, stride = 1, size = 0;               // expected members: world PEs start + i * stride
  bool predefined = false;                            // WORLD / SHARED: never destroyed
  int index_of(int world_pe) const {
    const int d = world_pe - start;
    return d >= 0 && d % stride == 0 && d / stride < size ? d / stride : -1;
  }
  int my_team_pe() const { return index_of(run().my_pe); }
  bool member() const { return my_team_pe() >= 0; }
  int world_of(int team_pe) const { return start + team_pe * stride; }
};

// Collective over every PE. The list depends only on the number of PEs (so it is the same on
// every PE); a PE's entry for a team it is not in has team == SHMEM_TEAM_INVALID.
inline std::vector<test_team> make_test_teams() {
  const int n = run().n_pes, me = run().my_pe;
  std::vector<test_team> out;
  out.push_back({"world", gio::SHMEM_TEAM_WORLD, 0, 1, n, true});
  {
    // SHARED: the PEs of this node (every test run is on one node, all GPUs peer-mapped).
    test_team shared{"shared", gio::SHMEM_TEAM_SHARED, 0, 1, 0, true};
    shared.size = gio::shmem_team_n_pes(gio::SHMEM_TEAM_SHARED);
    shared.start = gio::shmem_team_translate_pe(gio::SHMEM_TEAM_SHARED, 0, gio::SHMEM_TEAM_WORLD);
    if (shared.size > 1)
      shared.stride = gio::shmem_team_translate_pe(gio::SHMEM_TEAM_SHARED, 1, gio::SHMEM_TEAM_WORLD) - shared.start;
    out.push_back(shared);
  }
  auto strided = [&](const std::string& name, gio::shmem_team_t parent, int start, int stride, int size,
                     int world_start, int world_stride) {
    test_team t{name, gio::SHMEM_TEAM_INVALID, world_start, world_stride, size, false};
    const int rc = gio::shmem_team_split_strided(parent, start, stride, size, nullptr, 0, &t.team);
    EXPECT_EQ(rc, 0) << "shmem_team_split_strided for team " << name;
    EXPECT_EQ(t.team != gio::SHMEM_TEAM_INVALID, t.member()) << "team " << name << ": handle on PE " << me;
    out.push_back(t);
  };
  strided("evens", gio::SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, 0, 2);
  strided("odds", gio::SHMEM_TEAM_WORLD, 1, 2, n / 2, 1, 2);
  strided("tail", gio::SHMEM_TEAM_WORLD, 1, 1, n - 1, 1, 1);
  strided("last", gio::SHMEM_TEAM_WORLD, n - 1, 1, 1, n - 1, 1);
  {
    // 2-D split with xrange 2: x teams are the pairs {2k, 2k+1}, y teams {j, j+2, j+4, ...}.
    test_team x{"split2d_x", gio::SHMEM_TEAM_INVALID, me - me % 2, 1, 2, false};
    test_team y{"split2d_y", gio::SHMEM_TEAM_INVALID, me % 2, 2, n / 2, false};
    const int rc = gio::shmem_team_split_2d(gio::SHMEM_TEAM_WORLD, 2, nullptr, 0, &x.team, nullptr, 0, &y.team);
    EXPECT_EQ(rc, 0) << "shmem_team_split_2d";
    EXPECT_NE(x.team, gio::SHMEM_TEAM_INVALID) << "split_2d x team on PE " << me;
    EXPECT_NE(y.team, gio::SHMEM_TEAM_INVALID) << "split_2d y team on PE " << me;
    out.push_back(x);
    out.push_back(y);
  }
  if ((n + 1) / 2 >= 2) {
    // A split of a split: members 1.. of "evens" (world PEs 2, 4, ...). Collective over evens.
    test_team t{"evens_tail", gio::SHMEM_TEAM_INVALID, 2, 2, (n + 1) / 2 - 1, false};
    const gio::shmem_team_t evens = out[2].team;
    if (evens != gio::SHMEM_TEAM_INVALID) {
      const int rc = gio::shmem_team_split_strided(evens, 1, 1, t.size, nullptr, 0, &t.team);
      EXPECT_EQ(rc, 0) << "shmem_team_split_strided of evens";
    }
    EXPECT_EQ(t.team != gio::SHMEM_TEAM_INVALID, t.member()) << "team evens_tail: handle on PE " << me;
    out.push_back(t);
  }
  return out;
}

// Collective over every PE: destroys the splits, newest first.
inline void destroy_test_teams(std::vector<test_team>& teams) {
  for (auto it = teams.rbegin(); it != teams.rend(); ++it)
    if (!it->predefined && it->team != gio::SHMEM_TEAM_INVALID) gio::shmem_team_destroy(it->team);
  teams.clear();
  gio::shmem_barrier_all();
}

// Owns the test teams of one test (RAII: destroyed even when an assertion returns early).
class scoped_teams {
 public:
  scoped_teams() : teams_(make_test_teams()) {}
  ~scoped_teams() { destroy_test_teams(teams_); }
  scoped_teams(const scoped_teams&) = delete;
  scoped_teams& operator=(const scoped_teams&) = delete;
  std::vector<test_team>& get() { return teams_; }

 private:
  std::vector<test_team> teams_;
};

}  // namespace gio_test
