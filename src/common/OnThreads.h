// Work spread over threads: each thread takes the next unclaimed item until none is left.
#pragma once

#include <cstddef>
#include <functional>

namespace worldtune {

/// Calls work(i) once for every i in [0, count), on up to `threads` threads (the calling thread is one of
/// them); returns when every call has ended. If a call throws, no further items are started and the first
/// exception is rethrown here once the other threads have finished theirs.
void for_each_on_threads(size_t count, int threads, const std::function<void(size_t)> &work);

}  // namespace worldtune
