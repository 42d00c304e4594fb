// A die's queue of NAND operations (intrusive, through FlashOp::next), served in one of two orders:
//  * fifo: arrival order;
//  * read_first: a queued read overtakes queued programs and erases (user, map and GC work alike), but the
//    oldest queued program/erase is overtaken by at most `limit` reads; then the queue is served in arrival
//    order until that operation has left, and the count starts again for the next one.
// O(1) per push and pop: reads and other operations are kept in two FIFO lists and compared by arrival number.
#pragma once
#include <cstddef>
#include <cstdint>

#include "flash/flash_op.h"

namespace ssdtlm {

class DieQueue {
 public:
  void configure(bool read_first, uint32_t limit) {
    read_first_ = read_first;
    limit_ = limit;
  }

  void push(FlashOp* op) {
    op->next = nullptr;
    op->seq = seq_++;
    (read_first_ && op->cmd == FlashCmd::Read ? reads_ : others_).push(op);
    ++size_;
    refresh();
  }
  // The operation served next (null when empty).
  FlashOp* front() const { return front_; }
  FlashOp* pop() {
    FlashOp* op = front_;
    if (read_first_ && op == reads_.head) {
      reads_.pop();
      if (others_.head && op->seq > others_.head->seq) {
        ++overtaken_;
        ++overtakes_;
      }
    } else {
      others_.pop();
      overtaken_ = 0;
    }
    --size_;
    refresh();
    return op;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Reads served ahead of an older program or erase (read_first).
  uint64_t overtakes() const { return overtakes_; }

 private:
  struct List {
    FlashOp* head = nullptr;
    FlashOp* tail = nullptr;
    void push(FlashOp* op) {
      if (tail)
        tail->next = op;
      else
        head = op;
      tail = op;
    }
    void pop() {
      head = head->next;
      if (!head) tail = nullptr;
    }
  };
  void refresh() {
    if (!reads_.head)
      front_ = others_.head;
    else if (!others_.head || reads_.head->seq < others_.head->seq || overtaken_ < limit_)
      front_ = reads_.head;
    else
      front_ = others_.head;
  }

  List reads_, others_;  // fifo: everything in others_
  FlashOp* front_ = nullptr;
  size_t size_ = 0;
  uint64_t seq_ = 0;
  uint32_t overtaken_ = 0;  // reads served ahead of the oldest queued program/erase
  uint32_t limit_ = 0;
  uint64_t overtakes_ = 0;
  bool read_first_ = false;
};

}  // namespace ssdtlm
