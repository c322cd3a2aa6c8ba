// Inter-warp locality: hotspot-like 2D thermal step. A 16x16 tile plus halo is staged in
// shared memory, so neighbouring CTAs re-read each other's edge rows.
#define TILE 16
__global__ void hotspot_step(int cols, int rows, float cap, float rx, float ry, float rz,
                             float amb, const float* __restrict__ power,
                             const float* __restrict__ temp, float* __restrict__ out) {
  __shared__ float t[TILE + 2][TILE + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  int cx = min(x, cols - 1), cy = min(y, rows - 1);
  t[ty + 1][tx + 1] = temp[cy * cols + cx];
  if (tx == 0) t[ty + 1][0] = temp[cy * cols + max(cx - 1, 0)];
  if (tx == TILE - 1) t[ty + 1][TILE + 1] = temp[cy * cols + min(cx + 1, cols - 1)];
  if (ty == 0) t[0][tx + 1] = temp[max(cy - 1, 0) * cols + cx];
  if (ty == TILE - 1) t[TILE + 1][tx + 1] = temp[min(cy + 1, rows - 1) * cols + cx];
  __syncthreads();
  if (x >= cols || y >= rows) return;
  float c = t[ty + 1][tx + 1];
  float d = power[y * cols + x] + (t[ty + 1][tx] + t[ty + 1][tx + 2] - 2.f * c) * rx +
            (t[ty][tx + 1] + t[ty + 2][tx + 1] - 2.f * c) * ry + (amb - c) * rz;
  out[y * cols + x] = c + cap * d;
}
