// A command the endpoint fetched and handed to the FTL: the FTL's NvmeCommand and what the endpoint needs to
// complete it (queue, command id, the host memory its data occupies; the parent of a multi-range DSM).
#pragma once
#include <vector>

#include "controller/nvme/nvme_endpoint.h"

namespace ssdtlm {

struct NvmeEndpoint::Command : NvmeCommand {
  uint16_t sqid = 0, cid = 0;
  uint8_t opcode = 0;
  uint32_t lba_shift = 0;              // Zone Append's result in LBAs: result_lpn << (12 - log2 LBA)
  std::vector<nvme::Segment> data;     // host memory, in transfer order
  Command* parent = nullptr;           // a DSM range's command
  uint32_t parts = 0;                  // a DSM: ranges still in the FTL
  uint16_t worst = 0;                  // a DSM: the first failing range's status
  std::vector<uint8_t> extension;      // Set Zone Descriptor Extension: the data, kept once the zone took it
};

}  // namespace ssdtlm
