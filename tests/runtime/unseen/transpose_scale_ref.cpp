// CPU reference of the acceptance kernel (transpose_scale.cu) for spec.json: rebuilds the
// spec's "random" and "iota" inputs exactly as docs/launch-spec.md defines them
// (SplitMix64, value = min + (max - min) * (next() >> 11) * 2^-53, rounded to f32) and
// writes the expected output to OUTDIR/out_ref.bin.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/random/splitmix64.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: transpose_scale_ref OUTDIR\n");
    return 2;
  }
  const int rows = 200, cols = 136;
  const float scale = 1.5f;
  gputlm::SplitMix64 rng(7);
  std::vector<float> in(static_cast<std::size_t>(rows) * cols), bias(cols), out(in.size());
  for (auto& v : in) v = static_cast<float>(rng.uniform(-2, 2));
  for (int x = 0; x < cols; ++x) bias[x] = static_cast<float>(0.5 + x * 0.25);
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      out[static_cast<std::size_t>(x) * rows + y] =
          std::fma(in[static_cast<std::size_t>(y) * cols + x], scale, bias[x]);
  std::string path = std::string(argv[1]) + "/out_ref.bin";
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size() * sizeof(float)));
  if (!f) {
    std::fprintf(stderr, "transpose_scale_ref: cannot write %s\n", path.c_str());
    return 1;
  }
  return 0;
}
