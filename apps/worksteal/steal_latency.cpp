// worksteal-steal-latency: one steal's cost over gio (steal_latency.hpp).
#include "app_gio.hpp"
#include "steal_latency.hpp"

int main(int argc, char** argv) { return worksteal::steal_latency::run_program<worksteal::gio_app>(argc, argv); }
