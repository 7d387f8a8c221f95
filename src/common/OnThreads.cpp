#include "common/OnThreads.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace worldtune {

void for_each_on_threads(size_t count, int threads, const std::function<void(size_t)> &work) {
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr first_error;
    std::mutex error_mutex;
    auto worker = [&] {
        for (size_t i; !failed && (i = next++) < count;) {
            try {
                work(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!first_error) first_error = std::current_exception();
                failed = true;
            }
        }
    };
    const size_t workers = std::min(size_t(std::max(1, threads)), count);
    std::vector<std::thread> pool;
    for (size_t t = 1; t < workers; t++) pool.emplace_back(worker);
    if (count > 0) worker();
    for (std::thread &t : pool) t.join();
    if (first_error) std::rethrow_exception(first_error);
}

}  // namespace worldtune
