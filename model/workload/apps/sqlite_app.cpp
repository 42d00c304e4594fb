#include "workload/apps/sqlite_app.h"

#include <algorithm>
#include <cmath>

namespace ssdtlm {

namespace {
// Share of the database pages and rows per 4 KiB page of each table (TPC-C row sizes: customer ~650 B,
// stock ~306 B, orders ~24 B, new_order 8 B, order_line ~54 B, history ~46 B, item ~82 B).
constexpr double kShare[] = {0.0001, 0.0005, 0.17, 0.05, 0.01, 0.05, 0.28, 0.08, 0.36};
constexpr uint32_t kRowsPerPage[] = {1, 1, 6, 80, 400, 150, 70, 48, 13};
constexpr const char* kNames[] = {"warehouse", "district", "customer", "history", "new_order",
                                  "orders",    "order_line", "item",   "stock"};
}  // namespace

const char* SqliteApp::table_name(int t) { return kNames[t]; }

SqliteApp::SqliteApp(AppIo& io, const AppParams& p, uint64_t seed)
    : io_(io), p_(p), rng_(seed ^ 0x5011E7ull), proc_(io.new_proc()), slot_(io.new_slots(1)) {
  db_pages_ = std::max<uint64_t>(kTables * 4, uint64_t(p.sqlite_db_fraction * double(io.fs.total_units())));
  uint64_t used = 0;
  for (int t = 0; t < kTables; ++t) {
    pages_[size_t(t)] = std::max<uint64_t>(1, uint64_t(kShare[t] * double(db_pages_)));
    rows_per_page_[size_t(t)] = kRowsPerPage[t];
    used += pages_[size_t(t)];
  }
  if (used < db_pages_) pages_[Stock] += db_pages_ - used;
  db_pages_ = 0;
  for (int t = 0; t < kTables; ++t) {
    first_[size_t(t)] = db_pages_;
    db_pages_ += pages_[size_t(t)];
  }
  // Insert tables start 30% full (the loaded database); Delivery's tail starts at the beginning.
  for (int t : {History, NewOrder, Orders, OrderLine})
    circ_[size_t(t)].head = uint64_t(0.3 * double(pages_[size_t(t)] * rows_per_page_[size_t(t)]));
  wal_cap_ = p.sqlite_checkpoint_pages + 128 + 1;
  db_ = io_.layout_file(db_pages_, origin(kPcCheckpoint, 2));
  wal_ = io_.layout_file(wal_cap_, origin(kPcWalHeader, 1));
  footprint_ = db_pages_ + wal_cap_;
}

uint64_t SqliteApp::nurand(uint64_t a, int t) {
  const uint64_t n = pages_[size_t(t)] * rows_per_page_[size_t(t)];
  const uint64_t c = (a * 7919) % (n ? n : 1);  // the run-time constant C
  return ((rng_.below(a + 1) | rng_.below(n)) + c) % n;
}

uint64_t SqliteApp::page_of_row(int t, uint64_t row) const {
  return first_[size_t(t)] + (row / rows_per_page_[size_t(t)]) % pages_[size_t(t)];
}

void SqliteApp::touch(int t, uint64_t page, bool dirty) {
  if (rng_.uniform() < p_.sqlite_miss_ratio) io_.read(db_, page, 1, origin(0, 0));
  if (dirty && std::find(dirty_.begin(), dirty_.end(), page) == dirty_.end()) {
    dirty_.push_back(page);
    ++frames_by_table_[size_t(t)];
  }
}

void SqliteApp::insert(int t, uint64_t rows) {
  for (uint64_t i = 0; i < rows; ++i) touch(t, page_of_row(t, circ_[size_t(t)].head++), true);
}

void SqliteApp::tail_update(int t, uint64_t rows) {
  for (uint64_t i = 0; i < rows; ++i) touch(t, page_of_row(t, circ_[size_t(t)].tail++), true);
}

bool SqliteApp::step() {
  dirty_.clear();
  const double u = rng_.uniform();
  const Txn kind = u < 0.45 ? TxNewOrder : u < 0.88 ? TxPayment : u < 0.92 ? TxDelivery : u < 0.96 ? TxOrderStatus : TxStockLevel;
  auto uniform_page = [&](int t) { return first_[size_t(t)] + rng_.below(pages_[size_t(t)]); };
  switch (kind) {
    case TxNewOrder: {
      touch(Warehouse, uniform_page(Warehouse), false);
      touch(District, uniform_page(District), true);
      touch(Customer, page_of_row(Customer, nurand(1023, Customer)), false);
      const uint64_t lines = 5 + rng_.below(11);
      for (uint64_t i = 0; i < lines; ++i) {
        touch(Item, page_of_row(Item, nurand(8191, Item)), false);
        touch(Stock, page_of_row(Stock, nurand(8191, Stock)), true);
      }
      insert(Orders, 1);
      insert(NewOrder, 1);
      insert(OrderLine, lines);
      break;
    }
    case TxPayment:
      touch(Warehouse, uniform_page(Warehouse), true);
      touch(District, uniform_page(District), true);
      touch(Customer, page_of_row(Customer, nurand(1023, Customer)), true);
      insert(History, 1);
      break;
    case TxDelivery:
      for (int d = 0; d < 10; ++d) {
        tail_update(NewOrder, 1);
        tail_update(Orders, 1);
        tail_update(OrderLine, 10);
        touch(Customer, page_of_row(Customer, nurand(1023, Customer)), true);
      }
      break;
    case TxOrderStatus:
      touch(Customer, page_of_row(Customer, nurand(1023, Customer)), false);
      touch(Orders, page_of_row(Orders, circ_[Orders].head - 1 - rng_.below(100)), false);
      touch(OrderLine, page_of_row(OrderLine, circ_[OrderLine].head - 1 - rng_.below(1000)), false);
      break;
    case TxStockLevel:
      touch(District, uniform_page(District), false);
      for (int i = 0; i < 3; ++i) touch(OrderLine, page_of_row(OrderLine, circ_[OrderLine].head - 1 - rng_.below(200)), false);
      for (int i = 0; i < 20; ++i) touch(Stock, page_of_row(Stock, nurand(8191, Stock)), false);
      break;
    default: break;
  }
  ++txns_by_[size_t(kind)];
  ++txns_;
  if (!dirty_.empty()) commit(kind);
  return true;
}

void SqliteApp::commit(Txn kind) {
  if (wal_header_due_) {
    io_.write(wal_, 0, 1, origin(kPcWalHeader, 1));
    wal_units_ += 1;
    wal_header_due_ = false;
  }
  const uint64_t k = dirty_.size();
  if (1 + wal_frames_ + k > io_.fs.size(wal_)) io_.fs.append(wal_, 1 + wal_frames_ + k - io_.fs.size(wal_));
  io_.write(wal_, 1 + wal_frames_, k, origin(kPcFrames + uint32_t(kind), 1));
  wal_frames_ += k;
  wal_units_ += k;
  wal_pages_.insert(dirty_.begin(), dirty_.end());
  if (wal_frames_ >= p_.sqlite_checkpoint_pages) checkpoint();
}

void SqliteApp::checkpoint() {
  const WriteOrigin o = origin(kPcCheckpoint, 2);
  auto it = wal_pages_.begin();
  while (it != wal_pages_.end()) {  // runs of adjacent pages, in page order
    const uint64_t first = *it;
    uint64_t n = 1;
    ++it;
    while (it != wal_pages_.end() && *it == first + n && n < io_.max_io_units()) {
      ++n;
      ++it;
    }
    io_.write(db_, first, n, o);
    ckpt_units_ += n;
    for (uint64_t pg = first; pg < first + n; ++pg) {
      const int t = int(std::upper_bound(first_.begin(), first_.end(), pg) - first_.begin()) - 1;
      ++ckpt_by_table_[size_t(t)];
    }
  }
  wal_pages_.clear();
  wal_frames_ = 0;
  wal_header_due_ = true;
  ++checkpoints_;
}

std::unique_ptr<AppModel> make_sqlite_app(AppIo& io, const AppParams& p, uint64_t seed) {
  return std::make_unique<SqliteApp>(io, p, seed);
}

}  // namespace ssdtlm
