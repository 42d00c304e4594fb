// lsm: a RocksDB/Cassandra-like key-value store under YCSB (workload A: uniform updates of existing keys and
// gets), on the file layer. docs/reference/apps.md has the parameters, their defaults and why.
//
// Activities (each a lane of app_model.h's fair interleaving, like RocksDB's threads):
// - client: every update batch appends lsm_wal_write_bytes to the write-ahead log (small synchronous writes,
//   PC log) and goes to the memtable; gets read random 4 KiB blocks of the live tables (lsm_reads_per_write
//   reads per 4 KiB logged). When the memtable holds lsm_memtable_bytes it becomes immutable, a new WAL file is
//   preallocated, and a flush is queued; the client stalls while an immutable memtable still waits for its
//   flush (max_write_buffer_number = 2), while L0 holds 5 x lsm_l0_trigger tables (level0_stop_writes_trigger),
//   or while a level above the last exceeds twice its target (RocksDB's pending-compaction-bytes limit).
// - flush: writes the memtable as one L0 table (PC flush), then deletes the memtable's WAL (WAL recycling:
//   its trims).
// - compaction (one at a time, the highest score >= 1 as RocksDB picks: L0 tables / lsm_l0_trigger, level
//   size / target): L0 -> L1 merges all L0 tables with all of L1 (L0 tables span the whole key range); a level
//   k >= 1 moves one table (round-robin over the key space, or the table of a random key with
//   lsm_compaction_pick=random) into level k + 1, merged with the tables of k + 1
//   it overlaps. Outputs
//   are tables of lsm_table_bytes (PC compaction into level k + 1); the inputs are read, then deleted.
// Sizes: the DB holds D = lsm_db_fraction x capacity of unique data. Level targets are L1 = lsm_l0_trigger x
// memtable (max_bytes_for_level_base = 4 x write_buffer_size) and Lk = L1 x fanout^(k-1); the last level n is
// the first whose target reaches D, and holds D. Keys are uniform, so a table's data is spread evenly over its
// key range, and a level of volume V over a key range of width w holds V / (w D) of the keys there. A merge of
// an upper volume u into lower volume l (density d over the merged range) writes l + u (1 - d): YCSB updates
// existing keys, so data reaching the last level (d = 1) replaces versions and the DB stops growing there.
// Initial layout (written by the precondition): the last level full (D), each upper level at half its target.
#pragma once
#include <map>
#include <memory>
#include <vector>

#include "workload/apps/app_model.h"

namespace ssdtlm {

struct LsmStats {
  uint64_t wal_units = 0, flush_units = 0, compaction_units = 0, read_units = 0;
  uint64_t flushes = 0, compactions = 0, wal_deletes = 0, stall_steps = 0;
  uint64_t level_picks = 0, picks_backwards = 0;  // level k >= 1 compactions; those whose table lies before the last pick's
  // per output level (index = level): table units taken from the level above, from this level, written out
  std::vector<uint64_t> upper_in, lower_in, out;
};

class LsmApp : public AppModel {
 public:
  // PCs (offsets from kLsmPc) and manual hints.
  static constexpr uint32_t kPcWal = 1, kPcFlush = 2, kPcCompaction = 10;  // + output level
  static uint16_t hint_for_level(int level) { return uint16_t(level + 2 > 8 ? 8 : level + 2); }  // WAL 1, L0 2

  LsmApp(AppIo& io, const AppParams& p, uint64_t seed);
  const char* name() const override { return "lsm"; }
  bool step() override;
  WorkProgress progress() const override { return {stats_.flushes, 0, "memtable flushes"}; }
  uint64_t footprint_units() const override { return footprint_; }

  const LsmStats& stats() const { return stats_; }
  int levels() const { return levels_; }
  uint64_t level_units(int k) const { return k == 0 ? l0_units() : lv_units_[size_t(k)]; }
  double level_target(int k) const { return target_[size_t(k)]; }
  uint64_t db_units() const { return D_; }
  size_t l0_tables() const { return l0_.size(); }

 private:
  struct Table {
    FileId f = 0;
    double lo = 0, hi = 1;
    uint64_t units = 0;
  };
  struct Job;
  uint64_t l0_units() const;
  bool stalled() const;
  void client_write();
  void random_get();
  void switch_memtable();
  void maybe_compact();
  void start_l0_compaction();
  void start_level_compaction(int k);
  void run_job(std::shared_ptr<Job> job);
  WriteOrigin origin(uint32_t pc, uint16_t hint) const { return {kLsmPc + pc, hint, proc_, slot_}; }

  AppIo& io_;
  AppParams p_;
  Rng rng_;
  uint64_t D_, M_, T_, wal_w_;
  uint32_t f_, trig_, stop_;
  int levels_ = 1;
  std::vector<double> target_;            // per level (index 1..n)
  std::vector<Table> l0_;                 // oldest first
  std::vector<std::map<double, Table>> lv_;  // levels 1..n by key-range start
  std::vector<uint64_t> lv_units_;
  std::vector<double> cursor_;            // per level: round-robin compaction key
  std::vector<double> last_pick_;         // per level: the key-range start of the table its last compaction took
  FileId wal_ = 0;
  uint64_t wal_pos_ = 0, mem_units_ = 0;
  bool imm_pending_ = false, compacting_ = false;
  double read_credit_ = 0;
  uint32_t proc_;
  uint16_t slot_;
  uint64_t footprint_ = 0;
  Lanes lanes_{3};  // client, flush, compaction
  std::vector<bool> blocked_ = std::vector<bool>(3, false);
  LsmStats stats_;
};

}  // namespace ssdtlm
