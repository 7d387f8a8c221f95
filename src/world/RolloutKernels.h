// The rollout's arithmetic (Rollout.h) on plain float arrays, vectorized for the machine it runs on: each
// function is compiled for AVX-512, AVX2 and plain x86-64, and the widest one the CPU has is picked when
// the program starts. Matrices are row-major; "Wt [in, out]" is a torch Linear weight stored transposed.
#pragma once

namespace worldtune {

/// y = W x + b with W stored transposed, Wt [in, out] (b not null): each y[o] sums b[o], then the inputs
/// in order.
void affine_t(const float *Wt, const float *b, const float *x, int in, int out, float *y);

/// affine_t of up to four inputs at once (count <= 4): ys[c] = W xs[c] + b, each exactly as affine_t
/// computes it alone; each weight loaded serves all of them.
void affine_t_n(const float *Wt, const float *b, const float *const *xs, int count, int in, int out, float *const *ys);

/// y = W x + b, Wt [in, out], for maps with few outputs and many inputs (the probe's hidden layer): four
/// partial sums over the inputs run side by side.
void affine_t_split(const float *Wt, const float *b, const float *x, int in, int out, float *y);

/// a . b in 16 partial sums, added up in lane order at the end.
float dot(const float *a, const float *b, int n);

/// The state-blind TransH step: z <- (1 + g) * (z - (w . z) w) + d, in place (w unit, g gated).
void transh_step(const float *w, const float *d, const float *g, int D, float *z);

/// The weights the state-reading step shares between actions (Nets.h: Transition).
struct StepWeights {
    const float *state_z_t;  ///< S_z transposed, [D, R]
    const float *c_w, *c_d, *c_g;  ///< the C matrices transposed, [R, D] each
    int R = 0, D = 0;
    float residual_scale = 0;
};

/// One node of a rollout to step: the action's parts (u: R floats; w_a, d_a, g_a: D floats each) and the
/// state z (D floats), stepped in place.
struct StepNode {
    const float *u, *w_a, *d_a, *g_a;
    float *z;
};

/// The state-reading TransH step of `count` nodes: per node, s = tanh(S_z z + u); w = w_a + C_w^T s,
/// d = d_a + C_d^T s, g = g_a + C_g^T s; w normalized, g = residual_scale * tanh(g); then
/// z <- (1 + g) * (z - (w . z) w) + d. Nodes are stepped four at a time, so each weight loaded serves four
/// of them; every node's arithmetic is the same, in the same order, whatever nodes are beside it.
/// `scratch` holds 4 * (R + 3 D) floats.
void state_steps(const StepWeights &weights, const StepNode *nodes, int count, float *scratch);

}  // namespace worldtune
