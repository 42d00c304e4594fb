// sqlite: TPC-C on SQLite in WAL mode, on the file layer. docs/reference/apps.md has the parameters, their defaults
// and why.
//
// The database file holds sqlite_db_fraction x capacity in 4 KiB pages, split into the TPC-C tables (share of
// the pages, how rows are chosen, rows per page):
//   warehouse 0.01% and district 0.05% (uniform: a handful of pages every Payment/NewOrder updates),
//   customer 17% (NURand(1023)), stock 36% (NURand(8191)), item 8% (read only, NURand(8191)),
//   orders 5%, new_order 1%, order_line 28%, history 5%: insert tables, written at a head that advances a row
//   at a time and wraps (old orders are purged: the DB stays bounded, TPC-C's grows); Delivery updates
//   orders, order_line and deletes new_order rows at a tail behind the head.
// Transactions (TPC-C mix): NewOrder 45% (district, 5-15 stock rows, order + new_order + 5-15 order_line
// inserts; reads items), Payment 43% (warehouse, district, customer, a history insert), Delivery 4% (10
// districts: new_order delete, orders and order_line updates, customer), OrderStatus 4% and StockLevel 4%
// (reads only). Each page a transaction touches is read from the device with probability sqlite_miss_ratio.
// Commit appends one WAL frame per dirtied page (one write, PC of the transaction's commit path); after a
// commit that brings the WAL to sqlite_checkpoint_pages frames (wal_autocheckpoint), the checkpoint writes
// the newest version of every page in the WAL in place in the database file, in page order (runs of adjacent
// pages merged; PC checkpoint), and the WAL restarts from its beginning: the next commit rewrites the WAL
// header (PC wal header), and the frames overwrite the old ones in place.
// PCs: commit frames of NewOrder, Payment and Delivery, the WAL header, the checkpoint (5; the paper found
// about 4). Manual hints: the WAL 1, the database 2.
#pragma once
#include <array>
#include <memory>
#include <set>
#include <vector>

#include "workload/apps/app_model.h"

namespace ssdtlm {

class SqliteApp : public AppModel {
 public:
  enum Table { Warehouse, District, Customer, History, NewOrder, Orders, OrderLine, Item, Stock, kTables };
  enum Txn { TxNewOrder, TxPayment, TxDelivery, TxOrderStatus, TxStockLevel, kTxns };
  static constexpr uint32_t kPcFrames = 1;  // + Txn (NewOrder 1, Payment 2, Delivery 3)
  static constexpr uint32_t kPcWalHeader = 4, kPcCheckpoint = 5;
  static const char* table_name(int t);

  SqliteApp(AppIo& io, const AppParams& p, uint64_t seed);
  const char* name() const override { return "sqlite"; }
  bool step() override;
  WorkProgress progress() const override { return {txns_, 0, "transactions"}; }
  uint64_t footprint_units() const override { return footprint_; }

  uint64_t table_pages(int t) const { return pages_[size_t(t)]; }
  uint64_t checkpoint_units_of(int t) const { return ckpt_by_table_[size_t(t)]; }  // page writes in place
  uint64_t frames_of(int t) const { return frames_by_table_[size_t(t)]; }          // WAL frames
  uint64_t wal_units() const { return wal_units_; }
  uint64_t checkpoint_units() const { return ckpt_units_; }
  uint64_t checkpoints() const { return checkpoints_; }
  uint64_t txns(int t) const { return txns_by_[size_t(t)]; }

 private:
  struct Circular {
    uint64_t head = 0, tail = 0;  // rows
  };
  uint64_t nurand(uint64_t a, int t);
  uint64_t page_of_row(int t, uint64_t row) const;
  void touch(int t, uint64_t page, bool dirty);
  void insert(int t, uint64_t rows);
  void tail_update(int t, uint64_t rows);
  void commit(Txn kind);
  void checkpoint();
  WriteOrigin origin(uint32_t pc, uint16_t hint) const { return {kSqlitePc + pc, hint, proc_, slot_}; }

  AppIo& io_;
  AppParams p_;
  Rng rng_;
  std::array<uint64_t, kTables> pages_{}, first_{}, ckpt_by_table_{}, frames_by_table_{};
  std::array<uint32_t, kTables> rows_per_page_{};
  std::array<Circular, kTables> circ_{};
  std::array<uint64_t, kTxns> txns_by_{};
  FileId db_ = 0, wal_ = 0;
  uint64_t db_pages_ = 0, wal_cap_ = 0, wal_frames_ = 0;
  bool wal_header_due_ = true;
  std::vector<uint64_t> dirty_;          // this transaction's pages (db page numbers)
  std::set<uint64_t> wal_pages_;         // distinct pages in the WAL since the last checkpoint
  uint64_t txns_ = 0, wal_units_ = 0, ckpt_units_ = 0, checkpoints_ = 0, footprint_ = 0;
  uint32_t proc_;
  uint16_t slot_;
};

}  // namespace ssdtlm
