#include "core/report.hpp"

#include <algorithm>
#include <cstdio>

namespace jacobi {

const char* parts_name(parts what) {
  if (what.compute && what.comm) return "all";
  if (what.compute) return "no-comm";
  if (what.comm) return "no-compute";
  return "none";
}

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> columns{
      "variant", "halo", "parts", "nx", "ny", "pes", "devices", "points_per_device", "pe_grid", "workgroups",
      "wg_threads", "tiling", "iterations", "residual", "converged", "reps", "us_per_iteration", "us_min", "us_max",
      "efficiency", "check"};
  return columns;
}

namespace {
std::string number(double value, const char* format = "%.4f") {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}
}  // namespace

std::vector<std::string> csv_fields(const measurement& m) {
  return {m.variant,
          m.halo,
          m.parts,
          std::to_string(m.size.nx),
          std::to_string(m.size.ny),
          std::to_string(m.pes),
          std::to_string(m.devices),
          std::to_string(m.points_per_device()),
          to_string(m.grid),
          std::to_string(m.shape.workgroups),
          std::to_string(m.shape.threads),
          m.shape.tiling.empty() ? "-" : m.shape.tiling,
          std::to_string(m.iterations),
          number(m.residual, "%.17g"),
          m.converged ? "1" : "0",
          std::to_string(m.reps),
          number(m.us_per_iteration),
          number(m.us_min),
          number(m.us_max),
          m.efficiency ? number(*m.efficiency) : "",
          m.check};
}

std::optional<double> find_baseline_us(const support::csv_table& table, const measurement& m) {
  const int variant = table.column("variant"), halo = table.column("halo"), parts = table.column("parts"),
            devices = table.column("devices"), points = table.column("points_per_device"),
            us = table.column("us_per_iteration");
  if (variant < 0 || halo < 0 || parts < 0 || devices < 0 || points < 0 || us < 0) return std::nullopt;
  const std::string my_points = std::to_string(m.points_per_device());
  for (auto row = table.rows.rbegin(); row != table.rows.rend(); ++row) {
    if (row->size() != table.columns.size()) continue;
    const auto& r = *row;
    if (r[variant] == m.variant && r[halo] == m.halo && r[parts] == m.parts && r[devices] == "1" && r[points] == my_points) {
      try {
        return std::stod(r[us]);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

breakdown break_down(double all, double no_comm, double no_compute, double neither) {
  const double compute = no_comm - neither, comm = no_compute - neither;
  return {all, compute, comm, neither, compute + comm + neither - all};
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

}  // namespace jacobi
