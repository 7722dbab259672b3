// main() of every jacobi2d binary: options and their checks on every PE, the decomposition, the
// variant's solver, warm-up and timed runs, --breakdown, --check against the single-PE reference,
// the report and the CSV rows. A binary passes the variants it was built with.
#pragma once
#include <vector>

#include "core/solver.hpp"

namespace jacobi {

int run_program(int argc, char** argv, const std::vector<variant>& here);

}  // namespace jacobi
