// The FTL's engines assembled from the typed parameters, in the one order their set-up needs: the drive state with
// its streams, GC unit, pacing, SLC cache, reliability model, wear levelling, victim worth, checker and map cache
// (build_page_ftl), the DRAM write buffer with its flush policy (build_write_buffer), and the FTL module over the
// drive state and engines with that buffer (build_ftl). The platforms and the Ftl test harness build the FTL with
// this code, so a test runs the FTL a platform runs. The PageFtl is the holder of the drive state and the engines
// (with their report and snapshot and the fast-forward); the caller owns it, the module refers to its engines only.
#pragma once
#include <memory>
#include <vector>

#include "config/params.h"
#include "controller/buffer/write_buffer.h"
#include "controller/page_ftl.h"

namespace ssdtlm {

class Ftl;
class IntegrityChecker;

// The page FTL over `dies` (one per die of p.geometry, which must outlive it); checker may be null (check.integrity
// off). Throws ConfigError for an unknown policy name.
std::unique_ptr<PageFtl> build_page_ftl(const Params& p, const Geometry& g, std::vector<Die*> dies,
                                        IntegrityChecker* checker);
// The write buffer of p.ftl.buffer_units with the flush policy p.buffer.policy over the FTL's map cache.
std::unique_ptr<WriteBuffer> build_write_buffer(const Params& p, PageFtl& ftl);
// The FTL module named `name` over ftl's drive state and engines (FtlEngines; the checker ftl was built with), with
// its write buffer (build_write_buffer). ftl must outlive it.
std::unique_ptr<Ftl> build_ftl(const char* name, const Params& p, PageFtl& ftl);

}  // namespace ssdtlm
