// summary.json's "power" and "thermal" objects and the power counters of a platform (power_summary.cpp).
#pragma once
#include <nlohmann/json.hpp>

#include "power/energy.h"
#include "sim/platform.h"

namespace ssdtlm {

// The cumulative counters of the timed run, covering [0, span_ps].
PowerCounters power_counters(Platform& p, uint64_t span_ps);
nlohmann::json power_summary(Platform& p);
nlohmann::json thermal_summary(Platform& p);

}  // namespace ssdtlm
