#include "farm/FarmProtocol.h"

#include "measure/WorkerProtocol.h"
#include "store/RecordStore.h"

namespace worldtune {

using nlohmann::json;

json measure_params_to_json(const MeasureParams &p) {
    return {{"threads", p.threads},
            {"timeout_seconds", p.timeout_seconds},
            {"startup_timeout_seconds", p.startup_timeout_seconds},
            {"timing", to_json(p.timing)},
            {"check_output", p.check_output},
            {"rtol", p.rtol},
            {"atol", p.atol},
            {"seed", p.seed}};
}

MeasureParams measure_params_from_json(const json &j) {
    MeasureParams p;  // worker_binary stays "": each measurer runs its own binary
    p.threads = j.at("threads").get<int>();
    p.timeout_seconds = j.at("timeout_seconds").get<double>();
    p.startup_timeout_seconds = j.at("startup_timeout_seconds").get<double>();
    p.timing = timing_params_from_json(j.at("timing"));
    p.check_output = j.at("check_output").get<bool>();
    p.rtol = j.at("rtol").get<double>();
    p.atol = j.at("atol").get<double>();
    p.seed = j.at("seed").get<uint64_t>();
    return p;
}

std::string farm_task_text(const FarmTask &task) {
    const json j = {{"id", task.id}, {"spec", task.spec}, {"actions", task.actions},
                    {"params", measure_params_to_json(task.params)}};
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

FarmTask farm_task_from_text(const std::string &text) {
    const json j = json::parse(text);
    FarmTask t;
    t.id = j.at("id").get<int64_t>();
    t.spec = j.at("spec").get<std::string>();
    t.actions = j.at("actions");
    t.params = measure_params_from_json(j.at("params"));
    return t;
}

std::string farm_result_text(int64_t id, const MeasureResult &result) {
    Record record;
    record.result = result;
    const json j = {{"id", id}, {"record", RecordStore::record_to_json(record)}};
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

MeasureResult farm_result_from_text(const std::string &text, int64_t &id) {
    const json j = json::parse(text);
    id = j.at("id").get<int64_t>();
    return RecordStore::record_from_json(j.at("record")).result;
}

std::string hardware_group_of(const json &hello) {
    const json &hw = hello.at("hardware");
    return hw.value("cpu_model", std::string("unknown CPU")) + ", " + std::to_string(hw.value("logical_cores", 0)) +
           " cores, " + hw.value("halide_target", std::string("unknown target"));
}

}  // namespace worldtune
