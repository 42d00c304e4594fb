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
    for (auto& n : all_) n->clear_extension(&n->ext);  // a member, not the payload's to delete
  }

  // A payload with reference count 1 and its extension reset to Ext{}.
  tlm::tlm_generic_payload* acquire() {
    Node* n;
    if (free_.empty()) {
      all_.emplace_back(new Node(this));
      n = all_.back().get();
      n->set_extension(&n->ext);  // targets find it as any extension
    } else {
      n = static_cast<Node*>(free_.back());
      free_.pop_back();
      n->ext.reset();
    }
    n->ext.payload = n;
    n->acquire();
    return n;
  }

  // The extension of a payload of this pool: it sits next to the payload (no extension-table lookup).
  static Ext& ext(tlm::tlm_generic_payload& gp) { return static_cast<Node&>(gp).ext; }

  void free(tlm::tlm_generic_payload* gp) override { free_.push_back(gp); }
  size_t allocated() const { return all_.size(); }

 private:
  // A payload and its extension in one allocation (the initiator and the target touch both per operation).
  struct Node : tlm::tlm_generic_payload {
    explicit Node(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {}
    Ext ext;
  };
  std::vector<std::unique_ptr<Node>> all_;
  std::vector<tlm::tlm_generic_payload*> free_;
};

}  // namespace ssdtlm
