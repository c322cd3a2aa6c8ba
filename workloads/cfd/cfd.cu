// Unstructured finite-volume flux computation, shaped like Rodinia CFD (euler3d; LAWS
// thesis Table 2.2, type III: L1D hits come mostly from lines other warps brought).
// Written for this project.
//
// Cells have 4 faces; nbr[f * ncells + c] is the cell across face f or -1 (a wall). The 5
// conserved variables (density, x/y/z momentum, energy density) are structure-of-arrays,
// vars[v * ncells + c]; each face's outward normal (scaled by the face area) is
// normals[(f * 3 + k) * ncells + c]. cfd_flux: one thread per cell reads its own state
// (coalesced) and gathers its neighbours' (cells numbered in a locality-preserving but
// irregular order, so a warp's gathers hit lines other warps of its CTA load too), derives
// velocity, pressure and speed of sound, and sums a Rusanov (local Lax-Friedrichs) flux over
// its faces; a wall face contributes the pressure force only. cfd_time_step: vars +=
// dt / volume * flux.
//
// Every floating-point operation is an explicit IEEE-rounded intrinsic (__fadd_rn,
// __fmul_rn, __fmaf_rn, __fdiv_rn, __fsqrt_rn), so the compiler cannot contract or reorder
// them and the CPU reference repeats them bit for bit.

constexpr float kGamma = 1.4f;
constexpr float kGammaMinus1 = 0.4f;

struct State {
  float rho, mx, my, mz, e;  // conserved
  float vx, vy, vz, p, c;    // derived: velocity, pressure, speed of sound
};

__device__ __forceinline__ State load_state(const float* __restrict__ vars, int ncells, int cell) {
  State s;
  s.rho = vars[cell];
  s.mx = vars[ncells + cell];
  s.my = vars[2 * ncells + cell];
  s.mz = vars[3 * ncells + cell];
  s.e = vars[4 * ncells + cell];
  s.vx = __fdiv_rn(s.mx, s.rho);
  s.vy = __fdiv_rn(s.my, s.rho);
  s.vz = __fdiv_rn(s.mz, s.rho);
  float speed_sqd = __fmul_rn(s.vx, s.vx);
  speed_sqd = __fmaf_rn(s.vy, s.vy, speed_sqd);
  speed_sqd = __fmaf_rn(s.vz, s.vz, speed_sqd);
  float kinetic = __fmul_rn(__fmul_rn(0.5f, s.rho), speed_sqd);
  s.p = __fmul_rn(kGammaMinus1, __fsub_rn(s.e, kinetic));
  s.c = __fsqrt_rn(__fdiv_rn(__fmul_rn(kGamma, s.p), s.rho));
  return s;
}

// Normal velocity v.n of a state.
__device__ __forceinline__ float normal_velocity(const State& s, float nx, float ny, float nz) {
  float vn = __fmul_rn(s.vx, nx);
  vn = __fmaf_rn(s.vy, ny, vn);
  return __fmaf_rn(s.vz, nz, vn);
}

// acc -= 0.5 * ((fi + fj) - lambda * (uj - ui))
__device__ __forceinline__ float rusanov_add(float acc, float fi, float fj, float ui, float uj,
                                             float lambda) {
  float s = __fmaf_rn(-lambda, __fsub_rn(uj, ui), __fadd_rn(fi, fj));
  return __fmaf_rn(-0.5f, s, acc);
}

extern "C" __global__ void cfd_flux(int ncells, const int* __restrict__ nbr,
                                    const float* __restrict__ normals,
                                    const float* __restrict__ vars, float* fluxes) {
  int cell = blockIdx.x * blockDim.x + threadIdx.x;
  if (cell >= ncells) return;
  const State me = load_state(vars, ncells, cell);
  float acc0 = 0.f, acc1 = 0.f, acc2 = 0.f, acc3 = 0.f, acc4 = 0.f;
#pragma unroll
  for (int f = 0; f < 4; ++f) {
    const int other = nbr[f * ncells + cell];
    const float nx = normals[(f * 3 + 0) * ncells + cell];
    const float ny = normals[(f * 3 + 1) * ncells + cell];
    const float nz = normals[(f * 3 + 2) * ncells + cell];
    if (other >= 0) {
      const State nb = load_state(vars, ncells, other);
      float nlen = __fmul_rn(nx, nx);
      nlen = __fmaf_rn(ny, ny, nlen);
      nlen = __fsqrt_rn(__fmaf_rn(nz, nz, nlen));
      const float vn_i = normal_velocity(me, nx, ny, nz);
      const float vn_j = normal_velocity(nb, nx, ny, nz);
      const float lambda = fmaxf(__fmaf_rn(me.c, nlen, fabsf(vn_i)),
                                 __fmaf_rn(nb.c, nlen, fabsf(vn_j)));
      acc0 = rusanov_add(acc0, __fmul_rn(me.rho, vn_i), __fmul_rn(nb.rho, vn_j), me.rho, nb.rho,
                         lambda);
      acc1 = rusanov_add(acc1, __fmaf_rn(me.mx, vn_i, __fmul_rn(me.p, nx)),
                         __fmaf_rn(nb.mx, vn_j, __fmul_rn(nb.p, nx)), me.mx, nb.mx, lambda);
      acc2 = rusanov_add(acc2, __fmaf_rn(me.my, vn_i, __fmul_rn(me.p, ny)),
                         __fmaf_rn(nb.my, vn_j, __fmul_rn(nb.p, ny)), me.my, nb.my, lambda);
      acc3 = rusanov_add(acc3, __fmaf_rn(me.mz, vn_i, __fmul_rn(me.p, nz)),
                         __fmaf_rn(nb.mz, vn_j, __fmul_rn(nb.p, nz)), me.mz, nb.mz, lambda);
      acc4 = rusanov_add(acc4, __fmul_rn(__fadd_rn(me.e, me.p), vn_i),
                         __fmul_rn(__fadd_rn(nb.e, nb.p), vn_j), me.e, nb.e, lambda);
    } else {  // wall: only the pressure force
      acc1 = __fmaf_rn(-me.p, nx, acc1);
      acc2 = __fmaf_rn(-me.p, ny, acc2);
      acc3 = __fmaf_rn(-me.p, nz, acc3);
    }
  }
  fluxes[cell] = acc0;
  fluxes[ncells + cell] = acc1;
  fluxes[2 * ncells + cell] = acc2;
  fluxes[3 * ncells + cell] = acc3;
  fluxes[4 * ncells + cell] = acc4;
}

extern "C" __global__ void cfd_time_step(int ncells, float dt, const float* __restrict__ inv_volume,
                                         const float* __restrict__ fluxes, float* vars) {
  int cell = blockIdx.x * blockDim.x + threadIdx.x;
  if (cell >= ncells) return;
  const float factor = __fmul_rn(dt, inv_volume[cell]);
#pragma unroll
  for (int v = 0; v < 5; ++v)
    vars[v * ncells + cell] = __fmaf_rn(factor, fluxes[v * ncells + cell], vars[v * ncells + cell]);
}
