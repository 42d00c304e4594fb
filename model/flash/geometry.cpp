#include "flash/geometry.h"

#include <cmath>
#include <string>


namespace ssdtlm {

Geometry Geometry::lines() const { return lines(1, 1); }

Geometry Geometry::lines(uint32_t groups, uint32_t depth) const {
  Geometry l = *this;
  const uint32_t blocks = dies / groups * depth;  // blocks of a line
  l.channels = l.dies = groups;
  l.dies_per_channel = 1;
  l.blocks_per_die = blocks_per_die / depth;
  l.pages_per_block = pages_per_block * blocks;
  l.units_per_block = units_per_block * blocks;
  l.by_unit_ = FastDiv(l.units_per_block);
  l.by_page_ = FastDiv(l.pages_per_block);
  l.by_block_ = FastDiv(l.blocks_per_die);
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
