// One libFuzzer binary per target: FUZZ_TARGET names the function of FuzzTargets.h (CMakeLists.txt,
// WORLDTUNE_FUZZ).
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return worldtune::fuzz::FUZZ_TARGET(data, size); }
