// ftl.gc_unit and ftl.write_pointer, registered: what GC collects and allocation opens (a block of a die, or a line:
// the same block on every die, collected whole), and how a frontier's pages go over the dies (each die its own
// block, or one write pointer per frontier over the dies). Each name's entry says what the FTL's assembly builds
// (ftl_assembly.cpp: PageFtlParts' unit and write pointer); the schema takes the keys' choices from these tables
// (config_schema.cpp), the parameters read the entries (params.cpp) and no other code matches the names. The
// mechanisms are the block manager's (block_manager.h: lines, stripe write pointers) and the flush scheduler's
// (ftl_flush.cpp: a striped page waits for its die): a new unit or write pointer is a line in its table here plus
// its mechanism there.
#pragma once
#include <string>
#include <vector>

namespace ssdtlm {

struct GcUnit {  // ftl.gc_unit
  bool lines;    // allocation and GC by lines of a block on every die (ftl.gc_unit=superblock, FEMU bbssd)
};

// The entry registered as `name`; a ConfigError naming `key` and the known names otherwise.
const GcUnit& find_gc_unit(const std::string& name, const std::string& key);
std::vector<std::string> gc_unit_names();

}  // namespace ssdtlm
