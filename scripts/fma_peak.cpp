// The machine's float32 FMA peak, measured: each thread runs independent chains of vector fused
// multiply-adds (enough of them to hide the FMA latency) for a fixed time and counts the flops. The vector
// is the widest the compiler's target has (-march=native: 16 floats with AVX-512, 8 with AVX2, 4 otherwise),
// so the number follows the machine instead of a constant width. Built and run by scripts/fma_peak.sh.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#if defined(__AVX512F__)
constexpr int kLanes = 16;
#elif defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif
constexpr int kChains = 12;          ///< independent accumulators: latency (4-5 cycles) x 2 FMA ports, and more
constexpr long kInnerSteps = 1 << 16;  ///< FMAs per chain between clock checks

typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));

/// Runs the chains for about `seconds`; returns flops done per second.
static double run_chains(double seconds, float seed) {
    Vec acc[kChains];
    for (int c = 0; c < kChains; c++) acc[c] = Vec{} + seed * float(c + 1);
    const Vec a = Vec{} + 0.999999f, b = Vec{} + 1e-7f;
    long steps = 0;
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    while (elapsed < seconds) {
        for (long i = 0; i < kInnerSteps; i++)
            for (int c = 0; c < kChains; c++) acc[c] = acc[c] * a + b;
        steps += kInnerSteps;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    float sink = 0;
    for (int c = 0; c < kChains; c++)
        for (int l = 0; l < kLanes; l++) sink += acc[c][l];
    if (sink == 12345.678f) std::puts("");  // keeps the chains alive
    return double(steps) * kChains * kLanes * 2.0 / elapsed;
}

int main(int argc, char **argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : int(std::thread::hardware_concurrency());
    const double seconds = argc > 2 ? std::atof(argv[2]) : 2.0;
    if (threads < 1 || seconds <= 0) {
        std::fprintf(stderr, "usage: fma_peak [THREADS >= 1] [SECONDS > 0]\n");
        return 2;
    }
    std::vector<double> rates(size_t(threads), 0.0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) pool.emplace_back([&, t] { rates[size_t(t)] = run_chains(seconds, 1.0f + float(t)); });
    for (std::thread &t : pool) t.join();
    double total = 0;
    for (double r : rates) total += r;
    std::printf("fma peak: %d thread(s), %d float lanes, %.1f GFLOP/s in all, %.1f GFLOP/s per thread\n", threads, kLanes,
                total / 1e9, total / 1e9 / threads);
    return 0;
}
