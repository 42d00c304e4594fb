#include "frontend/fio/fio_host_engine.h"

#include <set>

namespace ssdtlm {
namespace fio {

HostEngineChoice host_engine_for(const std::string& ioengine, bool hipri) {
  static const std::set<std::string> kSync = {"sync", "psync", "vsync", "pvsync", "pvsync2"};
  const std::string as = "ioengine=" + ioengine + (hipri ? " with hipri" : "");
  if (ioengine == "libaio") return {"libaio", as + ": the measured libaio row (completions by interrupt)"};
  if (ioengine == "io_uring" || ioengine == "io_uring_cmd") {
    if (hipri) return {"io_uring_poll", as + ": the measured io_uring polled row"};
    return {"libaio", as + " (hipri=0): completions by interrupt, charged the measured interrupt row (libaio's), "
                      "an upper bound for io_uring"};
  }
  if (ioengine == "pvsync2" && hipri)
    return {"io_uring_poll", as + ": RWF_HIPRI polled completions, charged the closest measured row (io_uring polled)"};
  if (kSync.count(ioengine))
    return {"libaio", as + ": one system call per I/O, completion by interrupt, charged the closest measured row "
                      "(libaio's)"};
  if (ioengine == "spdk" || ioengine == "spdk_bdev") return {"spdk", as + ": the measured SPDK polled row"};
  return {"", as + ": no published per-I/O cost of this engine is cited (model/host/io_engine_cost.h)"};
}

}  // namespace fio
}  // namespace ssdtlm
