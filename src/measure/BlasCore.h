// OpenBLAS's kernels follow the machine's vector width, not the CPU model a library release knew.
//
// OpenBLAS (built for every x86 core, as Debian ships it) picks its kernels once, as it loads, from the
// CPU's family and model numbers. A model newer than the library, or one a hypervisor reports, falls back
// to an older core with narrower vectors than the machine has. Everything here that runs on OpenBLAS then
// runs slower than the machine allows: the OpenBLAS and libtorch peers (their matmuls) and the world
// model's encoder (torch's matrix products). These functions choose the core from the ISA instead when the
// one OpenBLAS chose is narrower. OPENBLAS_CORETYPE set by the user always wins.
#pragma once

#include <string>

namespace worldtune {

/// The vector width in bits of an OpenBLAS core name ("SkylakeX" 512, "Haswell" 256, "Prescott" 128);
/// 0 for a name it does not know.
int openblas_core_width(const std::string &core);

/// The core OpenBLAS should use on a machine whose widest float vectors are `isa_width` bits, when it
/// chose `detected` ("" when that choice is as wide as the machine, or either width is unknown).
std::string openblas_core_for(const std::string &detected, int isa_width);

/// The widest float vectors of this machine in bits (512 with avx512f, 256 with avx2, else 128).
int machine_vector_width();

/// When OpenBLAS chose a core narrower than this machine and the environment names none, restarts this
/// program (same arguments, same process) with OPENBLAS_CORETYPE set; otherwise returns. A failed
/// restart returns too: the program then runs as before.
void use_full_width_openblas(char **argv);

}  // namespace worldtune
