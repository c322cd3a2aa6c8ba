// Irregular and cache-sensitive workloads: bfs, spmv, kmeans.
#include <algorithm>
#include <cmath>
#include <deque>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

struct Csr {
  std::vector<int32_t> row_ptr, cols;
};

// Undirected connected graph: a random recursive tree (vertex v joins a random earlier
// vertex) plus `extra` random edges per vertex; neighbour lists sorted for determinism.
Csr random_graph(uint64_t seed, int n, int extra) {
  SplitMix64 rng(seed);
  std::vector<std::vector<int32_t>> adj(n);
  auto link = [&](int a, int b) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  };
  for (int v = 1; v < n; ++v) link(v, static_cast<int>(rng.uniform_int(0, v - 1)));
  for (int v = 0; v < n; ++v)
    for (int e = 0; e < extra; ++e) {
      int u = static_cast<int>(rng.uniform_int(0, n - 1));
      if (u != v) link(v, u);
    }
  Csr g;
  g.row_ptr.push_back(0);
  for (auto& list : adj) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    g.cols.insert(g.cols.end(), list.begin(), list.end());
    g.row_ptr.push_back(static_cast<int32_t>(g.cols.size()));
  }
  return g;
}

// The specs launch bfs_level this many times (cur = 0 .. kBfsLaunches-1).
constexpr int kBfsLaunches = 16;

void gen_bfs(Size size, const OutDir& out) {
  int n = size == Size::kSmall ? 2048 : (1 << 18);
  Csr g = random_graph(601, n, 1);
  std::vector<int32_t> level(n, -1), changed(kBfsLaunches, 0);
  level[0] = 0;
  out.write("row_ptr.bin", g.row_ptr);
  out.write("cols.bin", g.cols);
  out.write("level_init.bin", level);
  std::deque<int> queue{0};
  while (!queue.empty()) {
    int v = queue.front();
    queue.pop_front();
    for (int e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
      int u = g.cols[e];
      if (level[u] < 0) {
        level[u] = level[v] + 1;
        queue.push_back(u);
      }
    }
  }
  int depth = *std::max_element(level.begin(), level.end());
  if (depth >= kBfsLaunches)
    throw GenerateError("bfs graph depth " + std::to_string(depth) + " needs more than " +
                        std::to_string(kBfsLaunches) + " launches");
  for (int l = 0; l < depth; ++l) changed[l] = 1;
  out.write("level_ref.bin", level);
  out.write("changed_ref.bin", changed);
  std::printf("bfs: %d vertices, %zu edges, depth %d\n", n, g.cols.size(), depth);
}
GPUTLM_WORKLOAD("bfs", "irregular: BFS, one launch per level", gen_bfs);

void gen_spmv(Size size, const OutDir& out) {
  int rows = size == Size::kSmall ? 4096 : (1 << 18);
  int max_row = size == Size::kSmall ? 32 : 48;
  SplitMix64 rng(701);
  std::vector<int32_t> row_ptr{0}, cols;
  std::vector<float> vals;
  for (int r = 0; r < rows; ++r) {
    // Skewed lengths: most rows short, a few long (divergence inside a warp).
    double u = rng.unit();
    int len = 1 + static_cast<int>(u * u * u * max_row);
    for (int k = 0; k < len; ++k) {
      cols.push_back(static_cast<int32_t>(rng.uniform_int(0, rows - 1)));
      vals.push_back(static_cast<float>(rng.uniform(-1, 1)));
    }
    row_ptr.push_back(static_cast<int32_t>(cols.size()));
  }
  auto x = random_f32(702, rows, -1, 1);
  std::vector<float> y(rows);
  for (int r = 0; r < rows; ++r) {
    float sum = 0.f;
    for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e)
      sum = std::fma(vals[e], x[static_cast<std::size_t>(cols[e])], sum);
    y[r] = sum;
  }
  out.write("row_ptr.bin", row_ptr);
  out.write("cols.bin", cols);
  out.write("vals.bin", vals);
  out.write("x.bin", x);
  out.write("y_ref.bin", y);
  std::printf("spmv: %d rows, %zu nonzeros\n", rows, cols.size());
}
GPUTLM_WORKLOAD("spmv", "irregular: CSR sparse matrix-vector product", gen_spmv);

void gen_kmeans(Size size, const OutDir& out) {
  int npoints = size == Size::kSmall ? 4096 : (1 << 18);
  int nfeat = size == Size::kSmall ? 16 : 32;
  int nclusters = size == Size::kSmall ? 8 : 16;
  auto centroids = random_f32(801, nclusters * nfeat, -10, 10);
  SplitMix64 rng(802);
  std::vector<float> points(npoints * nfeat);
  // Points scattered around a random centroid, so the nearest one is well separated.
  for (int p = 0; p < npoints; ++p) {
    int c = static_cast<int>(rng.uniform_int(0, nclusters - 1));
    for (int f = 0; f < nfeat; ++f)
      points[p * nfeat + f] =
          centroids[c * nfeat + f] + static_cast<float>(rng.uniform(-3, 3));
  }
  std::vector<int32_t> membership(npoints);
  for (int p = 0; p < npoints; ++p) {
    int best = 0;
    float best_dist = 3.4e38f;
    for (int c = 0; c < nclusters; ++c) {
      float d = 0.f;
      for (int f = 0; f < nfeat; ++f) {
        float diff = points[p * nfeat + f] - centroids[c * nfeat + f];
        d = std::fma(diff, diff, d);
      }
      if (d < best_dist) {
        best_dist = d;
        best = c;
      }
    }
    membership[p] = best;
  }
  out.write("points.bin", points);
  out.write("centroids.bin", centroids);
  out.write("membership_ref.bin", membership);
}
GPUTLM_WORKLOAD("kmeans", "intra-warp locality, divergent loads: kmeans assignment",
                gen_kmeans);

}  // namespace
}  // namespace gputlm::workloads
