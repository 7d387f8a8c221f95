// `worldtune __worker --fd N` (hidden): the measuring worker a Measurer spawns; see measure/MeasureWorker.h.
#include "cli/Commands.h"

#include "measure/MeasureWorker.h"

#include <cstdlib>

namespace worldtune::cli {

void add_worker_command(CLI::App &app) {
    auto fd = std::make_shared<int>(3);
    CLI::App *cmd = app.add_subcommand("__worker", "Measuring worker (internal; spoken to over a socket)");
    cmd->group("");  // hidden from --help
    cmd->add_option("--fd", *fd, "Descriptor of the request/reply socket");
    cmd->callback([fd] { std::exit(run_measure_worker(*fd)); });
}

}  // namespace worldtune::cli
