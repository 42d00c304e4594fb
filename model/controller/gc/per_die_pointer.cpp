// ftl.write_pointer=per_die: each die fills its own block of a frontier; the die is whoever asks (write_pointer.h).
#include "controller/gc/write_pointer.h"

#include "controller/snapshot/snapshot_archive.h"
#include "flash/geometry.h"

namespace ssdtlm {

namespace {
class PerDiePointer final : public WritePointer {
 public:
  PerDiePointer() : WritePointer(false) {}
  void snapshot(SnapshotArchive& a) override {  // no pointer: an empty list (snapshots keep one layout)
    std::vector<uint32_t> none;
    a.io(none);
  }
};
}  // namespace

std::unique_ptr<WritePointer> make_per_die_pointer(const PointerShape&) { return std::make_unique<PerDiePointer>(); }

}  // namespace ssdtlm
