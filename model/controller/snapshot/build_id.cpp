#include "controller/snapshot/build_id.h"

#include <elf.h>
#include <link.h>

#include <cstdio>
#include <cstring>

#include "common/input_file.h"

namespace ssdtlm {

namespace {

// The NT_GNU_BUILD_ID note of the main program (the first object dl_iterate_phdr reports).
int find_note(struct dl_phdr_info* info, size_t, void* data) {
  std::string& out = *static_cast<std::string*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    const char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr)* n = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const char* name = p + sizeof(ElfW(Nhdr));
      const char* desc = name + ((n->n_namesz + 3) & ~3u);
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        char hex[3];
        out = "gnu:";
        for (uint32_t k = 0; k < n->n_descsz; ++k) {
          std::snprintf(hex, sizeof hex, "%02x", unsigned(static_cast<unsigned char>(desc[k])));
          out += hex;
        }
        return 1;
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return 1;  // only the main program
}


}  // namespace

const std::string& snapshot_build_id() {
  static const std::string id = [] {
    std::string s;
    dl_iterate_phdr(find_note, &s);
    return s.empty() ? file_digest("/proc/self/exe", "unknown") : s;
  }();
  return id;
}

}  // namespace ssdtlm
