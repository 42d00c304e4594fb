#include "workload/apps/gcc_app.h"

#include <algorithm>
#include <stdexcept>

#include "flash/geometry.h"

namespace ssdtlm {

namespace {
constexpr uint32_t kPerDir = 25;         // sources per directory
constexpr uint32_t kExportedPercent = 15;
// Manual hints: per program.
constexpr uint16_t kHintCc1 = 1, kHintObj = 2, kHintFixdep = 3, kHintLd = 4, kHintTools = 5, kHintSrc = 6;
}  // namespace

GccApp::GccApp(AppIo& io, const AppParams& p, uint64_t seed)
    : io_(io), p_(p), rng_(seed ^ 0x6CCull), lanes_(std::max<uint32_t>(1, p.gcc_jobs)) {
  if (p.gcc_pcs < kFixedPcs + 2)
    throw std::invalid_argument("gcc needs at least " + std::to_string(kFixedPcs + 2) + " PCs (workload.app.gcc_pcs)");
  const uint32_t extra = p.gcc_pcs - kFixedPcs;
  cc1_v_ = (extra + 1) / 2;
  as_v_ = extra / 2;
  slot0_ = io.new_slots(uint16_t(lanes_.size()));
  const uint64_t mean = std::max<uint64_t>(1, (p.gcc_source_bytes + kUnitBytes - 1) / kUnitBytes);
  const uint64_t layout_before = io.layout_units();
  const uint32_t checkout = io.new_proc();
  const WriteOrigin co{kGccPc + Checkout, kHintSrc, checkout, slot0_};
  for (uint32_t h = 0; h < std::max<uint32_t>(1, p.gcc_sources / 3); ++h) headers_.push_back(io_.layout_file(2, co));
  src_.resize(std::max<uint32_t>(1, p.gcc_sources));
  dirs_.resize((src_.size() + kPerDir - 1) / kPerDir);
  for (size_t d = 0; d < dirs_.size(); ++d) dirs_[d].module = d % 3 == 2;
  uint64_t objs = 0;
  for (uint32_t i = 0; i < src_.size(); ++i) {
    Source& s = src_[i];
    s.units = 1 + rng_.below(2 * mean - 1 > 0 ? 2 * mean - 1 : 1);
    s.exported = (i * 2654435761u) % 100 < kExportedPercent;
    s.src = io_.layout_file(s.units, co);
    dirs_[i / kPerDir].obj_units += 2 * s.units;
    if (!dirs_[i / kPerDir].module) builtin_units_ += 2 * s.units;
    objs += 2 * s.units;
  }
  // at most: sources, objects, .cmd, archives and modules, the link's outputs (vmlinux and two temporaries,
  // System.map, images), and the temporaries of gcc_jobs compiles
  const uint64_t v = std::max<uint64_t>(1, builtin_units_ * 6 / 10);
  footprint_ = io.layout_units() - layout_before + objs + 2 * src_.size() + 4 * dirs_.size() + objs + 4 * v + 64 +
               lanes_.size() * 8 * mean;
}

bool GccApp::is_temp(FileId f) const { return f < temp_.size() && temp_[f]; }

FileId GccApp::write_parts(uint64_t units, uint32_t first_pc, uint32_t variants, uint16_t hint, uint32_t proc, size_t lane) {
  const FileId f = io_.fs.create();
  io_.fs.append(f, units);
  for (uint32_t v = 0; v < variants; ++v) {
    const uint64_t a = units * v / variants, b = units * (v + 1) / variants;
    if (b > a) io_.write(f, a, b - a, origin(first_pc + v, hint, proc, lane));
  }
  return f;
}

FileId GccApp::temp(uint64_t units, uint32_t pc, uint16_t hint, uint32_t proc, size_t lane) {
  const FileId f = io_.create_written(units, origin(pc, hint, proc, lane));
  if (temp_.size() <= f) temp_.resize(f + 1, false);
  temp_[f] = true;
  ++stats_.temps_created;
  return f;
}

void GccApp::drop_temp(FileId f, uint32_t proc, size_t lane) {
  temp_[f] = false;
  ++stats_.temps_deleted;
  io_.remove(f, origin(0, 0, proc, lane));
}

void GccApp::replace(FileId& f, uint64_t units, uint32_t pc, uint16_t hint, uint32_t proc, size_t lane) {
  if (f) io_.remove(f, origin(0, 0, proc, lane));
  f = io_.create_written(units, origin(pc, hint, proc, lane));
}

void GccApp::start_build() {
  if (stats_.builds_done > 0) io_.idle_before_next(p_.gcc_gap_ns);  // the developer's pause before a rebuild
  const uint32_t conf = proc();
  replace(outs_[Autoconf], 2, Conf, kHintTools, conf, 0);
  replace(outs_[Autoconfh], 2, Conf, kHintTools, conf, 0);
  todo_.clear();
  next_todo_ = 0;
  if (stats_.builds_done == 0) {  // the clean tree: everything
    for (uint32_t i = 0; i < src_.size(); ++i) todo_.push_back(i);
  } else {
    edit_sources();
  }
  for (auto& d : dirs_) d.dirty = false;
  for (uint32_t i : todo_) dirs_[i / kPerDir].dirty = true;
  stats_.temps_created_build = stats_.temps_created;
  stats_.temps_deleted_build = stats_.temps_deleted;
}

void GccApp::edit_sources() {
  // a random gcc_modify_fraction of the sources (partial Fisher-Yates), rewritten by one script process
  const uint32_t n = uint32_t(p_.gcc_modify_fraction * double(src_.size()) + 0.5);
  std::vector<uint32_t> idx(src_.size());
  for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = i;
  for (uint32_t k = 0; k < n && k < idx.size(); ++k) std::swap(idx[k], idx[k + rng_.below(idx.size() - k)]);
  todo_.assign(idx.begin(), idx.begin() + std::min<size_t>(n, idx.size()));
  std::sort(todo_.begin(), todo_.end());  // make walks the tree in order
  const uint32_t script = proc();
  for (uint32_t i : todo_) {
    replace(src_[i].src, src_[i].units, Edit, kHintSrc, script, 0);
    ++stats_.sources_rewritten;
  }
}

void GccApp::push_compile(size_t lane, uint32_t i) {
  struct Tmp {
    FileId s = 0, d = 0;
  };
  auto t = std::make_shared<Tmp>();
  const uint32_t driver = proc();
  lanes_.push(lane, [this, lane, i, t] {  // cc1
    const uint32_t cc1 = proc();
    Source& s = src_[i];
    io_.read(s.src, 0, s.units, origin(0, 0, cc1, lane));
    t->s = write_parts(3 * s.units, cc1_pc(0), cc1_v_, kHintCc1, cc1, lane);
    if (temp_.size() <= t->s) temp_.resize(t->s + 1, false);
    temp_[t->s] = true;
    ++stats_.temps_created;
    t->d = temp(1, Cc1Dep, kHintCc1, cc1, lane);
    ++stats_.compiles;
  });
  lanes_.push(lane, [this, lane, i, t, driver] {  // as, then the driver deletes the .s
    const uint32_t as = proc();
    Source& s = src_[i];
    io_.read(t->s, 0, 3 * s.units, origin(0, 0, as, lane));
    if (s.obj) {
      io_.remove(s.obj, origin(0, 0, as, lane));
      ++stats_.objects_replaced;
    }
    s.obj = write_parts(2 * s.units, as_pc(0), as_v_, kHintObj, as, lane);
    drop_temp(t->s, driver, lane);
  });
  lanes_.push(lane, [this, lane, i] {  // objtool
    const uint32_t ot = proc();
    Source& s = src_[i];
    const uint64_t n = std::max<uint64_t>(1, s.units / 2);
    io_.write(s.obj, 2 * s.units - n, n, origin(Objtool, kHintObj, ot, lane));
  });
  if (src_[i].exported)
    lanes_.push(lane, [this, lane, i] {  // genksyms, then ld -r -T .ver rewrites the .o
      const uint32_t gk = proc();
      const FileId ver = temp(1, Genksyms, kHintTools, gk, lane);
      const uint32_t ld = proc();
      Source& s = src_[i];
      io_.read(s.obj, 0, 2 * s.units, origin(0, 0, ld, lane));
      replace(s.obj, 2 * s.units, Ld, kHintLd, ld, lane);
      drop_temp(ver, ld, lane);
    });
  lanes_.push(lane, [this, lane, i, t] {  // fixdep
    const uint32_t fd = proc();
    io_.read(t->d, 0, 1, origin(0, 0, fd, lane));
    const FileId tmp = io_.create_written(2, origin(Fixdep, kHintFixdep, fd, lane));
    drop_temp(t->d, fd, lane);
    Source& s = src_[i];
    if (s.cmd) io_.remove(s.cmd, origin(0, 0, fd, lane));  // mv -f .tmp .cmd
    s.cmd = tmp;
  });
}

void GccApp::compile_small(FileId* obj, uint64_t units, size_t lane) {
  const uint32_t cc1 = proc();
  const FileId s = write_parts(units, cc1_pc(0), cc1_v_, kHintCc1, cc1, lane);
  if (temp_.size() <= s) temp_.resize(s + 1, false);
  temp_[s] = true;
  ++stats_.temps_created;
  const uint32_t as = proc();
  if (*obj) io_.remove(*obj, origin(0, 0, as, lane));
  *obj = write_parts(std::max<uint64_t>(1, units / 2), as_pc(0), as_v_, kHintObj, as, lane);
  drop_temp(s, as, lane);
}

void GccApp::push_dir_steps() {
  size_t lane = 0;
  for (size_t d = 0; d < dirs_.size(); ++d) {
    if (!dirs_[d].dirty) continue;
    lanes_.push(lane, [this, d, lane] {
      const uint32_t ar = proc();
      replace(dirs_[d].builtin, 1 + dirs_[d].obj_units / 64, Ar, kHintObj, ar, lane);
      const uint32_t sh = proc();
      replace(dirs_[d].order, 1, Shell, kHintTools, sh, lane);
    });
    lane = (lane + 1) % lanes_.size();
  }
}

void GccApp::push_modules() {
  lanes_.push(0, [this] {
    const uint32_t mp = proc();
    replace(outs_[Symvers], 4, ModpostSymvers, kHintTools, mp, 0);
    for (auto& d : dirs_)
      if (d.module && d.dirty) replace(d.modc, 1, ModpostModc, kHintTools, mp, 0);
  });
  size_t lane = 0;
  for (size_t d = 0; d < dirs_.size(); ++d) {
    if (!dirs_[d].module || !dirs_[d].dirty) continue;
    lanes_.push(lane, [this, d, lane] {
      compile_small(&dirs_[d].modo, 4, lane);
      const uint32_t ld = proc();
      replace(dirs_[d].ko, dirs_[d].obj_units, Ld, kHintLd, ld, lane);
    });
    lane = (lane + 1) % lanes_.size();
  }
}

void GccApp::push_link() {
  const uint64_t v = std::max<uint64_t>(1, builtin_units_ * 6 / 10);
  auto link = std::make_shared<std::vector<FileId>>();  // temporaries of the link
  lanes_.push(0, [this] {
    const uint32_t sh = proc();
    replace(outs_[Version], 1, Shell, kHintTools, sh, 0);
    replace(outs_[CompileH], 1, Shell, kHintTools, sh, 0);
  });
  for (int pass = 0; pass < 2; ++pass)
    lanes_.push(0, [this, v, link] {
      const uint32_t ld = proc();
      link->push_back(temp(v, Ld, kHintLd, ld, 0));  // .tmp_vmlinuxN
      const uint32_t ks = proc();
      link->push_back(temp(std::max<uint64_t>(1, v / 50), Kallsyms, kHintTools, ks, 0));
      FileId o = 0;
      compile_small(&o, std::max<uint64_t>(2, v / 50), 0);
      if (temp_.size() <= o) temp_.resize(o + 1, false);
      temp_[o] = true;
      ++stats_.temps_created;
      link->push_back(o);
    });
  lanes_.push(0, [this, v, link] {
    const uint32_t ld = proc();
    replace(outs_[Vmlinux], v, Ld, kHintLd, ld, 0);
    const uint32_t so = proc();
    replace(outs_[SystemMap], std::max<uint64_t>(1, v / 40), Sort, kHintTools, so, 0);
    const uint32_t sh = proc();
    for (FileId f : *link) drop_temp(f, sh, 0);
  });
  lanes_.push(0, [this, v] {
    const uint64_t bin = std::max<uint64_t>(1, v / 2), gz = std::max<uint64_t>(1, bin / 4);
    replace(outs_[VmlinuxBin], bin, Objcopy, kHintTools, proc(), 0);
    replace(outs_[VmlinuxGz], gz, Gzip, kHintTools, proc(), 0);
    replace(outs_[PiggyS], 1, Mkpiggy, kHintTools, proc(), 0);
    compile_small(&outs_[PiggyO], 2 * gz, 0);
    replace(outs_[CompVmlinux], gz + 8, Ld, kHintLd, proc(), 0);
    replace(outs_[BzImage], gz + 4, BuildImage, kHintTools, proc(), 0);
  });
}

void GccApp::finish_build() {
  ++stats_.builds_done;
  stats_.temps_created_build = stats_.temps_created - stats_.temps_created_build;
  stats_.temps_deleted_build = stats_.temps_deleted - stats_.temps_deleted_build;
}

bool GccApp::step() {
  for (;;) {
    if (phase_ == 1)  // feed idle lanes with compiles
      for (size_t l = 0; l < lanes_.size() && next_todo_ < todo_.size(); ++l)
        if (lanes_.idle(l)) push_compile(l, todo_[next_todo_++]);
    if (lanes_.run_one(io_)) return true;
    switch (phase_) {  // every lane idle: the next phase
      case 0:
        if (!warming_ && stats_.builds_done - first_build_ >= p_.gcc_builds) return false;
        start_build();
        phase_ = 1;
        return true;
      case 1: push_dir_steps(); phase_ = 2; break;
      case 2: push_modules(); phase_ = 3; break;
      case 3: push_link(); phase_ = 4; break;
      default: finish_build(); phase_ = 0; return true;
    }
  }
}

std::unique_ptr<AppModel> make_gcc_app(AppIo& io, const AppParams& p, uint64_t seed) {
  return std::make_unique<GccApp>(io, p, seed);
}

}  // namespace ssdtlm
