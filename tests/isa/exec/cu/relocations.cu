// Module-scope variables initialised with addresses of other variables: nvcc emits
// them as address initialisers (`generic(x)+4`), which the loader must patch.
__device__ int table[4] = {10, 20, 30, 40};
__device__ int* second = &table[1];
__device__ int* entries[2] = {&table[3], &table[0]};
__constant__ int coeffs[3] = {7, 8, 9};

extern "C" __global__ void read_through_pointers(int* out) {
  out[0] = *second;
  out[1] = *entries[0];
  out[2] = *entries[1];
  out[3] = coeffs[2];
  second[1] = 99;  // writes through a patched pointer land in table[2]
  out[4] = table[2];
}
