#include <catch2/catch.hpp>

#include "workload/filesystem/page_cache.h"

using namespace ssdtlm;

TEST_CASE("page cache: the flusher writes inodes by first-dirty time once expired, a re-dirtied page keeps the inode's age",
          "[workload][filesystem][capture]") {
  PageCache c;
  PageOrigin a{11, 1, 1}, b{22, 2, 2};
  c.dirty(1, 0, 2, 1000, a);
  c.dirty(2, 5, 1, 2000, b);
  c.dirty(1, 1, 2, 5000, b);  // page 1 re-dirtied by b, page 2 new; inode 1 stays dirtied at 1000
  CHECK(c.dirty_pages() == 4);
  std::vector<DirtyPage> out;
  c.take_expired(1999, 1000, 0, out);
  CHECK(out.empty());  // 1000 + 1000 > 1999
  c.take_expired(2000, 1000, 0, out);  // only inode 1 (2000 + 1000 > 2000)
  REQUIRE(out.size() == 3);
  CHECK(out[0].page == 0);
  CHECK(out[0].origin.pc == 11);
  CHECK(out[1].origin.pc == 22);  // the last writer of the page
  CHECK(out[2].page == 2);
  CHECK(c.dirty_pages() == 1);
  out.clear();
  c.take_expired(2500, 1000, 0, out);
  CHECK(out.empty());
  c.dirty(3, 0, 10, 2600, a);
  c.take_expired(2700, 1000, 12, out);  // 11 dirty pages, none expired, below the background limit
  CHECK(out.empty());
  c.take_expired(2700, 1000, 5, out);  // above 5 dirty pages: the oldest inodes until at most 5 (here all)
  REQUIRE(out.size() == 11);
  CHECK(out[0].file == 2);
  CHECK(out[1].file == 3);
  CHECK(c.dirty_pages() == 0);
}

TEST_CASE("page cache: ranges, drops and a re-dirtied inode's new age", "[workload][filesystem][capture]") {
  PageCache c;
  c.dirty(7, 0, 8, 100, PageOrigin{1, 1, 1});
  std::vector<DirtyPage> out;
  c.take_range(7, 2, 3, out);
  REQUIRE(out.size() == 3);
  CHECK(out.front().page == 2);
  CHECK(out.back().page == 4);
  CHECK(c.is_dirty(7, 1));
  CHECK_FALSE(c.is_dirty(7, 3));
  CHECK(c.drop_range(7, 6) == 2);
  out.clear();
  c.take_file(7, out);
  CHECK(out.size() == 3);
  CHECK(c.dirty_files() == 0);
  c.dirty(7, 0, 1, 900, PageOrigin{});  // clean, then dirty again: a new dirtied_when
  out.clear();
  c.take_expired(950, 100, 0, out);
  CHECK(out.empty());
  c.take_expired(1000, 100, 0, out);
  CHECK(out.size() == 1);
}
