// LU decomposition without pivoting (shaped like Rodinia LUD): the matrix is factorised
// in place in 16x16 blocks, one block step per three launches: lud_diagonal factorises
// the diagonal block in shared memory with one CTA of 16 threads (a barrier per column),
// lud_perimeter solves the blocks right of it (threads 0-15) and below it (threads 16-31),
// one CTA of 32 per pair, and lud_internal updates the trailing submatrix with 16x16
// shared tiles (a 16-term fma dot product per element). A last lud_diagonal finishes.
#define LUD_BS 16

extern "C" __global__ void lud_diagonal(float* m, int matrix_dim, int offset) {
  __shared__ float shadow[LUD_BS][LUD_BS];
  int tx = threadIdx.x;
  int array_offset = offset * matrix_dim + offset;
  for (int i = 0; i < LUD_BS; ++i) {
    shadow[i][tx] = m[array_offset + tx];
    array_offset += matrix_dim;
  }
  __syncthreads();
  for (int i = 0; i < LUD_BS - 1; ++i) {
    if (tx > i) {
      for (int j = 0; j < i; ++j) shadow[tx][i] -= shadow[tx][j] * shadow[j][i];
      shadow[tx][i] /= shadow[i][i];
    }
    __syncthreads();
    if (tx > i) {
      for (int j = 0; j < i + 1; ++j) shadow[i + 1][tx] -= shadow[i + 1][j] * shadow[j][tx];
    }
    __syncthreads();
  }
  array_offset = (offset + 1) * matrix_dim + offset;
  for (int i = 1; i < LUD_BS; ++i) {
    m[array_offset + tx] = shadow[i][tx];
    array_offset += matrix_dim;
  }
}

extern "C" __global__ void lud_perimeter(float* m, int matrix_dim, int offset) {
  __shared__ float dia[LUD_BS][LUD_BS];
  __shared__ float peri_row[LUD_BS][LUD_BS];
  __shared__ float peri_col[LUD_BS][LUD_BS];
  int idx, array_offset;
  if (threadIdx.x < LUD_BS) {
    idx = threadIdx.x;
    array_offset = offset * matrix_dim + offset;
    for (int i = 0; i < LUD_BS / 2; ++i) {
      dia[i][idx] = m[array_offset + idx];
      array_offset += matrix_dim;
    }
    array_offset = offset * matrix_dim + offset;
    for (int i = 0; i < LUD_BS; ++i) {
      peri_row[i][idx] = m[array_offset + (blockIdx.x + 1) * LUD_BS + idx];
      array_offset += matrix_dim;
    }
  } else {
    idx = threadIdx.x - LUD_BS;
    array_offset = (offset + LUD_BS / 2) * matrix_dim + offset;
    for (int i = LUD_BS / 2; i < LUD_BS; ++i) {
      dia[i][idx] = m[array_offset + idx];
      array_offset += matrix_dim;
    }
    array_offset = (offset + (blockIdx.x + 1) * LUD_BS) * matrix_dim + offset;
    for (int i = 0; i < LUD_BS; ++i) {
      peri_col[i][idx] = m[array_offset + idx];
      array_offset += matrix_dim;
    }
  }
  __syncthreads();
  if (threadIdx.x < LUD_BS) {  // the row block: forward substitution with unit-lower L
    idx = threadIdx.x;
    for (int i = 1; i < LUD_BS; ++i)
      for (int j = 0; j < i; ++j) peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
  } else {  // the column block: solve against U
    idx = threadIdx.x - LUD_BS;
    for (int i = 0; i < LUD_BS; ++i) {
      for (int j = 0; j < i; ++j) peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
      peri_col[idx][i] /= dia[i][i];
    }
  }
  __syncthreads();
  if (threadIdx.x < LUD_BS) {
    idx = threadIdx.x;
    array_offset = (offset + 1) * matrix_dim + offset;
    for (int i = 1; i < LUD_BS; ++i) {
      m[array_offset + (blockIdx.x + 1) * LUD_BS + idx] = peri_row[i][idx];
      array_offset += matrix_dim;
    }
  } else {
    idx = threadIdx.x - LUD_BS;
    array_offset = (offset + (blockIdx.x + 1) * LUD_BS) * matrix_dim + offset;
    for (int i = 0; i < LUD_BS; ++i) {
      m[array_offset + idx] = peri_col[i][idx];
      array_offset += matrix_dim;
    }
  }
}

extern "C" __global__ void lud_internal(float* m, int matrix_dim, int offset) {
  __shared__ float peri_row[LUD_BS][LUD_BS];
  __shared__ float peri_col[LUD_BS][LUD_BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int global_row_id = offset + (blockIdx.y + 1) * LUD_BS;
  int global_col_id = offset + (blockIdx.x + 1) * LUD_BS;
  peri_row[ty][tx] = m[(offset + ty) * matrix_dim + global_col_id + tx];
  peri_col[ty][tx] = m[(global_row_id + ty) * matrix_dim + offset + tx];
  __syncthreads();
  float sum = 0;
  for (int i = 0; i < LUD_BS; ++i) sum += peri_col[ty][i] * peri_row[i][tx];
  m[(global_row_id + ty) * matrix_dim + global_col_id + tx] -= sum;
}
