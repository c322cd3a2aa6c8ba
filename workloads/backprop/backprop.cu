// Backpropagation (shaped like Rodinia BP): one 16-input slice of the input layer per CTA
// of 16x16 threads. bp_layerforward stages the CTA's inputs and its 16x16 weight block in
// shared memory, multiplies, and reduces each column over the 16 rows with a
// power-of-two tree (barrier per level); row 0 writes the CTA's partial sums of the 16
// hidden units. bp_adjust_weights then updates every weight and its momentum term from
// the hidden deltas (weights laid out (in+1) x (hid+1), row 0 and column 0 the bias).
#define BP_HEIGHT 16
#define BP_WIDTH 16
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

extern "C" __global__ void bp_layerforward(const float* __restrict__ input, const float* __restrict__ weights,
                                           float* __restrict__ partial_sum, int hid) {
  __shared__ float input_node[BP_HEIGHT];
  __shared__ float weight_matrix[BP_HEIGHT][BP_WIDTH];
  int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int index = (hid + 1) * BP_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_in = BP_HEIGHT * by + ty + 1;
  if (tx == 0) input_node[ty] = input[index_in];
  __syncthreads();
  weight_matrix[ty][tx] = weights[index];
  __syncthreads();
  weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
  __syncthreads();
  for (int i = 1; i <= 4; ++i) {  // log2(BP_HEIGHT) levels
    int power_two = 1 << i;
    if (ty % power_two == 0) weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
    __syncthreads();
  }
  if (ty == 0) partial_sum[by * hid + tx] = weight_matrix[0][tx];
}

extern "C" __global__ void bp_adjust_weights(const float* __restrict__ delta, int hid, const float* __restrict__ ly,
                                             float* w, float* oldw) {
  int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int index = (hid + 1) * BP_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_y = BP_HEIGHT * by + ty + 1;
  int index_x = tx + 1;
  float dw = BP_ETA * delta[index_x] * ly[index_y] + BP_MOMENTUM * oldw[index];
  w[index] += dw;
  oldw[index] = dw;
  __syncthreads();
  if (ty == 0 && by == 0) {  // the bias row
    float db = BP_ETA * delta[index_x] + BP_MOMENTUM * oldw[index_x];
    w[index_x] += db;
    oldw[index_x] = db;
  }
}
