// The messages between rank 0 of a measurement farm and its measurer ranks, as JSON text. Independent of
// MPI, so both ends and their tests share one definition.
//
//   Hello      measurer -> 0   once at start: {"hardware": {hardware_json(), Halide target included}, "pid": N}
//   Task       0 -> measurer   {"id": N, "spec": "...", "actions": [...], "params": {MeasureParams}}
//   Result     measurer -> 0   {"id": N, "record": {RecordStore JSONL object}}
//   Heartbeat  measurer -> 0   empty, every FarmParams::heartbeat_seconds, also while measuring
//   Stop       0 -> measurer   empty: finish and exit
#pragma once

#include "measure/Measurer.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace worldtune {

enum class FarmTag : int { Hello = 1, Task = 2, Result = 3, Heartbeat = 4, Stop = 5 };

/// Every knob of a farm, with its default and unit.
struct FarmParams {
    int queue_depth = 2;            ///< candidates sent ahead to each measurer (it never waits for rank 0)
    double heartbeat_seconds = 1;   ///< how often a measurer says it is alive
    double silence_seconds = 10;    ///< a measurer with work that is silent this long is lost; its work is requeued
    double orphan_seconds = 3600;   ///< a measurer that hears nothing from rank 0 this long exits
    double poll_seconds = 0.001;    ///< rank 0's sleep between polls while a batch is out
};

nlohmann::json measure_params_to_json(const MeasureParams &p);
/// Throws std::exception (nlohmann's) on a missing or mistyped field.
MeasureParams measure_params_from_json(const nlohmann::json &j);

struct FarmTask {
    int64_t id = 0;
    std::string spec;
    nlohmann::json actions = nlohmann::json::array();
    MeasureParams params;
};

std::string farm_task_text(const FarmTask &task);
FarmTask farm_task_from_text(const std::string &text);

/// A measured result travels as the record store's JSONL object, hardware and timestamp included.
std::string farm_result_text(int64_t id, const MeasureResult &result);
MeasureResult farm_result_from_text(const std::string &text, int64_t &id);

/// The name that groups measurers by hardware: the CPU model and its Halide target.
std::string hardware_group_of(const nlohmann::json &hello);

}  // namespace worldtune
