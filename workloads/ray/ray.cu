// Ray tracing shaped like 004 Table 2's RAY (issue 16 point 6): one thread per pixel of a
// width x height image, CTAs of 16 x 16. The CTA stages the scene's spheres (x, y, z,
// radius) in shared memory; each thread casts a primary ray from the origin through its
// pixel, finds the nearest sphere, keeps the hit record (point and normal) in its slot of
// shared memory (24 B x 256 threads), then casts a shadow ray towards the point light
// against every sphere and shades: ambient + albedo x max(0, n.l) when unshadowed.
// Compiled with -fmad=false (and IEEE sqrt and division, nvcc's defaults): every result
// is the correctly rounded one, so the CPU reference reproduces the image bit for bit.
// PTX: tools/regen-ptx.sh -f "-O3 -fmad=false" workloads/ray/ray.cu
//      (nvcc -ptx -arch=compute_75 -O3 -fmad=false, CUDA 13.0).
#define RT_MAX_SPHERES 16
#define RT_THREADS 256

extern "C" __global__ void ray_trace(int width, int height, int nspheres,
                                     const float4* __restrict__ spheres, float lx, float ly,
                                     float lz, float* image) {
  __shared__ float4 sph[RT_MAX_SPHERES];
  __shared__ float hit[6][RT_THREADS];  // hit point x, y, z and normal x, y, z per thread
  const int me = threadIdx.y * blockDim.x + threadIdx.x;
  if (me < nspheres) sph[me] = spheres[me];
  __syncthreads();
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  // Primary ray: the origin through the pixel centre on the plane z = -1.5.
  float dx = ((float)x + 0.5f - 0.5f * (float)width) / (0.5f * (float)width);
  float dy = ((float)y + 0.5f - 0.5f * (float)height) / (0.5f * (float)height);
  float dz = -1.5f;
  float len = sqrtf(dx * dx + dy * dy + dz * dz);
  dx = dx / len;
  dy = dy / len;
  dz = dz / len;
  float tmin = 1e30f;
  int id = -1;
  for (int s = 0; s < nspheres; ++s) {
    float4 c = sph[s];
    // |t d - c|^2 = r^2 with |d| = 1: t = b - sqrt(b^2 - (|c|^2 - r^2)), b = d.c
    float b = dx * c.x + dy * c.y + dz * c.z;
    float q = c.x * c.x + c.y * c.y + c.z * c.z - c.w * c.w;
    float disc = b * b - q;
    if (disc > 0.0f) {
      float t = b - sqrtf(disc);
      if (t > 1e-3f && t < tmin) {
        tmin = t;
        id = s;
      }
    }
  }
  float colour = 0.0f;
  if (id >= 0) {
    float4 c = sph[id];
    hit[0][me] = tmin * dx;
    hit[1][me] = tmin * dy;
    hit[2][me] = tmin * dz;
    hit[3][me] = (hit[0][me] - c.x) / c.w;
    hit[4][me] = (hit[1][me] - c.y) / c.w;
    hit[5][me] = (hit[2][me] - c.z) / c.w;
    // Shadow ray from the hit point towards the light.
    float px = hit[0][me], py = hit[1][me], pz = hit[2][me];
    float ux = lx - px, uy = ly - py, uz = lz - pz;
    float dist = sqrtf(ux * ux + uy * uy + uz * uz);
    ux = ux / dist;
    uy = uy / dist;
    uz = uz / dist;
    float lambert = hit[3][me] * ux + hit[4][me] * uy + hit[5][me] * uz;
    bool lit = lambert > 0.0f;
    for (int s = 0; s < nspheres && lit; ++s) {
      if (s == id) continue;
      float4 o = sph[s];
      float ox = o.x - px, oy = o.y - py, oz = o.z - pz;
      float b = ux * ox + uy * oy + uz * oz;
      float q = ox * ox + oy * oy + oz * oz - o.w * o.w;
      float disc = b * b - q;
      if (disc > 0.0f) {
        float t = b - sqrtf(disc);
        if (t > 1e-3f && t < dist) lit = false;
      }
    }
    float albedo = (float)(id + 1) / (float)nspheres;
    colour = 0.1f + (lit ? albedo * lambert : 0.0f);
  }
  image[y * width + x] = colour;
}
