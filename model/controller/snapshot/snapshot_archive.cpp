#include "controller/snapshot/snapshot_archive.h"

#include <cerrno>
#include <sstream>

namespace ssdtlm {

namespace {

constexpr char kMagic[8] = {'S', 'S', 'D', 'T', 'L', 'M', 'S', 'N'};

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline uint64_t lane(uint64_t acc, uint64_t word) {
  acc += word * 0xC2B2AE3D27D4EB4Full;
  return rotl(acc, 31) * 0x9E3779B97F4A7C15ull;
}

// The first line of `want` that differs from `got` ("key=value" lines), for the mismatch message.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (;;) {
    const bool ha = bool(std::getline(a, la)), hb = bool(std::getline(b, lb));
    if (!ha && !hb) return "";
    if (!ha) return "the file has '" + lb + "', this run has no such key";
    if (!hb) return "this run has '" + la + "', the file has no such key";
    if (la != lb) return "this run has '" + la + "', the file has '" + lb + "'";
  }
}

}  // namespace

uint64_t snapshot_text_hash(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

SnapshotArchive::SnapshotArchive(const std::string& path, bool saving) : path_(path), saving_(saving) {
  f_ = std::fopen(path.c_str(), saving ? "wb" : "rb");
  if (!f_)
    throw SnapshotError("snapshot '" + path + "': cannot open for " + (saving ? "writing" : "reading") + ": " +
                        std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, size_t(1) << 20);
}

SnapshotArchive::SnapshotArchive(SnapshotArchive&& o) noexcept
    : path_(std::move(o.path_)), f_(o.f_), saving_(o.saving_), left_(o.left_), total_(o.total_),
      pending_len_(o.pending_len_) {
  std::memcpy(sum_, o.sum_, sizeof(sum_));
  std::memcpy(pending_, o.pending_, sizeof(pending_));
  o.f_ = nullptr;
}

SnapshotArchive::~SnapshotArchive() {
  if (f_) std::fclose(f_);
}

SnapshotArchive SnapshotArchive::save(const std::string& path, const std::string& key) {
  SnapshotArchive a(path, true);
  char magic[8];
  std::memcpy(magic, kMagic, 8);
  a.bytes(magic, 8);
  uint32_t version = kFormatVersion;
  a.io(version);
  std::string k = key;
  a.io(k);
  uint64_t h = snapshot_text_hash(key);
  a.io(h);
  return a;
}

SnapshotArchive SnapshotArchive::load(const std::string& path, const std::string& key) {
  SnapshotArchive a(path, false);
  if (std::fseek(a.f_, 0, SEEK_END) != 0) a.corrupt("cannot seek");
  const long size = std::ftell(a.f_);
  std::rewind(a.f_);
  if (size < 8 + 4 + 8 + 8 + 8) a.corrupt("too short to be a snapshot (" + std::to_string(size) + " bytes)");
  a.left_ = uint64_t(size) - 8;  // the checksum at the end
  char magic[8];
  a.bytes(magic, 8);
  if (std::memcmp(magic, kMagic, 8) != 0) a.corrupt("not an ssdtlm snapshot (bad magic)");
  uint32_t version = 0;
  a.io(version);
  if (version != kFormatVersion)
    throw SnapshotError("snapshot '" + path + "': format version " + std::to_string(version) + ", this build reads " +
                        std::to_string(kFormatVersion) + " (rebuild the snapshot)");
  std::string k;
  a.io(k);
  uint64_t h = 0;
  a.io(h);
  if (h != snapshot_text_hash(k)) a.corrupt("header hash does not match its key text");
  if (k != key)
    throw SnapshotError("snapshot '" + path + "' was made by another configuration: " + first_difference(key, k));
  return a;
}

void SnapshotArchive::corrupt(const std::string& what) const {
  throw SnapshotError("snapshot '" + path_ + "' is corrupt or truncated: " + what);
}

void SnapshotArchive::hash(const void* p, size_t n) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  total_ += n;
  if (pending_len_) {
    const size_t take = std::min<size_t>(n, 32 - pending_len_);
    std::memcpy(pending_ + pending_len_, c, take);
    pending_len_ += uint32_t(take);
    c += take;
    n -= take;
    if (pending_len_ < 32) return;
    uint64_t w[4];
    std::memcpy(w, pending_, 32);
    for (int i = 0; i < 4; ++i) sum_[i] = lane(sum_[i], w[i]);
    pending_len_ = 0;
  }
  uint64_t s0 = sum_[0], s1 = sum_[1], s2 = sum_[2], s3 = sum_[3];
  for (; n >= 32; c += 32, n -= 32) {
    uint64_t w[4];
    std::memcpy(w, c, 32);
    s0 = lane(s0, w[0]);
    s1 = lane(s1, w[1]);
    s2 = lane(s2, w[2]);
    s3 = lane(s3, w[3]);
  }
  sum_[0] = s0, sum_[1] = s1, sum_[2] = s2, sum_[3] = s3;
  std::memcpy(pending_, c, n);
  pending_len_ = uint32_t(n);
}

void SnapshotArchive::bytes(void* p, size_t n) {
  if (saving_) {
    hash(p, n);
    if (std::fwrite(p, 1, n, f_) != n)
      throw SnapshotError("snapshot '" + path_ + "': write failed: " + std::strerror(errno));
  } else {
    if (n > left_) corrupt("ends early");
    if (std::fread(p, 1, n, f_) != n) corrupt("read failed");
    left_ -= n;
    hash(p, n);
  }
}

void SnapshotArchive::length(uint64_t& n, size_t elem_bytes) {
  io(n);
  if (loading() && elem_bytes && n > left_ / std::min<size_t>(elem_bytes, 8) + 1)
    corrupt("a container length (" + std::to_string(n) + ") exceeds the file");
}

void SnapshotArchive::section(const char* name) {
  std::string s = name;
  std::string got = s;
  io(got);
  if (loading() && got != s) corrupt("expected section '" + s + "', found '" + got.substr(0, 64) + "'");
}

void SnapshotArchive::expect(uint64_t value, const char* what) {
  uint64_t v = value;
  io(v);
  if (loading() && v != value)
    corrupt(std::string(what) + " is " + std::to_string(v) + " in the file, " + std::to_string(value) + " here");
}

void SnapshotArchive::finish() {
  uint64_t digest = total_;
  for (uint32_t i = 0; i < pending_len_; ++i) digest = (digest ^ pending_[i]) * 0x100000001b3ull;
  for (int i = 0; i < 4; ++i) digest = lane(digest ^ rotl(sum_[i], 17 * i + 1), sum_[i]);
  if (saving_) {
    if (std::fwrite(&digest, 1, 8, f_) != 8 || std::fflush(f_) != 0)
      throw SnapshotError("snapshot '" + path_ + "': write failed: " + std::strerror(errno));
  } else {
    if (left_) corrupt(std::to_string(left_) + " bytes more than this configuration's drive state");
    uint64_t stored = 0;
    if (std::fread(&stored, 1, 8, f_) != 8) corrupt("no checksum");
    if (stored != digest) corrupt("checksum mismatch");
  }
  const int rc = std::fclose(f_);
  f_ = nullptr;
  if (saving_ && rc != 0) throw SnapshotError("snapshot '" + path_ + "': close failed: " + std::strerror(errno));
}

}  // namespace ssdtlm
