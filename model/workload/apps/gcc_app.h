// gcc: a Linux kernel build repeated gcc_builds times (make -j gcc_jobs), a gcc_modify_fraction of the
// sources, chosen at random, modified before every build after the first (the first builds the clean tree),
// on the file layer. docs/reference/apps.md has the parameters, their defaults and why.
//
// Tree: gcc_sources .c files (sizes uniform in 1 .. 2 x gcc_source_bytes - 1 unit), sources/3 headers (8 KiB,
// never modified), 25 sources per directory, every third directory a module. Initial layout (the precondition
// writes it): the checked-out sources and headers.
// Each build, in order (every build after the first preceded by an idle gap of gcc_gap_ns: IoRequest::idle_ns):
//   conf rewrites include/config/auto.conf and autoconf.h; a script rewrites the chosen sources (a new file,
//   the old one deleted: sed -i);
//   every modified source is compiled in one of the gcc_jobs lanes (proc_slot), by short-lived processes,
//   each a new proc: cc1 reads the source and writes /tmp/cc*.s (3 x the source) and the .d dependency file;
//   as truncates the old .o (trim) and writes the new one (2 x the source); the driver deletes the .s;
//   objtool rewrites the last quarter of the .o; for the 15% of sources that export symbols genksyms writes a
//   .ver script and ld -r rewrites the .o with it (the .ver is deleted); fixdep reads the .d, writes the new
//   .cmd (2 units, replacing the old one) and deletes the .d;
//   every directory with a recompiled object: ar writes a new thin built-in.a, the shell a new modules.order;
//   modpost rewrites Module.symvers and, per changed module, its .mod.c, which cc1/as compile to .mod.o; ld
//   links the .ko (the size of the directory's objects);
//   the link, serial: .version and compile.h, ld -> .tmp_vmlinux1 (0.6 x the built-in objects), kallsyms ->
//   .tmp_kallsyms1.S, cc1/as -> its .o, the same again (.tmp_vmlinux2), ld -> vmlinux, sort -> System.map,
//   the temporaries deleted, objcopy -> vmlinux.bin (1/2 vmlinux), gzip -> vmlinux.bin.gz (1/4 of that),
//   mkpiggy -> piggy.S, cc1/as -> piggy.o, ld -> compressed/vmlinux, build -> bzImage.
// Every output that exists from the previous build is deleted (trimmed) before its replacement is written.
// PCs: one per program and output (18: checkout, the edit script, conf, cc1's .d, objtool, fixdep, ar, modpost
// .mod.c and Module.symvers, ld, kallsyms, shell redirects, sort, objcopy, gzip, mkpiggy, build, genksyms),
// plus gcc_pcs - 18 code paths of the two big writers: cc1 writes the .s through several emitters (text,
// data, debug info: the file is written in that many consecutive parts) and as its .o through several section
// writers. Default 24: 3 + 3. Manual hints, by program as a developer would annotate each tool: cc1 1
// (temporaries), as/objtool/ar 2 (objects), fixdep 3, ld 4, the other build tools 5, sources 6.
#pragma once
#include <algorithm>
#include <memory>
#include <vector>

#include "workload/apps/app_model.h"

namespace ssdtlm {

struct GccStats {
  uint64_t builds_done = 0, compiles = 0, procs = 0;
  uint64_t temps_created = 0, temps_deleted = 0, objects_replaced = 0, sources_rewritten = 0;
  uint64_t temps_created_build = 0, temps_deleted_build = 0;  // of the last finished build
};

class GccApp : public AppModel {
 public:
  enum Pc : uint32_t {
    Checkout = 1, Edit, Conf, Cc1Dep, Objtool, Fixdep, Ar, ModpostModc, ModpostSymvers, Ld, Kallsyms, Shell, Sort,
    Objcopy, Gzip, Mkpiggy, BuildImage, Genksyms, kFixedPcs = Genksyms  // then the cc1 and as variants
  };

  GccApp(AppIo& io, const AppParams& p, uint64_t seed);
  const char* name() const override { return "gcc"; }
  bool step() override;
  WorkProgress progress() const override { return {stats_.builds_done - first_build_, p_.gcc_builds, "builds"}; }
  void start_warmup() override { warming_ = true; }
  bool between_runs() const override { return phase_ == 0 && stats_.builds_done > 0; }
  void start_measuring() override {
    warming_ = false;
    first_build_ = stats_.builds_done;
  }
  uint64_t measured_builds() const { return stats_.builds_done - first_build_; }
  uint64_t footprint_units() const override { return footprint_; }

  const GccStats& stats() const { return stats_; }
  uint32_t cc1_variants() const { return cc1_v_; }
  uint32_t as_variants() const { return as_v_; }
  bool is_temp(FileId f) const;

 private:
  struct Source {
    FileId src = 0, obj = 0, cmd = 0;
    uint64_t units = 0;
    bool exported = false;
  };
  struct Dir {
    FileId builtin = 0, order = 0, modc = 0, modo = 0, ko = 0;
    bool module = false, dirty = false;
    uint64_t obj_units = 0;
  };
  enum Out { Autoconf, Autoconfh, Symvers, Version, CompileH, Vmlinux, SystemMap, VmlinuxBin, VmlinuxGz, PiggyS, PiggyO,
             CompVmlinux, BzImage, kOuts };
  void start_build();
  void edit_sources();
  void push_compile(size_t lane, uint32_t i);
  void push_dir_steps();
  void push_modules();
  void push_link();
  void finish_build();
  WriteOrigin origin(uint32_t pc, uint16_t hint, uint32_t proc, size_t lane) const {
    return {kGccPc + pc, hint, proc, uint16_t(slot0_ + lane), uint16_t(std::min<uint64_t>(stats_.builds_done + 1, 0xFFFF))};
  }
  uint32_t proc() { ++stats_.procs; return io_.new_proc(); }
  // writes a new file of `units` through `variants` PCs from first_pc (consecutive parts)
  FileId write_parts(uint64_t units, uint32_t first_pc, uint32_t variants, uint16_t hint, uint32_t proc, size_t lane);
  FileId temp(uint64_t units, uint32_t pc, uint16_t hint, uint32_t proc, size_t lane);
  void drop_temp(FileId f, uint32_t proc, size_t lane);
  void replace(FileId& f, uint64_t units, uint32_t pc, uint16_t hint, uint32_t proc, size_t lane);
  uint32_t cc1_pc(uint32_t v) const { return kFixedPcs + 1 + v; }
  uint32_t as_pc(uint32_t v) const { return kFixedPcs + 1 + cc1_v_ + v; }
  // cc1 + as of a small generated assembly/C file into *obj (replaced), in `lane`.
  void compile_small(FileId* obj, uint64_t units, size_t lane);

  AppIo& io_;
  AppParams p_;
  Rng rng_;
  uint32_t cc1_v_ = 1, as_v_ = 1;
  uint16_t slot0_ = 0;
  std::vector<Source> src_;
  std::vector<Dir> dirs_;
  std::vector<FileId> headers_;
  std::vector<FileId> outs_ = std::vector<FileId>(kOuts, 0);
  std::vector<uint32_t> todo_;  // sources to compile this build
  size_t next_todo_ = 0;
  int phase_ = 0;               // 0 start, 1 compile, 2 dirs, 3 modules, 4 link, 5 done
  uint64_t builtin_units_ = 0;
  uint64_t footprint_ = 0;
  std::vector<bool> temp_;      // by file id: a temporary alive
  Lanes lanes_;
  GccStats stats_;
  bool warming_ = false;      // in the warm-up: builds go on whatever gcc_builds says
  uint64_t first_build_ = 0;  // builds done before the measured run (the warm-up's)
};

}  // namespace ssdtlm
