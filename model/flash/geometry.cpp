#include "flash/geometry.h"

#include <cmath>
#include <string>


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

Geometry Geometry::derive(const Geometry& raw) {
  Geometry g = raw;  // the raw numbers; the rest is derived from them here
  g.dies = g.channels * g.dies_per_channel;
  g.units_per_page = g.planes * g.page_bytes / kUnitBytes;
  g.units_per_block = g.units_per_page * g.pages_per_block;
  g.physical_units = uint64_t(g.dies) * g.blocks_per_die * g.units_per_block;
  g.by_slot_ = FastDiv(g.units_per_page);
  g.by_unit_ = FastDiv(g.units_per_block);
  g.by_page_ = FastDiv(g.pages_per_block);
  g.by_block_ = FastDiv(g.blocks_per_die);
  const uint64_t per_die = uint64_t(std::floor(double(g.physical_units) / (1.0 + g.over_provisioning) / g.dies));
  g.logical_units = per_die * g.dies;
  return g;
}

}  // namespace ssdtlm
