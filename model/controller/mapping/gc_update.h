// map.gc_update, registered: how GC's moves update a demand-based map (MapCacheParams::gc_batch, gc_free; the
// mechanism is MapCache::gc_write and the map write-back job's gc_moves). Each name's entry says what the cache does;
// the schema takes the key's choices from this table (config_schema.cpp), the parameters read the entry (params.cpp)
// and no other code matches the names. The page map updates per GC page whatever the key says.
#pragma once
#include <string>
#include <vector>

namespace ssdtlm {

struct GcUpdate {
  bool batch;  // victim: a victim's moves wait and update the map per segment before it erases (DFTL's batch update)
  bool free;   // free (an experiment): the moves cost the map nothing (no load, no dirty entry, no write-back)
};

// The entry registered as `name`; a ConfigError naming `key` and the known names otherwise.
const GcUpdate& find_gc_update(const std::string& name, const std::string& key);
std::vector<std::string> gc_update_names();
// The name of the entry that does what `u` says (summary.json "map.gc_update").
std::string gc_update_name(const GcUpdate& u);

}  // namespace ssdtlm
