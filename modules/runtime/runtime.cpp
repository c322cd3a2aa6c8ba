#include "runtime/runtime.h"

#include "core/log/hex.h"

#include <filesystem>
#include <sstream>

#include "isa/ptx_parser.h"
#include "runtime/functional_backend.h"

namespace gputlm::runtime {
namespace {


}  // namespace

Runtime::Runtime(std::unique_ptr<ExecutionBackend> backend)
    : memory_(std::make_unique<isa::DeviceMemory>()), backend_(std::move(backend)) {
  if (!backend_) backend_ = std::make_unique<FunctionalBackend>();
}

Runtime::~Runtime() = default;

ModuleId Runtime::load_module(const std::string& ptx_path) {
  Loaded l;
  std::string res = isa::resources_path_for(ptx_path);
  std::error_code ec;
  if (std::filesystem::is_regular_file(res, ec)) l.resources = isa::load_resources(res);
  l.module = std::make_unique<isa::LoadedModule>(isa::parse_ptx_file(ptx_path), *memory_);
  modules_.push_back(std::move(l));
  return modules_.size() - 1;
}

ModuleId Runtime::load_module_text(const std::string& ptx_text, const std::string& name) {
  Loaded l;
  l.module = std::make_unique<isa::LoadedModule>(isa::parse_ptx_string(ptx_text, name), *memory_);
  modules_.push_back(std::move(l));
  return modules_.size() - 1;
}

const isa::LoadedModule& Runtime::module(ModuleId id) const {
  if (id >= modules_.size()) throw RuntimeError("no module with id " + std::to_string(id));
  return *modules_[id].module;
}

const isa::ResourceTable& Runtime::resources(ModuleId id) const {
  module(id);
  return modules_[id].resources;
}

DevicePtr Runtime::malloc(uint64_t bytes) {
  if (bytes == 0) throw RuntimeError("malloc of 0 bytes");
  return DevicePtr{memory_->allocator.allocate(bytes)};
}

void Runtime::free(DevicePtr ptr) {
  synchronize();  // a running kernel may still use it
  uint64_t start = 0, bytes = 0;
  if (!memory_->allocator.find(ptr.addr, &start, &bytes) || start != ptr.addr)
    throw RuntimeError("free of " + hex(ptr.addr) + ", which is not the start of an allocation");
  memory_->allocator.release(ptr.addr);
}

void Runtime::check_range(uint64_t addr, uint64_t bytes, const char* what) const {
  uint64_t start = 0, size = 0;
  if (!memory_->allocator.find(addr, &start, &size))
    throw RuntimeError(std::string(what) + ": address " + hex(addr) + " is not in any allocation");
  if (addr + bytes > start + size)
    throw RuntimeError(std::string(what) + ": " + std::to_string(bytes) + " bytes at " + hex(addr) +
                       " run past the end of the allocation [" + hex(start) + ", " +
                       hex(start + size) + ")");
}

void Runtime::memcpy_to_device(DevicePtr dst, const void* src, uint64_t bytes) {
  if (bytes == 0) return;
  synchronize();
  write_device(dst, src, bytes);
}

void Runtime::write_device(DevicePtr dst, const void* src, uint64_t bytes) {
  check_range(dst.addr, bytes, "memcpy_to_device");
  memory_->store.write(dst.addr, src, bytes);
}

void Runtime::memcpy_to_host(void* dst, DevicePtr src, uint64_t bytes) {
  if (bytes == 0) return;
  synchronize();
  check_range(src.addr, bytes, "memcpy_to_host");
  memory_->store.read(src.addr, dst, bytes);
}

void Runtime::memcpy_device_to_device(DevicePtr dst, DevicePtr src, uint64_t bytes) {
  if (bytes == 0) return;
  synchronize();
  check_range(src.addr, bytes, "memcpy_device_to_device (source)");
  check_range(dst.addr, bytes, "memcpy_device_to_device (destination)");
  std::vector<uint8_t> tmp(bytes);
  memory_->store.read(src.addr, tmp.data(), bytes);
  memory_->store.write(dst.addr, tmp.data(), bytes);
}

void Runtime::memset(DevicePtr dst, uint8_t value, uint64_t bytes) {
  if (bytes == 0) return;
  synchronize();
  check_range(dst.addr, bytes, "memset");
  memory_->store.fill(dst.addr, value, bytes);
}

DevicePtr Runtime::symbol_address(ModuleId id, const std::string& name) const {
  return DevicePtr{module(id).global_symbol_address(name)};
}

void Runtime::copy_to_symbol(ModuleId id, const std::string& name, const void* src, uint64_t bytes,
                             uint64_t offset) {
  synchronize();
  module(id);
  modules_[id].module->write_symbol(name, offset, src, bytes);
}

void Runtime::copy_from_symbol(ModuleId id, const std::string& name, void* dst, uint64_t bytes,
                               uint64_t offset) {
  synchronize();
  module(id).read_symbol(name, offset, dst, bytes);
}

std::size_t Runtime::launch(ModuleId id, const std::string& kernel, Dim3 grid, Dim3 block,
                            uint32_t dynamic_shared_bytes, const std::vector<KernelArg>& args,
                            const LaunchOverrides& overrides) {
  const isa::LoadedModule& lm = module(id);
  LaunchRequest req;
  req.module = &lm;
  req.params = isa::make_launch(lm, kernel, grid, block, dynamic_shared_bytes);
  const isa::Function& k = lm.module().functions.at(req.params.kernel);
  req.params.params = pack_kernel_params(k, args);
  if (const KernelResources* r = modules_[id].resources.find(k.name)) req.resources = *r;
  if (overrides.registers || overrides.shared_static_bytes) {
    KernelResources r = req.resources.value_or(KernelResources{});
    if (overrides.registers) r.registers = *overrides.registers;
    if (overrides.shared_static_bytes) r.shared_bytes = *overrides.shared_static_bytes;
    req.resources = r;
  }
  req.stream = overrides.stream;
  req.label = overrides.label.empty() ? "launch " + std::to_string(launches_) : overrides.label;
  backend_->launch(req);
  ++pending_per_stream_[req.stream];
  return launches_++;
}

void Runtime::take_results(std::vector<LaunchResult> done) {
  for (LaunchResult& r : done) {
    auto it = pending_per_stream_.find(r.stream);
    if (it != pending_per_stream_.end() && --it->second == 0) pending_per_stream_.erase(it);
    results_.push_back(std::move(r));
  }
}

void Runtime::synchronize() {
  take_results(backend_->synchronize());
}

void Runtime::synchronize_stream(uint32_t stream) {
  if (pending_per_stream_.count(stream)) take_results(backend_->synchronize_stream(stream));
}

std::vector<uint32_t> Runtime::synchronize_any_stream() {
  std::vector<uint32_t> before;
  for (const auto& [stream, n] : pending_per_stream_) before.push_back(stream);
  if (before.empty()) return {};
  take_results(backend_->synchronize_stream(std::nullopt));
  std::vector<uint32_t> drained;
  for (uint32_t s : before)
    if (!pending_per_stream_.count(s)) drained.push_back(s);
  return drained;
}

void Runtime::memcpy_to_device_on_stream(DevicePtr dst, const void* src, uint64_t bytes, uint32_t stream) {
  if (bytes == 0) return;
  synchronize_stream(stream);
  write_device(dst, src, bytes);
}

}  // namespace gputlm::runtime
