// mlx5 packet templates in one include: wire structs, WQE templates and doorbell values, CQE
// decoding. See docs/transports.md ("Packet templates").
#pragma once
#include "gio/templates/endian.hpp"
#include "gio/templates/mlx5_cqe.hpp"
#include "gio/templates/mlx5_wire.hpp"
#include "gio/templates/mlx5_wqe.hpp"
