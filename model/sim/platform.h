// What the runner needs from a wired SSD platform. A platform (platforms/<name>/) constructs the
// modules, binds their sockets and exposes them through this interface.
#pragma once
#include <systemc>

#include <memory>
#include <string>
#include <vector>

#include "common/config.h"
#include "controller/channel_controller.h"
#include "controller/dram.h"
#include "controller/ftl.h"
#include "controller/integrity_checker.h"
#include "controller/nvme_controller.h"
#include "flash/geometry.h"
#include "host/io_request.h"
#include "host/nvme_host.h"

namespace ssdtlm {

class WaveTracer;

class Platform {
 public:
  virtual ~Platform() = default;
  virtual const Geometry& geometry() const = 0;
  virtual NvmeHost& host() = 0;
  virtual NvmeController& nvme() = 0;
  virtual Ftl& ftl() = 0;
  virtual std::vector<ChannelController*> channels() = 0;
  virtual IntegrityChecker* checker() = 0;
  virtual Dram* dram() { return nullptr; }  // the controller DRAM, when the platform has one
  // Registers every signal of the waveform with `w` (and its place in the layout); called once, before the
  // timed run, after preconditioning. Components record their changes themselves from then on.
  virtual void trace(WaveTracer& w) = 0;
  // Bytes of model state that scale with the device (map, OOB, block metadata, buffer, checker).
  virtual size_t model_bytes() const = 0;
};

struct PlatformInfo {
  std::string name;
  const char* default_config;  // JSON text of platforms/<name>/config.json
  std::function<std::unique_ptr<Platform>(const Config&)> make;
};

}  // namespace ssdtlm
