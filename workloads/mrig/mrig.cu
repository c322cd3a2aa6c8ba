// MRI gridding (shaped like Parboil MRI-Gridding): non-Cartesian k-space samples are
// binned by the grid cell they fall in, sorted by bin, and every grid point then sums the
// Kaiser-Bessel-weighted samples within the cutoff radius. Four kernels, one launch each:
//
// mrig_binning (per sample): reads the 24-byte sample, computes its cell and takes a slot
//   in the cell's bin with a global atomicAdd (scattered atomics; memory-bound). Parboil
//   also caps a bin's size and leaves the overflow to the CPU; here bins are unbounded.
// mrig_scan (one CTA of 1024): exclusive prefix sum of the bin counts, 4096 bins per
//   round (four per thread, warp shuffles, then the 32 warp totals), giving each bin's
//   first sorted index (Parboil scans with several CTAs; the grids here are small).
// mrig_reorder (per sample): copies the sample to its bin's start + its slot (scattered
//   24-byte stores; memory-bound). Parboil sorts (bin, index) pairs and gathers instead.
// mrig_gridding (per grid point, CTA tile 8x4x4): as Parboil's gridding_GPU, every thread
//   of the tile walks the same bins (rows of bins around the tile, within the cutoff
//   rounded up), so its sample loads are uniform and hit in L1, and for each valid sample
//   within the cutoff evaluates the kernel (a sqrt, a rational polynomial and a division):
//   compute-bound.
//
// The atomics decide the order of samples within a bin, so it changes with the warp
// interleaving; a float sum would change in its last bits with it. The grid point's sums
// are therefore kept in 16.16 fixed point: each weighted sample is rounded to an integer
// first, and integer addition does not depend on the order.
struct ReconstructionSample {
  float real, imag, kX, kY, kZ, sdc;
};

#define MRIG_CUTOFF2 6.25f            // cutoff radius 2.5 grid units, squared
#define MRIG_ONE_OVER_CUTOFF2 0.16f
#define MRIG_CEIL_CUTOFF 3            // the cutoff rounded up: bins searched below the tile
#define MRIG_CUTOFF_INT 2             // ... and truncated: bins searched above it
#define MRIG_FIXED_ONE 65536.0f
#define MRIG_SCAN_THREADS 1024
#define MRIG_SCAN_BINS (4 * MRIG_SCAN_THREADS)

extern "C" __global__ void mrig_binning(int n, const ReconstructionSample* __restrict__ samples,
                                        unsigned* __restrict__ bin_of, unsigned* __restrict__ slot_of,
                                        unsigned* __restrict__ bin_count, int gx, int gy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ReconstructionSample pt = samples[i];
  unsigned bin = (unsigned)pt.kZ * (unsigned)(gx * gy) + (unsigned)pt.kY * (unsigned)gx + (unsigned)pt.kX;
  slot_of[i] = atomicAdd(&bin_count[bin], 1u);
  bin_of[i] = bin;
}

extern "C" __global__ void mrig_scan(const unsigned* __restrict__ bin_count, unsigned* __restrict__ bin_start,
                                     int nbins) {
  __shared__ unsigned warp_sum[32];
  __shared__ unsigned s_carry;
  int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned carry = 0;  // total of the earlier rounds
  // A round covers MRIG_SCAN_BINS bins, four consecutive ones per thread (nbins is a
  // multiple of 4): the thread sums its four, the CTA scans the sums.
  for (int base = 0; base < nbins; base += MRIG_SCAN_BINS) {
    int first = base + 4 * t;
    uint4 c = first < nbins ? *reinterpret_cast<const uint4*>(bin_count + first) : make_uint4(0, 0, 0, 0);
    unsigned v = c.x + c.y + c.z + c.w;
    unsigned incl = v;
    for (int d = 1; d < 32; d <<= 1) {
      unsigned up = __shfl_up_sync(0xffffffffu, incl, d);
      if (lane >= d) incl += up;
    }
    if (lane == 31) warp_sum[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      unsigned w = warp_sum[lane], wincl = w;
      for (int d = 1; d < 32; d <<= 1) {
        unsigned up = __shfl_up_sync(0xffffffffu, wincl, d);
        if (lane >= d) wincl += up;
      }
      warp_sum[lane] = wincl - w;  // exclusive: the warps before this one
    }
    __syncthreads();
    unsigned excl = carry + warp_sum[warp] + incl - v;
    if (first < nbins)
      *reinterpret_cast<uint4*>(bin_start + first) =
          make_uint4(excl, excl + c.x, excl + c.x + c.y, excl + c.x + c.y + c.z);
    if (t == MRIG_SCAN_THREADS - 1) s_carry = excl + v;  // this round's end
    // Every thread has read warp_sum before the next round's lane 31 overwrites it, and
    // s_carry is not written again before the next round's first barrier.
    __syncthreads();
    carry = s_carry;
  }
  if (t == 0) bin_start[nbins] = carry;
}

extern "C" __global__ void mrig_reorder(int n, const ReconstructionSample* __restrict__ samples,
                                        const unsigned* __restrict__ bin_of,
                                        const unsigned* __restrict__ slot_of,
                                        const unsigned* __restrict__ bin_start,
                                        ReconstructionSample* __restrict__ sorted) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  sorted[bin_start[bin_of[i]] + slot_of[i]] = samples[i];
}

// Parboil's rational approximation of the Kaiser-Bessel window (its shorter constants).
__device__ float mrig_kernel_value(float v) {
  float z = v * v;
  float num = (z * (z * (z * (z * (z * (z * (z * (z * (z * (z * (z * (z * (z * (z *
                0.2105e-22f + 0.3807e-19f) + 0.4799e-16f) + 0.4351e-13f) + 0.3009e-10f) +
                0.1602e-7f) + 0.6548e-5f) + 0.2025e-2f) + 0.4630e0f) + 0.7543e2f) + 0.8307e4f) +
                0.5716e6f) + 0.2164e8f) + 0.3566e9f) + 0.1440e10f);
  float den = (z * (z * (z - 0.307646912682801e4f) + 0.347626332405882e7f) - 0.144e10f);
  return -num / den;
}

extern "C" __global__ void mrig_gridding(const ReconstructionSample* __restrict__ sorted,
                                         const unsigned* __restrict__ bin_start, int* __restrict__ grid,
                                         unsigned* __restrict__ density, int gx, int gy, int gz, float beta) {
  const int z0 = blockDim.z * (blockIdx.y / (gy / blockDim.y));
  const int y0 = blockDim.y * (blockIdx.y % (gy / blockDim.y));
  const int x0 = blockIdx.x * blockDim.x;
  const int X = x0 + threadIdx.x, Y = y0 + threadIdx.y, Z = z0 + threadIdx.z;
  const int xL = max(x0 - MRIG_CEIL_CUTOFF, 0), xH = min(x0 + (int)blockDim.x + MRIG_CUTOFF_INT, gx - 1);
  const int yL = max(y0 - MRIG_CEIL_CUTOFF, 0), yH = min(y0 + (int)blockDim.y + MRIG_CUTOFF_INT, gy - 1);
  const int zL = max(z0 - MRIG_CEIL_CUTOFF, 0), zH = min(z0 + (int)blockDim.z + MRIG_CUTOFF_INT, gz - 1);
  int acc_re = 0, acc_im = 0;
  unsigned count = 0;
  for (int z = zL; z <= zH; ++z) {
    for (int y = yL; y <= yH; ++y) {
      // Bins are cells in raster order, so the bins xL..xH of a row are one sorted range.
      const unsigned* row = bin_start + (z * gy + y) * gx;
      unsigned start = row[xL], end = row[xH + 1];
      for (unsigned s = start; s < end; ++s) {
        float real = sorted[s].real, imag = sorted[s].imag, sdc = sorted[s].sdc;
        if ((real != 0.0f || imag != 0.0f) && sdc != 0.0f) {
          float dx = sorted[s].kX - X, dy = sorted[s].kY - Y, dz = sorted[s].kZ - Z;
          float v = dx * dx + dy * dy + dz * dz;
          if (v < MRIG_CUTOFF2) {
            float w = mrig_kernel_value(beta * sqrtf(1.0f - v * MRIG_ONE_OVER_CUTOFF2)) * sdc;
            acc_re += __float2int_rn(w * real * MRIG_FIXED_ONE);
            acc_im += __float2int_rn(w * imag * MRIG_FIXED_ONE);
            ++count;
          }
        }
      }
    }
  }
  int idx = (Z * gy + Y) * gx + X;
  grid[2 * idx] = acc_re;
  grid[2 * idx + 1] = acc_im;
  density[idx] = count;
}
