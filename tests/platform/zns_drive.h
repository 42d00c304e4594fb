// The zoned test drive of the ZNS platform tests: 4 dies of 64 blocks of 16 pages of 8 KiB, zones of a block on
// every die (512 KiB), 51 of them, 4 open and active zones, the integrity checker on.
#pragma once
#include <initializer_list>
#include <string>

#include "platform_run.h"

namespace ssdtlm::test {

inline Config zns_config(std::initializer_list<std::string> more) {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=16", "buffer.bytes=1048576", "check.integrity=true",
                             "zns.enabled=true", "zns.max_open=4", "zns.max_active=4"});
  for (auto& s : more) c.set(s);
  return c;
}

}  // namespace ssdtlm::test
