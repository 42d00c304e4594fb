// tpcc: TPC-C on an InnoDB-like storage engine (MySQL's, as seed 000 ran it), on the file layer. The I/O
// shape of the engine, not its SQL: docs/reference/apps.md has the parameters, their defaults and why.
//
// Files (innodb_file_per_table): one tablespace per TPC-C table, in 16 KiB pages, together
// with ibdata1 and the log tpcc_db_fraction x capacity (seed 000: a 75 % full drive); ibdata1 (system tablespace, 12 MiB, holding the
// 2 MiB doublewrite area); ib_logfile0/1 (the redo log, tpcc_log_bytes together, used as one ring).
// Tables, per warehouse (TPC-C rows, InnoDB row sizes with overhead): customer 30,000 x 700 B, stock
// 100,000 x 350 B, district 10, warehouse 1, and the insert tables orders (30,000 x 40 B), new_order
// (9,000 x 20 B), order_line (300,000 x 70 B), history (30,000 x 60 B); item 100,000 x 100 B in all. The
// clustered index keeps a warehouse's rows (and a district's) together, as the bulk load leaves them. The
// number of warehouses W is what fits the database's size, the insert tables getting three times their
// loaded size (their B-trees grow at the right end of each district's key range; a district's insert
// region is a ring: old orders purged, the database stays bounded).
// Transactions (TPC-C mix over a uniformly chosen home warehouse and district): NewOrder 45 % (district,
// customer read, 5-15 items read and stock rows updated (NURand(8191)), orders + new_order + order_line
// inserts), Payment 43 % (warehouse, district, customer (NURand(1023)) updates, a history insert), Delivery
// 4 % (10 districts: new_order delete, orders and order_line updates at the oldest order, customer),
// OrderStatus 4 % and StockLevel 4 % (reads only).
// Buffer pool (tpcc_pool_bytes, LRU over 16 KiB pages): a page not in the pool is read (16 KiB) first; a
// full pool evicts its least recently used page, and when that page is dirty the page cleaner flushes the
// dirty pages among the 64 LRU-tail pages first (an LRU batch flush, innodb_lru_scan_depth-like).
// Redo: each modified row logs 150 B, each transaction 100 B more; transactions commit in groups of
// tpcc_threads (group commit of the concurrent clients): one log write of the 4 KiB pages from the last
// flushed page to the head (the last, partial page is rewritten by the next group).
// Fuzzy checkpoint: when the checkpoint age (head LSN - oldest modification in the pool) passes 75 % of
// the log, the oldest-modified dirty pages (flush list order) are flushed until it is under 50 %, then the
// checkpoint record is written (4 KiB at the start of ib_logfile0).
// Every page flush goes through the doublewrite buffer (tpcc_doublewrite; innodb_doublewrite=0 turns it off): a batch of up to 64 pages is written sequentially
// to ibdata1's doublewrite area (1 MiB), then each page to its home (16 KiB each, in batch order).
// Not modelled: secondary indexes, undo pages, B-tree splits, adaptive (time-based) flushing.
// PCs (kTpccPc +): 1 redo, 2 doublewrite, 3 checkpoint flush, 4 LRU flush, 5 checkpoint record. Hints:
// redo 1, tablespaces 2, doublewrite 3.
#include <algorithm>
#include <array>
#include <deque>
#include <list>
#include <unordered_map>
#include <vector>

#include "workload/apps/app_model.h"

namespace ssdtlm {

namespace {

constexpr uint32_t kPageUnits = 4;  // 16 KiB
enum Table { Warehouse, District, Customer, History, NewOrder, Orders, OrderLine, Item, Stock, kTables };
// Rows per warehouse (item: in all), rows per 16 KiB page, insert table (a ring per district).
constexpr uint64_t kRows[kTables] = {1, 10, 30000, 30000, 9000, 30000, 300000, 100000, 100000};
constexpr uint32_t kRowsPerPage[kTables] = {100, 100, 23, 270, 800, 400, 230, 160, 46};
constexpr bool kInsert[kTables] = {false, false, false, true, true, true, true, false, false};
enum Pc : uint32_t { PcRedo = 1, PcDoublewrite, PcCheckpointFlush, PcLruFlush, PcCheckpointRecord };

class TpccApp : public AppModel {
 public:
  TpccApp(AppIo& io, const AppParams& p, uint64_t seed)
      : io_(io), p_(p), rng_(seed ^ 0x7BCCull), proc_(io.new_proc()), slot_(io.new_slots(1)) {
    // Pages of one warehouse, insert tables at three times their loaded size; W = what fits.
    auto pages_of = [](int t, uint64_t w) {
      const uint64_t rows = t == Item ? kRows[t] : kRows[t] * w * (kInsert[t] ? 3 : 1);
      return std::max<uint64_t>(kInsert[t] ? 10 * w : 1, (rows + kRowsPerPage[t] - 1) / kRowsPerPage[t]);
    };
    // The files together (tablespaces, ibdata1, the redo log) take tpcc_db_fraction of the drive.
    log_units_ = std::max<uint64_t>(2, p.tpcc_log_bytes / 4096 / 2) * 2;
    const uint64_t all = uint64_t(p.tpcc_db_fraction * double(io.fs.total_units()));
    const uint64_t db_units = all > kIbdataUnits + log_units_ + 8 * kPageUnits ? all - kIbdataUnits - log_units_ : 8 * kPageUnits;
    uint64_t per_w = 0;
    for (int t = 0; t < kTables; ++t) per_w += t == Item ? 0 : pages_of(t, 1);
    w_ = std::max<uint64_t>(1, (db_units / kPageUnits - pages_of(Item, 1)) / per_w);
    for (int t = 0; t < kTables; ++t) {
      pages_[t] = pages_of(t, w_);
      first_[t] = db_pages_;
      db_pages_ += pages_[t];
      file_[t] = io_.layout_file(pages_[t] * kPageUnits, origin(PcCheckpointFlush, 2));
      if (kInsert[t]) {  // a ring per district, loaded to a third
        ring_rows_[t] = pages_[t] / (10 * w_) * kRowsPerPage[t];
        head_[t].assign(10 * w_, ring_rows_[t] / 3);
        tail_[t].assign(10 * w_, 0);
      }
    }
    ibdata_ = io_.layout_file(kIbdataUnits, origin(PcDoublewrite, 3));
    log_[0] = io_.layout_file(log_units_ / 2, origin(PcRedo, 1));
    log_[1] = io_.layout_file(log_units_ / 2, origin(PcRedo, 1));
    pool_pages_ = std::max<uint64_t>(64, p.tpcc_pool_bytes / (kPageUnits * 4096));
    footprint_ = db_pages_ * kPageUnits + kIbdataUnits + log_units_;
  }

  const char* name() const override { return "tpcc"; }
  WorkProgress progress() const override { return {txns_, 0, "transactions"}; }
  uint64_t footprint_units() const override { return footprint_; }

  bool step() override {
    const double u = rng_.uniform();
    const uint64_t w = rng_.below(w_), d = w * 10 + rng_.below(10);
    const uint64_t redo_before = lsn_;
    if (u < 0.45) {  // NewOrder
      touch(Warehouse, w, false);
      touch(District, d, true);
      touch(Customer, d * 3000 + nurand(1023, 3000), false);
      const uint64_t lines = 5 + rng_.below(11);
      for (uint64_t i = 0; i < lines; ++i) {
        touch(Item, nurand(8191, 100000), false);
        touch(Stock, w * 100000 + nurand(8191, 100000), true);
      }
      insert(Orders, d, 1);
      insert(NewOrder, d, 1);
      insert(OrderLine, d, lines);
    } else if (u < 0.88) {  // Payment
      touch(Warehouse, w, true);
      touch(District, d, true);
      touch(Customer, d * 3000 + nurand(1023, 3000), true);
      insert(History, d, 1);
    } else if (u < 0.92) {  // Delivery: the oldest new order of each district of the warehouse
      for (uint64_t k = 0; k < 10; ++k) {
        const uint64_t dd = w * 10 + k;
        oldest(NewOrder, dd, 1);
        oldest(Orders, dd, 1);
        oldest(OrderLine, dd, 10);
        touch(Customer, dd * 3000 + nurand(1023, 3000), true);
      }
    } else if (u < 0.96) {  // OrderStatus
      touch(Customer, d * 3000 + nurand(1023, 3000), false);
      recent(Orders, d, 1);
      recent(OrderLine, d, 10);
    } else {  // StockLevel: the district's last 20 orders' lines and their stock
      touch(District, d, false);
      recent(OrderLine, d, 200);
      for (int i = 0; i < 20; ++i) touch(Stock, w * 100000 + nurand(8191, 100000), false);
    }
    if (lsn_ != redo_before) lsn_ += 100;
    ++txns_;
    if (++group_ >= std::max<uint32_t>(1, p_.tpcc_threads)) commit_group();
    return true;
  }

 private:
  static constexpr uint64_t kIbdataUnits = 3072, kDoublewriteAt = 256, kBatchPages = 64;
  struct Frame {
    std::list<uint64_t>::iterator lru;
    bool dirty = false;
    uint64_t oldest = 0;  // LSN of its first unflushed modification
  };

  WriteOrigin origin(uint32_t pc, uint16_t hint) const { return {kTpccPc + pc, hint, proc_, slot_}; }
  uint64_t nurand(uint64_t a, uint64_t n) {  // TPC-C's NURand(A, 1, n) - 1
    const uint64_t c = (a * 7919) % n;
    return ((rng_.below(a + 1) | rng_.below(n)) + c) % n;
  }
  // A row of a table (by its row number) is touched: a miss reads its page; dirty: it is modified (redo).
  void touch(int t, uint64_t row, bool dirty) { page(first_[t] + (row / kRowsPerPage[t]) % pages_[t], dirty); }
  uint64_t ring_page(int t, uint64_t district, uint64_t row) const {
    const uint64_t per = pages_[t] / (10 * w_);
    return first_[t] + district * per + (row % ring_rows_[t]) / kRowsPerPage[t];
  }
  void insert(int t, uint64_t district, uint64_t rows) {
    for (uint64_t i = 0; i < rows; ++i) page(ring_page(t, district, head_[t][district]++), true);
  }
  void oldest(int t, uint64_t district, uint64_t rows) {
    for (uint64_t i = 0; i < rows; ++i) {
      if (tail_[t][district] + 1 >= head_[t][district]) break;
      page(ring_page(t, district, tail_[t][district]++), true);
    }
  }
  void recent(int t, uint64_t district, uint64_t rows) {
    const uint64_t h = head_[t][district];
    for (uint64_t i = 0; i < rows && i < h; i += kRowsPerPage[t]) page(ring_page(t, district, h - 1 - i), false);
  }

  void page(uint64_t pg, bool dirty) {
    auto it = pool_.find(pg);
    if (it == pool_.end()) {
      if (pool_.size() >= pool_pages_) evict();
      const int t = table_of(pg);
      io_.read(file_[t], (pg - first_[t]) * kPageUnits, kPageUnits, origin(0, 0));
      lru_.push_front(pg);
      it = pool_.emplace(pg, Frame{lru_.begin()}).first;
    } else {
      lru_.splice(lru_.begin(), lru_, it->second.lru);
    }
    if (!dirty) return;
    lsn_ += 150;
    Frame& f = it->second;
    if (!f.dirty) {
      f.dirty = true;
      f.oldest = lsn_;
      flush_list_.push_back({pg, lsn_});
    }
  }
  int table_of(uint64_t pg) const {
    return int(std::upper_bound(first_.begin(), first_.end(), pg) - first_.begin()) - 1;
  }
  void evict() {
    const uint64_t victim = lru_.back();
    if (pool_[victim].dirty) {  // LRU batch flush of the dirty pages near the tail
      auto it = lru_.end();
      for (uint64_t k = 0; k < kBatchPages && it != lru_.begin(); ++k) {
        --it;
        if (pool_[*it].dirty) flush(*it, PcLruFlush);
      }
      write_batch();
    }
    pool_.erase(victim);
    lru_.pop_back();
  }
  void flush(uint64_t pg, uint32_t pc) {
    Frame& f = pool_[pg];
    f.dirty = false;
    batch_.push_back(pg);
    batch_pc_ = pc;
    if (batch_.size() >= kBatchPages) write_batch();
  }
  void write_batch() {  // doublewrite area first, then each page home
    if (batch_.empty()) return;
    if (p_.tpcc_doublewrite) io_.write(ibdata_, kDoublewriteAt, batch_.size() * kPageUnits, origin(PcDoublewrite, 3));
    for (uint64_t pg : batch_) {
      const int t = table_of(pg);
      io_.write(file_[t], (pg - first_[t]) * kPageUnits, kPageUnits, origin(batch_pc_, 2));
    }
    batch_.clear();
  }
  uint64_t oldest_dirty() {  // the flush list's head, stale entries dropped
    while (!flush_list_.empty()) {
      auto [pg, lsn] = flush_list_.front();
      auto it = pool_.find(pg);
      if (it != pool_.end() && it->second.dirty && it->second.oldest == lsn) return lsn;
      flush_list_.pop_front();
    }
    return lsn_;
  }
  void commit_group() {
    group_ = 0;
    // The redo log's 4 KiB pages from the last flushed one to the head, as one ring over both files.
    const uint64_t head_unit = lsn_ / 4096, from = flushed_unit_;
    for (uint64_t u = from; u <= head_unit;) {
      const uint64_t pos = u % log_units_, half = log_units_ / 2;
      const uint64_t n = std::min({head_unit + 1 - u, half - pos % half, uint64_t(io_.max_io_units())});
      io_.write(log_[pos / half], pos % half, n, origin(PcRedo, 1));
      u += n;
    }
    flushed_unit_ = head_unit;  // the partial page is rewritten next time
    // Fuzzy checkpoint.
    const uint64_t cap = log_units_ * 4096;
    if (lsn_ - oldest_dirty() > cap * 3 / 4) {
      while (!flush_list_.empty() && lsn_ - oldest_dirty() > cap / 2) {
        flush(flush_list_.front().first, PcCheckpointFlush);
        flush_list_.pop_front();
      }
      write_batch();
      io_.write(log_[0], 0, 1, origin(PcCheckpointRecord, 1));
      ++checkpoints_;
    }
  }

  AppIo& io_;
  AppParams p_;
  Rng rng_;
  uint32_t proc_;
  uint16_t slot_;
  uint64_t w_ = 1, db_pages_ = 0, log_units_ = 0, pool_pages_ = 0, footprint_ = 0;
  std::array<uint64_t, kTables> pages_{}, first_{}, ring_rows_{};
  std::array<FileId, kTables> file_{};
  std::array<std::vector<uint64_t>, kTables> head_, tail_;  // rows, per district ring
  FileId ibdata_ = 0, log_[2] = {0, 0};
  std::list<uint64_t> lru_;                       // front = most recently used
  std::unordered_map<uint64_t, Frame> pool_;
  std::deque<std::pair<uint64_t, uint64_t>> flush_list_;  // (page, LSN when it became dirty), oldest first
  std::vector<uint64_t> batch_;
  uint32_t batch_pc_ = PcLruFlush;
  uint64_t lsn_ = 0, flushed_unit_ = 0, txns_ = 0, checkpoints_ = 0;
  uint32_t group_ = 0;
};

}  // namespace

std::unique_ptr<AppModel> make_tpcc_app(AppIo& io, const AppParams& p, uint64_t seed) {
  return std::make_unique<TpccApp>(io, p, seed);
}

}  // namespace ssdtlm
