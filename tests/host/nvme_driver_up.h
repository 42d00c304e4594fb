// Brings a controller up, or shuts it down, through the driver model's register protocol alone and REQUIREs success,
// with the driver's reason in the failure message (shared by the endpoint harness and the component benches).
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "host/nvme_driver.h"

namespace ssdtlm {

inline void require_up(NvmeDriver& drv) {
  std::string err;
  const bool up = drv.init(&err);
  INFO(err);  // (taken after init: INFO copies its message where it stands)
  REQUIRE(up);
}

inline void require_down(NvmeDriver& drv) {
  std::string err;
  const bool down = drv.shutdown(&err);
  INFO(err);
  REQUIRE(down);
}

}  // namespace ssdtlm
