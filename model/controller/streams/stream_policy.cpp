#include "controller/streams/stream_policy.h"
#include "controller/snapshot/snapshot_archive.h"

#include "common/registry.h"

namespace ssdtlm {

void StreamPolicy::snapshot(SnapshotArchive&) {
  throw SnapshotUnsupported("this streams.assign policy cannot be saved in a snapshot");
}
namespace {
const std::map<std::string, StreamPolicyEntry>& table() {
  static const std::map<std::string, StreamPolicyEntry> t = {
      {"single", {make_single_stream}},
      {"manual", {make_manual_stream}},
      {"autostream", {make_autostream}},
      {"hotcold", {make_hotcold_stream, true}},
      {"pcstream", {make_pcstream, false, pcstream_memory}},
      {"fdp", {make_fdp_stream}},
  };
  return t;
}
}  // namespace

std::vector<std::string> stream_policy_names() { return registry_names(table()); }

const StreamPolicyEntry& find_stream_policy(const std::string& name, const std::string& key) {
  return registry_find(table(), name, key, "stream assignment");
}

std::unique_ptr<StreamPolicy> make_stream_policy(const std::string& name, const StreamContext& c, const std::string& key) {
  return find_stream_policy(name, key).make(c);
}

}  // namespace ssdtlm
