// NVM Express constants the endpoint and the host driver share: controller registers (NVMe Base 1.4 §3.1),
// command opcodes (§5, NVM Command Set §6), status codes (§4.6.1.2, Figures 128-130), features (§5.21.1),
// log pages (§5.14.1) and the layout of submission (64 B, §4.2) and completion (16 B, §4.6) entries.
#pragma once
#include <cstdint>
#include <cstring>

namespace ssdtlm::nvme {

// Controller registers: offsets in BAR0.
enum Reg : uint32_t {
  kCap = 0x00,    // 64-bit: MQES 15:0, CQR 16, AMS 18:17, TO 31:24, DSTRD 35:32, CSS 44:37, MPSMIN 51:48, MPSMAX 55:52
  kVs = 0x08,
  kIntms = 0x0C,
  kIntmc = 0x10,
  kCc = 0x14,     // EN 0, CSS 6:4, MPS 10:7, AMS 13:11, SHN 15:14, IOSQES 19:16, IOCQES 23:20
  kCsts = 0x1C,   // RDY 0, CFS 1, SHST 3:2
  kAqa = 0x24,    // ASQS 11:0, ACQS 27:16 (0's based)
  kAsq = 0x28,
  kAcq = 0x30,
  kDoorbells = 0x1000,  // SQ y tail at 0x1000 + 2y * (4 << DSTRD), CQ y head at 0x1000 + (2y + 1) * (4 << DSTRD)
  kMsixTable = 0x10000,  // MSI-X table (16 B per vector: address low, high, data, vector control) in BAR0
  kBarBytes = 0x20000,
};
constexpr uint32_t kCcEn = 1u << 0;
constexpr uint32_t kCstsRdy = 1u << 0, kCstsCfs = 1u << 1;
constexpr uint32_t kShnNone = 0, kShnNormal = 1, kShnAbrupt = 2;
constexpr uint32_t kShstNormal = 0, kShstOccurring = 1, kShstComplete = 2;
constexpr uint32_t kVersion13 = 0x00010300, kVersion14 = 0x00010400;
// NVMe 2.0 (VS MJR 2, MNR 0): the version a controller with I/O Command Sets (CAP.CSS bit 6, Identify CNS 05h, 06h,
// 1Ch, the I/O Command Set Profile feature) reports; an NVM-only endpoint stays at 1.4.
constexpr uint32_t kVersion20 = 0x00020000;

// Admin opcodes.
enum AdminOp : uint8_t {
  kDeleteSq = 0x00, kCreateSq = 0x01, kGetLogPage = 0x02, kDeleteCq = 0x04, kCreateCq = 0x05, kIdentify = 0x06,
  kSetFeatures = 0x09, kGetFeatures = 0x0A, kAsyncEvent = 0x0C,
};
// NVM I/O opcodes (and the ZNS Command Set's).
enum IoOpcode : uint8_t {
  kFlush = 0x00, kWrite = 0x01, kRead = 0x02, kWriteZeroes = 0x08, kDsm = 0x09,
  kZoneMgmtSend = 0x79, kZoneMgmtRecv = 0x7A, kZoneAppend = 0x7D,
};
// Feature identifiers.
enum Feature : uint8_t {
  kFeatArbitration = 0x01, kFeatPowerMgmt = 0x02, kFeatVwc = 0x06, kFeatNumQueues = 0x07,
  kFeatIntCoalescing = 0x08, kFeatIntVectorConfig = 0x09, kFeatApst = 0x0C,
  kFeatAsyncEventConfig = 0x0B,
  kFeatIoCommandSetProfile = 0x19,  // I/O Command Set Profile: CDW11 8:0 the combination index (Base 2.0)
};
enum LogPage : uint8_t { kLogError = 0x01, kLogSmart = 0x02, kLogEffects = 0x05, kLogChangedZones = 0xBF };
// Asynchronous events (completion DW0: type 2:0, information 15:8, log page 23:16): the error status type and the
// notice type, whose Zone Descriptor Changed information (EFh, ZNS 1.1; from memory) points at the Changed Zone List.
constexpr uint32_t kAenError = 0, kAenNotice = 2, kAenZoneDescriptorChanged = 0xEF;
constexpr uint32_t kAecZoneDescriptorChanged = 1u << 27;  // Asynchronous Event Configuration bit; OAES bit 27
// Identify CNS values (NVMe Base 2.0 §5.17): 03h the Namespace Identification Descriptor list, 05h and 06h the
// I/O Command Set specific Identify Namespace and Controller of the command set CDW11.CSI (bits 31:24) names.
enum Cns : uint8_t {
  kCnsNamespace = 0x00, kCnsController = 0x01, kCnsActiveNsList = 0x02, kCnsNsDescList = 0x03,
  kCnsIoNamespace = 0x05, kCnsIoController = 0x06,
  kCnsIoCommandSets = 0x1C,  // the I/O Command Set data structure: 512 command set vectors of 8 bytes
};
// Command Set Identifiers (Base 2.0 §5.17, CSI): NVM, Zoned Namespace.
enum Csi : uint8_t { kCsiNvm = 0x00, kCsiZns = 0x02 };
constexpr uint8_t kNidtCsi = 0x04;         // a Namespace Identification Descriptor's type: Command Set Identifier
constexpr uint64_t kCapCssIoSets = 1ull << 43;  // CAP.CSS bit 6: one or more I/O Command Sets (CC.CSS 110b)
constexpr uint32_t kCcCssAll = 6;          // CC.CSS 110b: all supported I/O Command Sets
constexpr uint8_t kZsaSetExtension = 0x10;  // Zone Send Action: Set Zone Descriptor Extension (ZNS 1.1 §3.4.3)
constexpr uint8_t kZraExtendedReport = 0x01;  // Zone Receive Action: Extended Report Zones (ZNS 1.1 §3.4.2)

// Status: (status code type << 8) | status code, as the completion entry's status field bits 11:1 hold them.
enum Status : uint16_t {
  kSuccess = 0x000,
  kInvalidOpcode = 0x001,
  kInvalidField = 0x002,
  kDataTransferError = 0x004,    // a transfer to or from host memory failed (NVMe Base 1.4 Figure 128)
  kCommandSequenceError = 0x00C,
  kInvalidNamespace = 0x00B,
  kPrpOffsetInvalid = 0x013,
  kInvalidSglSegmentDescriptor = 0x00D,  // SGL statuses (NVMe Base 2.0 Figure 101; 1.4 Figure 128)
  kInvalidNumberOfSglDescriptors = 0x00E,
  kDataSglLengthInvalid = 0x00F,
  kSglDescriptorTypeInvalid = 0x011,
  kLbaOutOfRange = 0x080,
  kCqInvalid = 0x100,            // command specific (SCT 1)
  kInvalidQueueId = 0x101,
  kInvalidQueueSize = 0x102,
  kInvalidInterruptVector = 0x108,
  kInvalidLogPage = 0x109,
  kInvalidQueueDeletion = 0x10C,
  kFeatureNotChangeable = 0x10E,
  kAsyncEventLimit = 0x105,
  kIoCommandSetCombinationRejected = 0x12B,  // Set Features I/O Command Set Profile (Base 2.0; QEMU's status too)
};
constexpr uint16_t kDnr = 0x4000;  // Do Not Retry, in the status field (bit 15 of DW3's upper half)

// A submission queue entry, as 16 dwords.
struct Sqe {
  uint32_t dw[16] = {};
  uint8_t opcode() const { return uint8_t(dw[0]); }
  uint8_t psdt() const { return uint8_t((dw[0] >> 14) & 3); }  // 0 = PRPs, else SGLs
  uint16_t cid() const { return uint16_t(dw[0] >> 16); }
  uint32_t nsid() const { return dw[1]; }
  uint64_t prp1() const { return dw[6] | uint64_t(dw[7]) << 32; }
  uint64_t prp2() const { return dw[8] | uint64_t(dw[9]) << 32; }
  uint32_t cdw(int n) const { return dw[n]; }
  void set_prp(uint64_t p1, uint64_t p2) {
    dw[6] = uint32_t(p1), dw[7] = uint32_t(p1 >> 32), dw[8] = uint32_t(p2), dw[9] = uint32_t(p2 >> 32);
  }
};
static_assert(sizeof(Sqe) == 64, "a submission entry is 64 bytes");

// A completion queue entry: DW0 command specific, DW2 SQ head and SQ id, DW3 command id, phase, status.
struct Cqe {
  uint32_t dw[4] = {};
  uint16_t sq_head() const { return uint16_t(dw[2]); }
  uint16_t sq_id() const { return uint16_t(dw[2] >> 16); }
  uint16_t cid() const { return uint16_t(dw[3]); }
  bool phase() const { return (dw[3] >> 16) & 1; }
  uint16_t status() const { return uint16_t(dw[3] >> 17); }  // DNR 14, M 13, CRD 12:11, SCT 10:8, SC 7:0
  uint16_t code() const { return status() & 0x7FF; }          // SCT and SC (Status above)
};
static_assert(sizeof(Cqe) == 16, "a completion entry is 16 bytes");

}  // namespace ssdtlm::nvme
