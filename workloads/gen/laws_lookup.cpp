// Workloads shaped like members of the LAWS thesis' sensitive set (001 Tables 2.2 / 3.2)
// the project lacked; see docs/workloads.md. This file: aes (AES-128 ECB with T-table
// lookups, type-I) and simscore (MARS Similarity Score, type-II).
#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

// --- aes: AES-128 ECB with T-table lookups (workloads/aes) ---------------------------------
struct AesSize {
  int ctas, threads_per_cta;  // one thread per chunk
  int blocks_per_thread;      // consecutive 16-byte blocks of a thread's chunk
};

uint8_t gf_mul(uint8_t a, uint8_t b) {  // GF(2^8) modulo x^8 + x^4 + x^3 + x + 1
  uint8_t p = 0;
  while (b) {
    if (b & 1) p ^= a;
    a = static_cast<uint8_t>((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
    b >>= 1;
  }
  return p;
}

// The S-box from its definition (FIPS-197 5.1.1): multiplicative inverse, then the affine map.
std::array<uint8_t, 256> make_sbox() {
  std::array<uint8_t, 256> s{};
  for (int x = 0; x < 256; ++x) {
    uint8_t inv = 0;
    if (x != 0)
      for (int y = 1; y < 256; ++y)
        if (gf_mul(static_cast<uint8_t>(x), static_cast<uint8_t>(y)) == 1) {
          inv = static_cast<uint8_t>(y);
          break;
        }
    auto rotl = [](uint8_t v, int n) { return static_cast<uint8_t>((v << n) | (v >> (8 - n))); };
    s[x] = static_cast<uint8_t>(inv ^ rotl(inv, 1) ^ rotl(inv, 2) ^ rotl(inv, 3) ^ rotl(inv, 4) ^ 0x63);
  }
  return s;
}

// Byte-oriented AES-128 as FIPS-197 states it (the reference; no T-tables).
struct Aes128 {
  std::array<uint8_t, 256> sbox;
  std::array<uint8_t, 176> rk;  // 11 round keys, byte i of round r at 16 r + i

  Aes128(const std::array<uint8_t, 256>& s, const uint8_t key[16]) : sbox(s) {
    std::memcpy(rk.data(), key, 16);
    uint8_t rcon = 1;
    for (int i = 4; i < 44; ++i) {
      uint8_t w[4];
      std::memcpy(w, &rk[4 * (i - 1)], 4);
      if (i % 4 == 0) {
        uint8_t t = w[0];  // RotWord, SubWord, Rcon
        w[0] = static_cast<uint8_t>(sbox[w[1]] ^ rcon);
        w[1] = sbox[w[2]];
        w[2] = sbox[w[3]];
        w[3] = sbox[t];
        rcon = gf_mul(rcon, 2);
      }
      for (int k = 0; k < 4; ++k) rk[4 * i + k] = static_cast<uint8_t>(rk[4 * (i - 4) + k] ^ w[k]);
    }
  }

  void encrypt(const uint8_t in[16], uint8_t out[16]) const {
    uint8_t s[16];  // s[r + 4c]: row r, column c
    for (int i = 0; i < 16; ++i) s[i] = static_cast<uint8_t>(in[i] ^ rk[i]);
    for (int round = 1; round <= 10; ++round) {
      uint8_t t[16];
      for (int r = 0; r < 4; ++r)  // SubBytes and ShiftRows (row r rotates left by r)
        for (int c = 0; c < 4; ++c) t[r + 4 * c] = sbox[s[r + 4 * ((c + r) % 4)]];
      if (round < 10)
        for (int c = 0; c < 4; ++c) {  // MixColumns
          uint8_t* col = &t[4 * c];
          uint8_t a0 = col[0], a1 = col[1], a2 = col[2], a3 = col[3];
          col[0] = static_cast<uint8_t>(gf_mul(a0, 2) ^ gf_mul(a1, 3) ^ a2 ^ a3);
          col[1] = static_cast<uint8_t>(a0 ^ gf_mul(a1, 2) ^ gf_mul(a2, 3) ^ a3);
          col[2] = static_cast<uint8_t>(a0 ^ a1 ^ gf_mul(a2, 2) ^ gf_mul(a3, 3));
          col[3] = static_cast<uint8_t>(gf_mul(a0, 3) ^ a1 ^ a2 ^ gf_mul(a3, 2));
        }
      for (int i = 0; i < 16; ++i) s[i] = static_cast<uint8_t>(t[i] ^ rk[16 * round + i]);
    }
    std::memcpy(out, s, 16);
  }

  // The round keys as the kernel's 44 big-endian words.
  std::vector<uint32_t> words() const {
    std::vector<uint32_t> w(44);
    for (int i = 0; i < 44; ++i)
      w[i] = (uint32_t{rk[4 * i]} << 24) | (uint32_t{rk[4 * i + 1]} << 16) | (uint32_t{rk[4 * i + 2]} << 8) |
             rk[4 * i + 3];
    return w;
  }
};

// Te0[x] = S[x] * (02, 01, 01, 03) as a big-endian word; Te1..Te3 are it rotated right by
// 8, 16, 24 bits.
std::array<std::vector<uint32_t>, 4> make_te(const std::array<uint8_t, 256>& s) {
  std::array<std::vector<uint32_t>, 4> te;
  for (auto& t : te) t.resize(256);
  for (int x = 0; x < 256; ++x) {
    uint32_t v = (uint32_t{gf_mul(s[x], 2)} << 24) | (uint32_t{s[x]} << 16) | (uint32_t{s[x]} << 8) |
                 gf_mul(s[x], 3);
    for (int k = 0; k < 4; ++k) te[k][x] = k == 0 ? v : (v >> (8 * k)) | (v << (32 - 8 * k));
  }
  return te;
}

// The kernel's T-table computation on the CPU (used only to check the tables and the word
// order against FIPS-197 C.1).
void encrypt_ttable(const std::array<std::vector<uint32_t>, 4>& te, const std::array<uint8_t, 256>& sbox,
                    const std::vector<uint32_t>& rk, const uint8_t in[16], uint8_t out[16]) {
  uint32_t s[4];
  for (int c = 0; c < 4; ++c)
    s[c] = ((uint32_t{in[4 * c]} << 24) | (uint32_t{in[4 * c + 1]} << 16) | (uint32_t{in[4 * c + 2]} << 8) |
            in[4 * c + 3]) ^
           rk[c];
  for (int r = 1; r < 10; ++r) {
    uint32_t t[4];
    for (int c = 0; c < 4; ++c)
      t[c] = te[0][s[c] >> 24] ^ te[1][(s[(c + 1) % 4] >> 16) & 0xff] ^ te[2][(s[(c + 2) % 4] >> 8) & 0xff] ^
             te[3][s[(c + 3) % 4] & 0xff] ^ rk[4 * r + c];
    std::memcpy(s, t, sizeof s);
  }
  for (int c = 0; c < 4; ++c) {
    uint32_t w = (uint32_t{sbox[s[c] >> 24]} << 24) ^
                 (uint32_t{sbox[(s[(c + 1) % 4] >> 16) & 0xff]} << 16) ^
                 (uint32_t{sbox[(s[(c + 2) % 4] >> 8) & 0xff]} << 8) ^ sbox[s[(c + 3) % 4] & 0xff] ^
                 rk[40 + c];
    for (int k = 0; k < 4; ++k) out[4 * c + k] = static_cast<uint8_t>(w >> (24 - 8 * k));
  }
}

void gen_aes(Size size, const OutDir& out) {
  // Medium: one wave of 4 CTAs on each of 30 SMs (the thesis GPU). The thesis launches
  // 256 CTAs; with a stream line fetched again for every block, that takes ~55 s (4 blocks
  // per thread) or ~140 s (8) of host CPU time under GTO, past the medium budget.
  const AesSize z = size == Size::kSmall ? AesSize{4, 256, 4} : AesSize{120, 256, 4};
  const std::array<uint8_t, 256> sbox = make_sbox();
  const auto te = make_te(sbox);

  // FIPS-197 Appendix C.1 (AES-128): both the reference and the T-table form must agree.
  {
    uint8_t key[16], pt[16], ct[16], ct_tt[16];
    for (int i = 0; i < 16; ++i) {
      key[i] = static_cast<uint8_t>(i);
      pt[i] = static_cast<uint8_t>(0x11 * i);
    }
    const uint8_t expect[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    Aes128 fips(sbox, key);
    fips.encrypt(pt, ct);
    encrypt_ttable(te, sbox, fips.words(), pt, ct_tt);
    if (std::memcmp(ct, expect, 16) != 0)
      throw GenerateError("aes: the reference disagrees with FIPS-197 C.1");
    if (std::memcmp(ct_tt, expect, 16) != 0)
      throw GenerateError("aes: the T-table form disagrees with FIPS-197 C.1");
  }

  SplitMix64 rng(5101);
  uint8_t key[16];
  for (auto& k : key) k = static_cast<uint8_t>(rng.next() >> 56);
  const Aes128 aes(sbox, key);
  const std::size_t nthreads = static_cast<std::size_t>(z.ctas) * z.threads_per_cta;
  const std::size_t nblocks = nthreads * z.blocks_per_thread;
  std::vector<uint8_t> plain(nblocks * 16), cipher(nblocks * 16);
  for (std::size_t i = 0; i < plain.size(); i += 8) {
    uint64_t v = rng.next();
    std::memcpy(&plain[i], &v, 8);
  }
  for (std::size_t b = 0; b < nblocks; ++b) aes.encrypt(&plain[16 * b], &cipher[16 * b]);

  out.write("plain.bin", plain);
  out.write("round_keys.bin", aes.words());
  for (int k = 0; k < 4; ++k) out.write("te" + std::to_string(k) + ".bin", te[k]);
  out.write("sbox.bin", std::vector<uint8_t>(sbox.begin(), sbox.end()));
  out.write("cipher_ref.bin", cipher);
  std::printf("aes: %zu threads x %d blocks = %zu blocks (%zu bytes), FIPS-197 C.1 ok\n", nthreads,
              z.blocks_per_thread, nblocks, plain.size());
}
GPUTLM_WORKLOAD("aes", "LAWS type-I: AES-128 ECB, T-tables in shared memory, uncoalesced per-thread chunks",
                gen_aes);

// --- simscore: cosine similarity of document pairs (workloads/simscore) --------------------
struct SimSize {
  int ndocs, nfeat;
  int nqueries;  // every document i is scored against documents j = k * (ndocs / nqueries)
  int threads_per_cta;
};

void gen_simscore(Size size, const OutDir& out) {
  // Medium: one wave of 4 CTAs on each of 30 SMs (the thesis GPU), 20 warps per SM (a
  // full 32 runs ~60 s under LRR). Every document is scored by nqueries CTAs; ndocs is
  // chosen so that the CTAs an SM holds at once (c, c + #SMs, c + 2 #SMs, ... for 15 or
  // 30 SMs) cover different documents, so the row hits stay within a warp. (1920
  // documents and CTAs of 256 would not: 30 CTAs are exactly 4 queries, and an SM's four
  // CTAs would score the same documents, most hits then on other warps' lines.)
  const SimSize z = size == Size::kSmall ? SimSize{256, 64, 8, 128} : SimSize{1280, 64, 15, 160};
  const int query_stride = z.ndocs / z.nqueries;
  const std::size_t npairs = static_cast<std::size_t>(z.ndocs) * z.nqueries;
  if (npairs % z.threads_per_cta != 0 || z.ndocs % 32 != 0)
    throw GenerateError("simscore: pairs not whole CTAs, or a warp spanning two queries");
  // Non-negative features (term weights); every document has a non-zero norm.
  auto docs = random_f32(5201, static_cast<std::size_t>(z.ndocs) * z.nfeat, 0.0, 1.0);
  std::vector<float> sim(npairs);
  for (int k = 0; k < z.nqueries; ++k)
    for (int i = 0; i < z.ndocs; ++i) {
      const int j = k * query_stride;
      const float* a = &docs[static_cast<std::size_t>(i) * z.nfeat];
      const float* b = &docs[static_cast<std::size_t>(j) * z.nfeat];
      float dot = 0.f, na = 0.f, nb = 0.f;
      for (int f = 0; f < z.nfeat; ++f) {  // fma.rn, in feature order, as the PTX
        dot = std::fma(a[f], b[f], dot);
        na = std::fma(a[f], a[f], na);
        nb = std::fma(b[f], b[f], nb);
      }
      // sqrt.rn, mul.rn, div.rn: correctly rounded on both sides.
      sim[static_cast<std::size_t>(k) * z.ndocs + i] = dot / (std::sqrt(na) * std::sqrt(nb));
    }
  out.write("docs.bin", docs);
  out.write("sim_ref.bin", sim);
  std::printf("simscore: %d documents x %d features against %d queries (every %dth document): %zu pairs, "
              "%zu CTAs of %d\n",
              z.ndocs, z.nfeat, z.nqueries, query_stride, npairs, npairs / z.threads_per_cta,
              z.threads_per_cta);
}
GPUTLM_WORKLOAD("simscore", "LAWS type-II: MARS-like cosine similarity, documents against query documents",
                gen_simscore);

}  // namespace
}  // namespace gputlm::workloads
