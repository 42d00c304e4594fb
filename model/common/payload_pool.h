// A pool of TLM generic payloads, each carrying one extension of type Ext, recycled through
// tlm::tlm_mm_interface: no heap allocation per transaction once the pool has warmed up.
// Ext::reset() clears an extension for reuse (keeping any capacity it owns); Ext::payload points back.
#pragma once
#include <tlm>

#include <memory>
#include <vector>

namespace ssdtlm {

template <class Ext>
class PayloadPool : public tlm::tlm_mm_interface {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override {
    for (auto& gp : all_) gp->free_all_extensions();
  }

  // A payload with reference count 1 and its extension reset to Ext{}.
  tlm::tlm_generic_payload* acquire() {
    tlm::tlm_generic_payload* gp;
    if (free_.empty()) {
      all_.emplace_back(new tlm::tlm_generic_payload(this));
      gp = all_.back().get();
      gp->set_extension(new Ext());
    } else {
      gp = free_.back();
      free_.pop_back();
      gp->template get_extension<Ext>()->reset();
    }
    gp->template get_extension<Ext>()->payload = gp;
    gp->acquire();
    return gp;
  }

  static Ext& ext(tlm::tlm_generic_payload& gp) { return *gp.template get_extension<Ext>(); }

  void free(tlm::tlm_generic_payload* gp) override { free_.push_back(gp); }
  size_t allocated() const { return all_.size(); }

 private:
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> all_;
  std::vector<tlm::tlm_generic_payload*> free_;
};

}  // namespace ssdtlm
