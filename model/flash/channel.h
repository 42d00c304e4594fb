// A channel: the bus shared by the dies on it. Transfer time = command/address cycles + bytes / (MT/s x width).
#pragma once
#include <cmath>
#include <cstdint>

namespace ssdtlm {

class Channel {
 public:
  Channel(double mts, uint32_t width_bytes, double cmd_ns)
      : ps_per_byte_(1e6 / (mts * width_bytes)), cmd_ps_(cmd_ns * 1e3) {}

  // Bus occupancy of one transfer of `bytes` (data-in of a program or data-out of a read).
  uint64_t transfer_ps(uint32_t bytes) const { return uint64_t(std::llround(cmd_ps_ + bytes * ps_per_byte_)); }
  double bytes_per_second() const { return 1e12 / ps_per_byte_; }

 private:
  double ps_per_byte_;
  double cmd_ps_;
};

// timing.channel_mts, timing.channel_width_bytes, timing.cmd_ns: what a Channel is made of.
struct ChannelParams {
  double mts = 400;
  uint32_t width_bytes = 1;
  double cmd_ns = 20;
  Channel bus() const { return Channel(mts, width_bytes, cmd_ns); }
};

}  // namespace ssdtlm
