#include "measure/OutputCheck.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

namespace worldtune {

std::vector<Halide::Buffer<float>> random_inputs(const Workload &w, uint64_t seed) {
    std::vector<Halide::Buffer<float>> buffers;
    for (size_t i = 0; i < w.input_shapes.size(); i++) {
        Halide::Buffer<float> b(w.input_shapes[i]);
        std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + i + 1);
        std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
        b.for_each_value([&](float &v) { v = uniform(rng); });
        buffers.push_back(arrange_in_layout(b, w.input_layouts[i]));
    }
    return buffers;
}

std::vector<std::vector<int>> check_points(const std::vector<int> &shape, uint64_t seed) {
    std::vector<std::vector<int>> points;
    int64_t total = 1;
    for (int e : shape) total *= e;
    if (total <= 0) return points;
    const size_t dims = shape.size();

    if (total <= kCheckAllPointsUpTo) {
        std::vector<int> p(dims, 0);
        for (int64_t i = 0; i < total; i++) {
            points.push_back(p);
            for (size_t d = 0; d < dims && ++p[d] == shape[d]; d++) p[d] = 0;
        }
        return points;
    }

    std::mt19937_64 rng(seed ^ 0xC0FFEE123456789ull);
    auto random_point = [&] {
        std::vector<int> p(dims);
        for (size_t d = 0; d < dims; d++) p[d] = std::uniform_int_distribution<int>(0, shape[d] - 1)(rng);
        return p;
    };
    for (int i = 0; i < kRandomCheckPoints; i++) points.push_back(random_point());
    // Tails of split loops live at the high end of each dim, and bugs in boundary handling at either end.
    if (dims <= 12)
        for (uint64_t mask = 0; mask < (uint64_t(1) << dims); mask++) {
            std::vector<int> p(dims);
            for (size_t d = 0; d < dims; d++) p[d] = (mask >> d) & 1 ? shape[d] - 1 : 0;
            points.push_back(p);
        }
    for (size_t d = 0; d < dims; d++)
        for (int side = 0; side < 2; side++)
            for (int i = 0; i < kEdgeCheckPointsPerSide; i++) {
                std::vector<int> p = random_point();
                p[d] = side ? shape[d] - 1 : 0;
                points.push_back(p);
            }
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    return points;
}

int64_t reduction_length(const Workload &w) {
    int64_t longest = 1;
    for (const FuncInfo &f : w.func_infos)
        for (const StageInfo &s : f.stages) {
            int64_t length = 1;
            for (const LoopDim &d : s.dims)
                if (d.reduction) length *= d.extent;
            longest = std::max(longest, length);
        }
    return longest;
}

namespace {

std::string point_text(const std::string &name, const std::vector<int> &p) {
    std::ostringstream out;
    out << name << "(";
    for (size_t d = 0; d < p.size(); d++) out << (d ? ", " : "") << p[d];
    out << ")";
    return out.str();
}

}  // namespace

CheckReport check_output(const Workload &w, const std::vector<Halide::Buffer<float>> &inputs,
                         const Halide::Buffer<float> &output, double rtol, double atol, uint64_t seed) {
    CheckReport report;
    const double abs_tol = atol * std::sqrt(double(reduction_length(w)));
    const std::string name = w.func_infos.empty() ? "out" : w.func_infos.back().name;
    for (const std::vector<int> &p : check_points(w.output_shape, seed)) {
        const double ref = reference_at(w, inputs, p);
        const double got = output(p.data());
        const double diff = std::abs(got - ref);
        const double tol = abs_tol + rtol * std::abs(ref);
        report.checked++;
        if (diff <= tol) continue;  // false for NaN
        if (report.mismatches++ == 0) {
            std::ostringstream out;
            out.precision(7);
            out << point_text(name, p) << " = " << got << " but reference " << ref << " (|diff| " << diff
                << " > tolerance " << tol << ")";
            report.first_mismatch = out.str();
        }
    }
    report.ok = report.mismatches == 0;
    return report;
}

}  // namespace worldtune
