// The label a program's results carry for the system it ran on, from gio's network report
// (shmem_runtime_report().network): plain C++, so it is tested without a GPU.
#pragma once
#include <string>

namespace support {

// "gio-gda", "gio-ikn", with "-model" on the software NIC model, for the network transport that
// is on; nullptr when none is (load/store only: the program's own "gio"). `network` holds one
// report per network transport, "; "-separated; one that is on reads "<name> (...) over <NIC>, ...".
const char* gio_network_label(const std::string& network);

}  // namespace support
