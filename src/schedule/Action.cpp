#include "schedule/Action.h"

#include <fstream>
#include <sstream>

namespace worldtune {

using nlohmann::json;

namespace {

struct KindRow {
    ActionKind kind;
    const char *tag;
};
constexpr KindRow kKinds[] = {
    {ActionKind::Split, "SP"},       {ActionKind::Reorder, "RE"},       {ActionKind::Fuse, "FU"},
    {ActionKind::Annotate, "AN"},    {ActionKind::ComputeAt, "CA"},     {ActionKind::StoreAt, "SA"},
    {ActionKind::ComputeRoot, "CR"}, {ActionKind::ComputeInline, "CI"}, {ActionKind::RFactor, "RF"},
    {ActionKind::Cache, "CH"},       {ActionKind::StorageOrder, "SO"},  {ActionKind::BlockLayout, "BL"},
    {ActionKind::Winograd, "WG"},
};

constexpr const char *kTailNames[] = {"auto", "guard", "shift", "round"};
constexpr const char *kAnnotationNames[] = {"parallel", "vectorize", "unroll"};

[[noreturn]] void fail(const json &j, const std::string &why) {
    throw ActionFormatError("bad action " + j.dump() + ": " + why);
}

std::string str_at(const json &j, size_t i, const char *what) {
    if (i >= j.size() || !j[i].is_string()) fail(j, std::string("expected ") + what + " (a string) at position " + std::to_string(i));
    return j[i].get<std::string>();
}

void expect_size(const json &j, size_t n) {
    if (j.size() != n) fail(j, "expected " + std::to_string(n) + " elements, got " + std::to_string(j.size()));
}

void require_name(const json &j, const std::string &name, const char *what) {
    if (name.empty()) fail(j, std::string(what) + " is empty");
}

}  // namespace

const char *tail_name(TailKind t) { return kTailNames[static_cast<int>(t)]; }
const char *annotation_name(AnnotationKind a) { return kAnnotationNames[static_cast<int>(a)]; }

Action Action::split(std::string stage, std::string dim, std::vector<int64_t> factors, TailKind tail) {
    Action a;
    a.kind = ActionKind::Split;
    a.stage = std::move(stage);
    a.dims = {std::move(dim)};
    a.factors = std::move(factors);
    a.tail = tail;
    return a;
}

Action Action::reorder(std::string stage, std::vector<std::string> inner_to_outer) {
    Action a;
    a.kind = ActionKind::Reorder;
    a.stage = std::move(stage);
    a.dims = std::move(inner_to_outer);
    return a;
}

Action Action::fuse(std::string stage, std::string inner, std::string outer, std::string fused) {
    Action a;
    a.kind = ActionKind::Fuse;
    a.stage = std::move(stage);
    a.dims = {std::move(inner), std::move(outer), std::move(fused)};
    return a;
}

Action Action::annotate(std::string stage, std::string dim, AnnotationKind kind) {
    Action a;
    a.kind = ActionKind::Annotate;
    a.stage = std::move(stage);
    a.dims = {std::move(dim)};
    a.annotation = kind;
    return a;
}

Action Action::compute_at(std::string func, std::string consumer, std::string dim) {
    Action a;
    a.kind = ActionKind::ComputeAt;
    a.stage = std::move(func);
    a.consumer = std::move(consumer);
    a.dims = {std::move(dim)};
    return a;
}

Action Action::store_at(std::string func, std::string consumer, std::string dim) {
    Action a = compute_at(std::move(func), std::move(consumer), std::move(dim));
    a.kind = ActionKind::StoreAt;
    return a;
}

Action Action::compute_root(std::string func) {
    Action a;
    a.kind = ActionKind::ComputeRoot;
    a.stage = std::move(func);
    return a;
}

Action Action::compute_inline(std::string func) {
    Action a = compute_root(std::move(func));
    a.kind = ActionKind::ComputeInline;
    return a;
}

Action Action::rfactor(std::string stage, std::string rvar, std::string var) {
    Action a;
    a.kind = ActionKind::RFactor;
    a.stage = std::move(stage);
    a.dims = {std::move(rvar), std::move(var)};
    return a;
}

Action Action::cache(std::string func, std::string consumer) {
    Action a;
    a.kind = ActionKind::Cache;
    a.stage = std::move(func);
    a.consumer = std::move(consumer);
    return a;
}

Action Action::storage_order(std::string func, std::vector<std::string> inner_to_outer) {
    Action a = reorder(std::move(func), std::move(inner_to_outer));
    a.kind = ActionKind::StorageOrder;
    return a;
}

Action Action::block_layout(std::string input, std::string dim, int64_t block) {
    Action a;
    a.kind = ActionKind::BlockLayout;
    a.stage = std::move(input);
    a.dims = {std::move(dim)};
    a.factors = {block};
    return a;
}

Action Action::winograd(std::string func, int64_t tile) {
    Action a;
    a.kind = ActionKind::Winograd;
    a.stage = std::move(func);
    a.factors = {tile};
    return a;
}

const char *Action::tag() const {
    for (const KindRow &row : kKinds)
        if (row.kind == kind) return row.tag;
    return "??";
}

std::string Action::func() const {
    size_t dot = stage.find(".u");
    return dot == std::string::npos ? stage : stage.substr(0, dot);
}

std::string Action::split_name(size_t i) const {
    std::string name = dims.empty() ? "" : dims[0];
    for (char &c : name)
        if (c == '$') c = '_';
    name += '_';
    name += std::to_string(i);
    return name;
}

std::vector<std::string> Action::split_names() const {
    std::vector<std::string> names;
    for (size_t i = 0; i <= factors.size(); i++) names.push_back(split_name(i));
    return names;
}

std::string Action::created_func() const {
    if (kind == ActionKind::RFactor) return func() + "_rf";
    if (kind == ActionKind::Cache) return consumer.empty() ? stage + "_in" : stage + "_in_" + consumer;
    return "";
}

json Action::to_json() const {
    switch (kind) {
    case ActionKind::Split: return json::array({"SP", stage, dims.at(0), factors, tail_name(tail)});
    case ActionKind::Reorder: return json::array({"RE", stage, dims});
    case ActionKind::Fuse: return json::array({"FU", stage, dims.at(0), dims.at(1), dims.at(2)});
    case ActionKind::Annotate: return json::array({"AN", stage, dims.at(0), annotation_name(annotation)});
    case ActionKind::ComputeAt: return json::array({"CA", stage, consumer, dims.at(0)});
    case ActionKind::StoreAt: return json::array({"SA", stage, consumer, dims.at(0)});
    case ActionKind::ComputeRoot: return json::array({"CR", stage});
    case ActionKind::ComputeInline: return json::array({"CI", stage});
    case ActionKind::RFactor: return json::array({"RF", stage, dims.at(0), dims.at(1)});
    case ActionKind::Cache: return json::array({"CH", stage, consumer});
    case ActionKind::StorageOrder: return json::array({"SO", stage, dims});
    case ActionKind::BlockLayout: return json::array({"BL", stage, dims.at(0), factors.at(0)});
    case ActionKind::Winograd: return json::array({"WG", stage, factors.at(0)});
    }
    return json();
}

Action Action::from_json(const json &j) {
    if (!j.is_array() || j.empty() || !j[0].is_string()) fail(j, "an action is a JSON array starting with its two-letter tag");
    const std::string tag = j[0].get<std::string>();
    const std::string stage = str_at(j, 1, "stage");
    require_name(j, stage, "stage");
    if (tag == "SP") {
        expect_size(j, 5);
        if (!j[3].is_array() || j[3].empty()) fail(j, "split factors must be a non-empty array");
        std::vector<int64_t> factors;
        for (const json &f : j[3]) {
            if (!f.is_number_integer() || f.get<int64_t>() < 1) fail(j, "split factors must be positive integers");
            factors.push_back(f.get<int64_t>());
        }
        std::string tail = str_at(j, 4, "tail");
        for (int t = 0; t < 4; t++)
            if (tail == kTailNames[t]) return split(stage, str_at(j, 2, "dim"), factors, static_cast<TailKind>(t));
        fail(j, "tail must be auto|guard|shift|round");
    }
    if (tag == "RE" || tag == "SO") {
        expect_size(j, 3);
        if (!j[2].is_array() || j[2].size() < 2) fail(j, tag + " needs an array of at least two loop names");
        std::vector<std::string> order;
        for (size_t i = 0; i < j[2].size(); i++) order.push_back(str_at(j[2], i, "loop name"));
        return tag == "RE" ? reorder(stage, order) : storage_order(stage, order);
    }
    if (tag == "FU") {
        expect_size(j, 5);
        return fuse(stage, str_at(j, 2, "inner"), str_at(j, 3, "outer"), str_at(j, 4, "fused name"));
    }
    if (tag == "AN") {
        expect_size(j, 4);
        std::string ann = str_at(j, 3, "annotation");
        for (int a = 0; a < 3; a++)
            if (ann == kAnnotationNames[a]) return annotate(stage, str_at(j, 2, "dim"), static_cast<AnnotationKind>(a));
        fail(j, "annotation must be parallel|vectorize|unroll");
    }
    if (tag == "CA" || tag == "SA") {
        expect_size(j, 4);
        Action a = compute_at(stage, str_at(j, 2, "consumer"), str_at(j, 3, "dim"));
        if (tag == "SA") a.kind = ActionKind::StoreAt;
        return a;
    }
    if (tag == "CR" || tag == "CI") {
        expect_size(j, 2);
        return tag == "CR" ? compute_root(stage) : compute_inline(stage);
    }
    if (tag == "RF") {
        expect_size(j, 4);
        return rfactor(stage, str_at(j, 2, "rvar"), str_at(j, 3, "new var"));
    }
    if (tag == "CH") {
        expect_size(j, 3);
        return cache(stage, str_at(j, 2, "consumer"));
    }
    if (tag == "BL") {
        expect_size(j, 4);
        if (!j[3].is_number_integer() || j[3].get<int64_t>() < 2) fail(j, "a block is an integer of at least 2");
        return block_layout(stage, str_at(j, 2, "dim"), j[3].get<int64_t>());
    }
    if (tag == "WG") {
        expect_size(j, 3);
        if (!j[2].is_number_integer() || j[2].get<int64_t>() < 2) fail(j, "a Winograd tile is an integer of at least 2");
        return winograd(stage, j[2].get<int64_t>());
    }
    fail(j, "unknown tag '" + tag + "' (known: SP RE FU AN CA SA CR CI RF CH SO BL WG)");
}

int winograd_tile_of(const ActionList &actions) {
    for (const Action &a : actions) {
        if (!a.rebuilds()) break;  // the rebuilding actions come first
        if (a.kind == ActionKind::Winograd) return int(a.factors.at(0));
    }
    return 0;
}

json actions_to_json(const ActionList &actions) {
    json j = json::array();
    for (const Action &a : actions) j.push_back(a.to_json());
    return j;
}

ActionList actions_from_json(const json &j) {
    const json &list = (j.is_object() && j.contains("actions")) ? j["actions"] : j;
    if (!list.is_array()) throw ActionFormatError("an action list is a JSON array of actions");
    ActionList actions;
    for (const json &a : list) actions.push_back(Action::from_json(a));
    return actions;
}

ActionList read_actions_file(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw ActionFormatError("cannot read actions file '" + path + "'");
    std::stringstream text;
    text << in.rdbuf();
    json j = json::parse(text.str(), nullptr, false);
    if (j.is_discarded()) throw ActionFormatError("actions file '" + path + "' is not valid JSON");
    return actions_from_json(j);
}

}  // namespace worldtune
