#include "runtime/spec_runner.h"

#include <new>
#include <sstream>

#include "isa/exec/device_memory.h"

namespace gputlm::runtime {

std::string OutputReport::message() const {
  if (!checked) return "not checked";
  std::ostringstream os;
  if (compare.ok()) {
    os << "ok (" << compare.count << " elements";
    if (elem_is_float(type) || rtol > 0 || atol > 0) os << ", max abs error " << compare.max_abs_error;
    os << ")";
    return os.str();
  }
  os << "MISMATCH in buffer '" << buffer << "': " << compare.mismatches << " of " << compare.count
     << " elements differ; first at index " << compare.first_bad << ": expected "
     << compare.expected_value << ", actual " << compare.actual_value;
  if (elem_is_float(type) || rtol > 0 || atol > 0) os << " (rtol " << rtol << ", atol " << atol << ")";
  return os.str();
}

bool SpecReport::ok() const {
  for (const auto& o : outputs)
    if (o.checked && !o.compare.ok()) return false;
  return true;
}

ModuleId load_spec_module(const LaunchSpec& spec, Runtime& rt) {
  try {
    return rt.load_module(spec.ptx);
  } catch (const SpecError&) {
    throw;
  } catch (const std::exception& e) {
    throw spec.error("ptx", e.what());
  }
}

std::map<std::string, DevicePtr> allocate_spec_buffers(const LaunchSpec& spec, Runtime& rt,
                                                       std::optional<uint32_t> stream) {
  std::map<std::string, DevicePtr> device;
  for (const BufferSpec& b : spec.buffers) {
    try {
      std::vector<uint8_t> bytes = initial_bytes(spec, b);
      DevicePtr p = rt.malloc(bytes.size());
      if (stream) rt.memcpy_to_device_on_stream(p, bytes.data(), bytes.size(), *stream);
      else rt.memcpy_to_device(p, bytes.data(), bytes.size());
      device[b.name] = p;
    } catch (const std::bad_alloc&) {  // the spec may ask for up to 1 TiB per buffer
      throw spec.error(b.key_path, std::to_string(b.count * elem_bytes(b.type)) +
                                       " bytes: out of host memory (the host cannot hold this buffer)");
    }
  }
  return device;
}

void init_spec_symbols(const LaunchSpec& spec, Runtime& rt, ModuleId m) {
  const isa::Module& mod = rt.module(m).module();
  for (const BufferSpec& s : spec.symbols) {
    uint32_t idx = mod.find_symbol(s.name);
    if (idx == isa::kNone) throw spec.error(s.key_path, "the module has no symbol '" + s.name + "'");
    const isa::Symbol& sym = mod.symbols[idx];
    if (sym.kind != isa::SymbolKind::Const && sym.kind != isa::SymbolKind::Global)
      throw spec.error(s.key_path, "symbol '" + s.name + "' is a " + isa::symbol_kind_name(sym.kind) +
                                       " symbol, not a __constant__ or __device__ variable");
    std::vector<uint8_t> bytes = initial_bytes(spec, s);
    if (bytes.size() > sym.size)
      throw spec.error(s.key_path, std::to_string(bytes.size()) + " bytes do not fit symbol '" + s.name +
                                       "' of " + std::to_string(sym.size) + " bytes");
    rt.copy_to_symbol(m, s.name, bytes.data(), bytes.size());
  }
}

void issue_spec_launches(const LaunchSpec& spec, Runtime& rt, ModuleId m,
                         const std::map<std::string, DevicePtr>& device, const SpecLaunchPlacement& place) {
  const isa::Module& mod = rt.module(m).module();
  for (const LaunchEntry& l : spec.launches) {
    auto key = [&](const std::string& k) { return l.key_path.empty() ? k : l.key_path + "." + k; };
    uint32_t kidx;
    try {
      kidx = mod.find_kernel_index(l.kernel);
    } catch (const std::exception& e) {
      throw spec.error(key("kernel"), e.what());
    }
    const isa::Function& k = mod.functions[kidx];
    std::vector<KernelArg> args;
    for (const ArgSpec& a : l.args) args.push_back(a.is_buffer ? KernelArg(device.at(a.buffer)) : KernelArg(a.number));
    LaunchOverrides ov;
    ov.registers = l.registers;
    ov.shared_static_bytes = l.shared_static_bytes;
    ov.stream = place.stream ? *place.stream : l.stream;
    ov.label = place.label_prefix + (l.key_path.empty() ? "launch" : l.key_path);
    try {
      rt.launch(m, k.name, Dim3{l.grid[0], l.grid[1], l.grid[2]}, Dim3{l.block[0], l.block[1], l.block[2]},
                l.shared_bytes, args, ov);
    } catch (const ArgError& e) {
      std::string k_args = key("args");
      throw spec.error(e.index() < l.args.size() ? l.args[e.index()].key_path : k_args, e.what());
    } catch (const isa::ExecError& e) {
      throw std::runtime_error(spec.path + ": " + ov.label + " (kernel " + k.name + "): " + e.what());
    }
  }
}

std::vector<OutputReport> check_spec_outputs(const LaunchSpec& spec, Runtime& rt,
                                             const std::map<std::string, DevicePtr>& device,
                                             const std::string& name_prefix, bool write_files) {
  std::vector<OutputReport> out;
  for (const OutputSpec& o : spec.outputs) {
    const BufferSpec& b = *spec.find_buffer(o.buffer);
    std::vector<uint8_t> actual(b.count * elem_bytes(b.type));
    rt.memcpy_to_host(actual.data(), device.at(o.buffer), actual.size());
    OutputReport r;
    r.buffer = name_prefix + o.buffer;
    r.type = b.type;
    if (write_files && !o.file.empty()) {
      write_binary_file(o.file, actual.data(), actual.size());
      r.written_file = o.file;
    }
    if (o.has_expect) {
      std::vector<uint8_t> expected = read_binary_file(o.expect_file);
      if (expected.size() != actual.size())
        throw spec.error(o.key_path + ".expect.file", "file '" + o.expect_file + "' changed size");
      r.checked = true;
      r.rtol = o.rtol;
      r.atol = o.atol;
      r.compare = compare_elements(actual.data(), expected.data(), b.type, b.count, o.rtol, o.atol,
                                   o.tolerance_given);
    }
    out.push_back(std::move(r));
  }
  return out;
}

SpecReport run_launch_spec(const LaunchSpec& spec, Runtime& rt) {
  SpecReport report;
  report.spec_path = spec.path;
  report.backend = rt.backend().name();
  const ModuleId m = load_spec_module(spec, rt);
  report.buffers = allocate_spec_buffers(spec, rt);
  init_spec_symbols(spec, rt, m);
  const std::size_t first_result = rt.results().size();
  issue_spec_launches(spec, rt, m, report.buffers, {});
  rt.synchronize();
  report.launches.assign(rt.results().begin() + static_cast<std::ptrdiff_t>(first_result), rt.results().end());
  report.outputs = check_spec_outputs(spec, rt, report.buffers, "", true);
  return report;
}

}  // namespace gputlm::runtime
