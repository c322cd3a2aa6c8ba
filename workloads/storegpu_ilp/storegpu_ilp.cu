// storegpu with 004 Table 2's STO shape (issue 16 point 6): CTAs of 128 threads, each
// hashing a 128-byte chunk (32 words) staged with its CTA's 127 others in 128 x 32 x 4 =
// 16 KiB of shared memory, so one CTA fits a 16 KB SM. The kernel is workloads/storegpu's
// with SG_THREADS 128 and SG_WORDS 32: coalesced copy into shared memory, then each thread
// mixes its own chunk (MurmurHash3-style) out of shared memory.
#define SG_THREADS 128
#define SG_WORDS 32
#include "../storegpu/storegpu.cu"
