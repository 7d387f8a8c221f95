#include "world/RolloutKernels.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace worldtune {

namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WORLDTUNE_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define WORLDTUNE_VECTOR_CLONES
#endif
#define WORLDTUNE_INLINE inline __attribute__((always_inline))

/// 16 floats as one GCC vector: each clone of the functions below lowers it to its widest registers (one
/// zmm with AVX-512, two ymm with AVX2, four xmm otherwise), so the arithmetic is vectorized on every
/// target without intrinsics and without depending on the auto-vectorizer.
typedef float Lanes __attribute__((vector_size(64), aligned(4), may_alias));  ///< aligned(4): loads need no alignment
constexpr int kLanes = 16;

/// The 16 floats at p as one vector (a reference, so no vector crosses a call boundary).
WORLDTUNE_INLINE const Lanes &lanes_at(const float *p) { return *reinterpret_cast<const Lanes *>(p); }
WORLDTUNE_INLINE Lanes &lanes_at(float *p) { return *reinterpret_cast<Lanes *>(p); }

/// tanh by a [7/6] Pade approximant (absolute error below 1e-6 where it is not clamped to +-1).
WORLDTUNE_INLINE float tanh_pade(float x) {
    x = std::min(std::max(x, -4.97f), 4.97f);  // branch-free, so loops over it vectorize
    const float x2 = x * x;
    const float num = x * (135135.0f + x2 * (17325.0f + x2 * (378.0f + x2)));
    const float den = 135135.0f + x2 * (62370.0f + x2 * (3150.0f + x2 * 28.0f));
    return std::min(std::max(num / den, -1.0f), 1.0f);
}

WORLDTUNE_INLINE float dot_lanes(const float *__restrict a, const float *__restrict b, int n) {
    Lanes part = {};
    int i = 0;
    for (; i + kLanes <= n; i += kLanes) part += lanes_at(a + i) * lanes_at(b + i);
    float sum = 0;
    for (int k = 0; k < kLanes; k++) sum += part[k];
    for (; i < n; i++) sum += a[i] * b[i];
    return sum;
}

/// y_c = p_c + C^T s_c for N nodes c, C given as [R, D]: each y_c[i] sums p_c[i], then j = 0..R-1 in order.
/// Blocks of 32 outputs of all N nodes stay in registers over the whole sum; each row of C loaded serves
/// the N nodes.
template <int N>
WORLDTUNE_INLINE void corrected_n(const float *const p[N], const float *__restrict C, const float *const s[N], int R, int D,
                                  float *const y[N]) {
    int i0 = 0;
    for (; i0 + 2 * kLanes <= D; i0 += 2 * kLanes) {
        Lanes a[N][2];
        for (int c = 0; c < N; c++) a[c][0] = lanes_at(p[c] + i0), a[c][1] = lanes_at(p[c] + i0 + kLanes);
        for (int j = 0; j < R; j++) {
            const float *row = C + size_t(j) * size_t(D) + size_t(i0);
            const Lanes r0 = lanes_at(row), r1 = lanes_at(row + kLanes);
            for (int c = 0; c < N; c++) {
                const float sj = s[c][j];
                a[c][0] += sj * r0;
                a[c][1] += sj * r1;
            }
        }
        for (int c = 0; c < N; c++) lanes_at(y[c] + i0) = a[c][0], lanes_at(y[c] + i0 + kLanes) = a[c][1];
    }
    for (; i0 + kLanes <= D; i0 += kLanes) {
        for (int c = 0; c < N; c++) {
            Lanes a = lanes_at(p[c] + i0);
            for (int j = 0; j < R; j++) a += s[c][j] * lanes_at(C + size_t(j) * size_t(D) + size_t(i0));
            lanes_at(y[c] + i0) = a;
        }
    }
    for (; i0 < D; i0++)
        for (int c = 0; c < N; c++) {
            float a = p[c][i0];
            for (int j = 0; j < R; j++) a += s[c][j] * C[size_t(j) * size_t(D) + size_t(i0)];
            y[c][i0] = a;
        }
}

/// s_c = tanh(S_z z_c + u_c) for N nodes, S_z given transposed [D, R]: each s_c[r] sums u_c[r], then
/// i = 0..D-1 in order; each row of S_z^T loaded serves the N nodes.
template <int N>
WORLDTUNE_INLINE void state_reading_n(const float *__restrict SzT, const StepNode *nodes, int R, int D, float *const s[N]) {
    int r0 = 0;
    for (; r0 + kLanes <= R; r0 += kLanes) {
        Lanes a[N];
        for (int c = 0; c < N; c++) a[c] = lanes_at(nodes[c].u + r0);
        for (int i = 0; i < D; i++) {
            const Lanes w = lanes_at(SzT + size_t(i) * size_t(R) + size_t(r0));
            for (int c = 0; c < N; c++) a[c] += nodes[c].z[i] * w;
        }
        for (int c = 0; c < N; c++) lanes_at(s[c] + r0) = a[c];
    }
    for (; r0 < R; r0++)
        for (int c = 0; c < N; c++) {
            float a = nodes[c].u[r0];
            for (int i = 0; i < D; i++) a += SzT[size_t(i) * size_t(R) + size_t(r0)] * nodes[c].z[i];
            s[c][r0] = a;
        }
    for (int c = 0; c < N; c++)
        for (int r = 0; r < R; r++) s[c][r] = tanh_pade(s[c][r]);
}

WORLDTUNE_INLINE void transh_lanes(const float *__restrict w, const float *__restrict d, const float *__restrict g, int D, float *__restrict z) {
    const float wz = dot_lanes(w, z, D);
    for (int i = 0; i < D; i++) z[i] = (1.0f + g[i]) * (z[i] - wz * w[i]) + d[i];
}

template <int N>
WORLDTUNE_INLINE void state_steps_n(const StepWeights &k, const StepNode *nodes, float *scratch) {
    const int R = k.R, D = k.D;
    float *s[N], *w[N], *d[N], *g[N];
    const float *wa[N], *da[N], *ga[N], *sc[N];
    for (int c = 0; c < N; c++) {
        float *base = scratch + size_t(c) * size_t(R + 3 * D);
        s[c] = base, w[c] = base + R, d[c] = base + R + D, g[c] = base + R + 2 * D;
        wa[c] = nodes[c].w_a, da[c] = nodes[c].d_a, ga[c] = nodes[c].g_a, sc[c] = s[c];
    }
    state_reading_n<N>(k.state_z_t, nodes, R, D, s);
    corrected_n<N>(wa, k.c_w, sc, R, D, w);
    corrected_n<N>(da, k.c_d, sc, R, D, d);
    corrected_n<N>(ga, k.c_g, sc, R, D, g);
    for (int c = 0; c < N; c++) {
        const float inv = 1.0f / std::max(std::sqrt(dot_lanes(w[c], w[c], D)), 1e-12f);
        for (int i = 0; i < D; i++) {
            w[c][i] *= inv;
            g[c][i] = k.residual_scale * tanh_pade(g[c][i]);
        }
        transh_lanes(w[c], d[c], g[c], D, nodes[c].z);
    }
}

WORLDTUNE_VECTOR_CLONES
void state_steps_4(const StepWeights &k, const StepNode *nodes, float *scratch) { state_steps_n<4>(k, nodes, scratch); }

WORLDTUNE_VECTOR_CLONES
void state_steps_1(const StepWeights &k, const StepNode *nodes, float *scratch) { state_steps_n<1>(k, nodes, scratch); }

}  // namespace

WORLDTUNE_VECTOR_CLONES
void affine_t(const float *__restrict Wt, const float *__restrict b, const float *__restrict x, int in, int out, float *__restrict y) {
    const float *p[1] = {b}, *s[1] = {x};
    float *ys[1] = {y};
    corrected_n<1>(p, Wt, s, in, out, ys);
}

WORLDTUNE_VECTOR_CLONES
static void affine_t_4(const float *__restrict Wt, const float *__restrict b, const float *const *xs, int in, int out, float *const *ys) {
    const float *p[4] = {b, b, b, b};
    corrected_n<4>(p, Wt, xs, in, out, ys);
}

void affine_t_n(const float *Wt, const float *b, const float *const *xs, int count, int in, int out, float *const *ys) {
    if (count == 4) return affine_t_4(Wt, b, xs, in, out, ys);
    for (int c = 0; c < count; c++) affine_t(Wt, b, xs[c], in, out, ys[c]);
}

WORLDTUNE_VECTOR_CLONES
void affine_t_split(const float *__restrict Wt, const float *__restrict b, const float *__restrict x, int in, int out, float *__restrict y) {
    int o0 = 0;
    for (; o0 + kLanes <= out; o0 += kLanes) {
        Lanes part[4] = {};
        int i = 0;
        for (; i + 4 <= in; i += 4)
            for (int q = 0; q < 4; q++) part[q] += x[i + q] * lanes_at(Wt + size_t(i + q) * size_t(out) + size_t(o0));
        for (; i < in; i++) part[0] += x[i] * lanes_at(Wt + size_t(i) * size_t(out) + size_t(o0));
        lanes_at(y + o0) = lanes_at(b + o0) + ((part[0] + part[1]) + (part[2] + part[3]));
    }
    for (; o0 < out; o0++) {
        float a = b[o0];
        for (int i = 0; i < in; i++) a += Wt[size_t(i) * size_t(out) + size_t(o0)] * x[i];
        y[o0] = a;
    }
}

WORLDTUNE_VECTOR_CLONES
float dot(const float *__restrict a, const float *__restrict b, int n) { return dot_lanes(a, b, n); }

WORLDTUNE_VECTOR_CLONES
void transh_step(const float *__restrict w, const float *__restrict d, const float *__restrict g, int D, float *__restrict z) {
    transh_lanes(w, d, g, D, z);
}

void state_steps(const StepWeights &weights, const StepNode *nodes, int count, float *scratch) {
    int c = 0;
    for (; c + 4 <= count; c += 4) state_steps_4(weights, nodes + c, scratch);
    for (; c < count; c++) state_steps_1(weights, nodes + c, scratch);
}

}  // namespace worldtune
