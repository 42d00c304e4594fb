// The small drive the host's platform tests run on: 2 x 2 dies of 64 blocks of 64 pages, a 1 MiB buffer, no
// overwrite preconditioning, one queue of depth 8, reads unless a test says otherwise.
#pragma once
#include <initializer_list>
#include <string>

#include "platform/platform_run.h"

namespace ssdtlm::test {

inline Config small_host_config(std::initializer_list<std::string> sets) {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "buffer.bytes=1M", "precondition.drive_writes=0",
                             "host.queues=1", "host.queue_depth=8", "workload.read_fraction=1"});
  for (auto& s : sets) c.set(s);
  return c;
}

inline double num(const nlohmann::json& j) { return j.get<double>(); }

}  // namespace ssdtlm::test
