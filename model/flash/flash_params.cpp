#include "flash/flash_params.h"

#include <algorithm>

namespace ssdtlm {

FlashParams FlashParams::plain(const DieTiming& t) {
  FlashParams p;
  p.timing = t;
  return p;
}

void FlashParams::derive() {
  if (page_types > 1) one_shot_ps_ = *std::max_element(page_prog_ps, page_prog_ps + page_types);
}

}  // namespace ssdtlm
