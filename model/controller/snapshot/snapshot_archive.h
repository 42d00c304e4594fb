// One archive for saving and loading a preconditioned drive's state (docs/history/performance.md, "Snapshots").
// Every stateful component lists its state once, in `void snapshot(SnapshotArchive& a)`, calling a.io() on
// each member in a fixed order; the same method saves and loads, so the two cannot drift apart. Arrays of
// plain values go out as one dense block; containers of containers element by element.
//
// File layout: magic "SSDTLMSN", format version, the key text (the canonical configuration subset the
// preconditioning reads) and its hash, then the components' sections (each opened by a tagged name), then a
// 64-bit checksum of everything before it. A truncated, corrupt or mismatched file throws SnapshotError
// with the file name and what is wrong; the runner turns it into exit status 2.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ssdtlm {

struct SnapshotError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A component whose state the snapshot does not cover: the drive is preconditioned and not saved.
struct SnapshotUnsupported : SnapshotError {
  using SnapshotError::SnapshotError;
};

class SnapshotArchive;

namespace snapshot_detail {
template <class T, class = void>
struct has_snapshot : std::false_type {};
template <class T>
struct has_snapshot<T, std::void_t<decltype(std::declval<T&>().snapshot(std::declval<SnapshotArchive&>()))>>
    : std::true_type {};
}  // namespace snapshot_detail

class SnapshotArchive {
 public:
  // 2: no fast-forward map write-back pool (issue 46); 3: the unit pool's state after the blocks' (issue 46)
  static constexpr uint32_t kFormatVersion = 3;
  // Opens `path` for writing (saving) or reading (loading). Loading checks the header: magic, format version
  // and that the file's key text is `key` (else SnapshotError naming the first key that differs).
  static SnapshotArchive save(const std::string& path, const std::string& key);
  static SnapshotArchive load(const std::string& path, const std::string& key);
  SnapshotArchive(SnapshotArchive&& o) noexcept;
  SnapshotArchive& operator=(SnapshotArchive&&) = delete;
  ~SnapshotArchive();

  bool saving() const { return saving_; }
  bool loading() const { return !saving_; }
  const std::string& path() const { return path_; }

  // A named section: written on save, checked on load (a mismatch means a file of another layout).
  void section(const char* name);
  // Ends the archive: writes (checks) the checksum and closes the file. A saved file must be finished.
  void finish();

  // One member. Plain values and arrays of them as bytes; containers of other things element by element;
  // a type with a snapshot(SnapshotArchive&) member calls it.
  template <class T>
  void io(T& v) {
    if constexpr (snapshot_detail::has_snapshot<T>::value) {
      v.snapshot(*this);
    } else {
      static_assert(std::is_trivially_copyable<T>::value, "SnapshotArchive::io: give this type a snapshot()");
      bytes(&v, sizeof(T));
    }
  }
  template <class T>
  void io(std::atomic<T>& v) {
    T x = v.load();
    io(x);
    if (loading()) v.store(x);
  }
  // A vector keeps its capacity too (memory.model_bytes sums capacities).
  template <class T, class A>
  void io(std::vector<T, A>& v) {
    uint64_t n = v.size(), cap = v.capacity();
    length(n, sizeof(T));
    io(cap);
    if (loading()) {
      if (cap > (uint64_t(1) << 40) / sizeof(T)) corrupt("a vector's capacity is out of range");
      if (cap < n) corrupt("a vector's capacity is below its size");
      v.reserve(size_t(cap));
      v.resize(size_t(n));
    }
    if constexpr (std::is_trivially_copyable<T>::value && !snapshot_detail::has_snapshot<T>::value) {
      if (n) bytes(v.data(), size_t(n) * sizeof(T));
    } else {
      for (T& x : v) io(x);
    }
  }
  void io(std::vector<bool>&) = delete;
  template <class T>
  void io(std::deque<T>& d) {
    uint64_t n = d.size();
    length(n, sizeof(T));
    if (loading()) d.resize(size_t(n));
    for (T& x : d) io(x);
  }
  void io(std::string& s) {
    uint64_t n = s.size();
    length(n, 1);
    if (loading()) s.resize(size_t(n));
    if (n) bytes(&s[0], size_t(n));
  }
  template <class A, class B>
  void io(std::pair<A, B>& p) {
    io(p.first);
    io(p.second);
  }
  template <class T>
  void io(std::set<T>& s) {
    uint64_t n = s.size();
    length(n, sizeof(T));
    if (saving()) {
      for (T x : s) io(x);
    } else {
      s.clear();
      for (uint64_t i = 0; i < n; ++i) {
        T x{};
        io(x);
        s.insert(s.end(), x);
      }
    }
  }
  // Saved in key order; loaded by inserting in that order.
  template <class K, class V>
  void io(std::unordered_map<K, V>& m) {
    uint64_t n = m.size();
    length(n, sizeof(K));
    if (saving()) {
      std::vector<K> keys;
      keys.reserve(m.size());
      for (auto& kv : m) keys.push_back(kv.first);
      std::sort(keys.begin(), keys.end());
      for (K k : keys) {
        io(k);
        io(m[k]);
      }
    } else {
      m.clear();
      for (uint64_t i = 0; i < n; ++i) {
        K k{};
        io(k);
        io(m[k]);
      }
    }
  }
  // Variadic convenience: a.io_all(x, y, z).
  template <class... Ts>
  void io_all(Ts&... vs) {
    (io(vs), ...);
  }

  // A value saved for the record and checked on load (a size the configuration fixes).
  void expect(uint64_t value, const char* what);

  // Raw bytes (used by io).
  void bytes(void* p, size_t n);

  [[noreturn]] void corrupt(const std::string& what) const;

 private:
  SnapshotArchive(const std::string& path, bool saving);
  // A container length: on load, bounded by what is left of the file (a corrupt length fails cleanly).
  void length(uint64_t& n, size_t elem_bytes);
  void hash(const void* p, size_t n);

  std::string path_;
  std::FILE* f_ = nullptr;
  bool saving_;
  uint64_t left_ = 0;  // loading: bytes of the file not read yet (checksum excluded)
  uint64_t sum_[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
  uint64_t total_ = 0;           // bytes hashed
  unsigned char pending_[32];    // bytes not yet folded into sum_ (fewer than 32)
  uint32_t pending_len_ = 0;
};

// 64-bit FNV-1a of a text (the key's hash, in the file name).
uint64_t snapshot_text_hash(const std::string& s);

}  // namespace ssdtlm
