#include "flash/geometry.h"

#include <cmath>
#include <string>

#include "common/config.h"

namespace ssdtlm {

Geometry Geometry::lines() const {
  Geometry l = *this;
  l.channels = l.dies_per_channel = l.dies = 1;
  l.pages_per_block = pages_per_block * dies;
  l.units_per_block = units_per_block * dies;
  l.by_unit_ = FastDiv(l.units_per_block);
  l.by_page_ = FastDiv(l.pages_per_block);
  return l;
}

Geometry Geometry::from_config(const Config& c, uint32_t reserved_blocks_per_die) {
  Geometry g;
  g.channels = uint32_t(c.i("geometry.channels"));
  g.dies_per_channel = uint32_t(c.i("geometry.dies_per_channel"));
  g.planes = uint32_t(c.i("geometry.planes_per_die"));
  g.blocks_per_die = uint32_t(c.i("geometry.blocks_per_plane"));
  g.pages_per_block = uint32_t(c.i("geometry.pages_per_block"));
  g.page_bytes = uint32_t(c.i("geometry.page_bytes"));
  g.over_provisioning = c.d("geometry.over_provisioning");
  if (g.page_bytes % kUnitBytes)
    throw ConfigError("key 'geometry.page_bytes': expected a multiple of the 4096-byte mapping unit, got " +
                      std::to_string(g.page_bytes));
  g.dies = g.channels * g.dies_per_channel;
  g.units_per_page = g.planes * g.page_bytes / kUnitBytes;
  if (g.units_per_page > kMaxUnitsPerPage)
    throw ConfigError("keys 'geometry.planes_per_die' x 'geometry.page_bytes': a multi-plane page of " +
                      std::to_string(g.units_per_page * kUnitBytes) + " bytes exceeds the model's limit of " +
                      std::to_string(kMaxUnitsPerPage * kUnitBytes) + " bytes");
  g.units_per_block = g.units_per_page * g.pages_per_block;
  g.physical_units = uint64_t(g.dies) * g.blocks_per_die * g.units_per_block;
  if (g.physical_units >= kInvalid)
    throw ConfigError("geometry: " + std::to_string(g.physical_units) +
                      " physical 4 KiB units exceed the 32-bit physical address space (16 TiB)");
  g.by_slot_ = FastDiv(g.units_per_page);
  g.by_unit_ = FastDiv(g.units_per_block);
  g.by_page_ = FastDiv(g.pages_per_block);
  g.by_block_ = FastDiv(g.blocks_per_die);
  uint64_t per_die = uint64_t(std::floor(double(g.physical_units) / (1.0 + g.over_provisioning) / g.dies));
  g.logical_units = per_die * g.dies;
  // Room for GC: a die must hold its logical share plus the reserved blocks plus at least one block of slack.
  uint64_t data_blocks = (per_die + g.units_per_block - 1) / g.units_per_block;
  uint64_t needed = data_blocks + reserved_blocks_per_die + 1;
  if (needed > g.blocks_per_die)
    throw ConfigError("key 'geometry.over_provisioning': " + std::to_string(g.over_provisioning) + " leaves " +
                      std::to_string(int64_t(g.blocks_per_die) - int64_t(data_blocks)) +
                      " spare blocks per die; garbage collection needs at least " +
                      std::to_string(reserved_blocks_per_die + 1) +
                      " (ftl.gc_free_blocks + open blocks + 1): raise over_provisioning or blocks_per_plane");
  return g;
}

}  // namespace ssdtlm
