// Integer and floating-point arithmetic on every width, bit manipulation, conversions.
#include <cstdint>
__global__ void int_ops(int8_t* b8, int16_t* s16, uint16_t* u16, int* s32, unsigned* u32,
                        long long* s64, unsigned long long* u64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  b8[i] = (int8_t)(b8[i] * 3 + (b8[i] >> 1));
  s16[i] = (int16_t)(s16[i] / (s16[(i + 1) % n] | 1) + s16[i] % 7);
  u16[i] = (uint16_t)(u16[i] * u16[i] - (u16[i] >> 3));
  int a = s32[i], b = s32[(i + 3) % n] | 1;
  s32[i] = a / b + a % b + min(a, b) * max(a, b) + abs(a) + __mulhi(a, b) + __mul24(a, b);
  unsigned ua = u32[i], ub = u32[(i + 5) % n] | 1u;
  u32[i] = ua / ub + ua % ub + __umulhi(ua, ub) + __popc(ua) + __clz(ub) + __brev(ua) +
           __byte_perm(ua, ub, 0x5410) + __funnelshift_l(ua, ub, 7) + __ffs(ua) + __sad(a, b, ua) +
           (ua << (ub & 31)) + (ua >> 3) + (~ua ^ (ua & ub) | ub) + __usad(ua, ub, 1u);
  long long la = s64[i], lb = s64[(i + 7) % n] | 1;
  s64[i] = la / lb + la % lb + la * lb + __mul64hi(la, lb) + (la >> 5) + __popcll(la) + __clzll(lb) +
           llabs(la) + llmin(la, lb);
  unsigned long long ula = u64[i], ulb = u64[(i + 9) % n] | 1ull;
  u64[i] = ula / ulb + ula % ulb + __umul64hi(ula, ulb) + (ula >> 13) + __brevll(ula) + (unsigned long long)a * ub;
}

__global__ void float_ops(float* f, double* d, int* iout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i], y = f[(i + 1) % n];
  float r = x * y + x / y - fminf(x, y) + fmaxf(x, y) + fabsf(x) + fmaf(x, y, 1.5f) + __saturatef(x) +
            __fadd_rz(x, y) + __fmul_rd(x, y) + __fdiv_ru(x, y) + __frcp_rn(y) + __fsqrt_rz(fabsf(x)) +
            copysignf(x, y) + truncf(x) + floorf(y) + ceilf(x) + rintf(y) + roundf(x);
  f[i] = r;
  double a = d[i], b = d[(i + 1) % n];
  double s = a * b + a / b - fmin(a, b) + fmax(a, b) + fabs(a) + fma(a, b, 0.25) + __dadd_rz(a, b) +
             __drcp_rn(b) + sqrt(fabs(a)) + floor(a) + ceil(b) + trunc(a) + rint(b) + (double)x;
  d[i] = s;
  iout[i] = __float2int_rn(x) + __float2int_rz(y) + __float2uint_rd(fabsf(x)) + (int)__double2ll_ru(a) +
            __float_as_int(x) + (int)__double2hiint(a) + (int)(long long)b + (int)(unsigned char)(int)x +
            (int)(short)y + isnan(x) + isinf(y) + isfinite(a) + signbit(b);
}
