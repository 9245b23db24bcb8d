#pragma once
// Tests only: builds small op graphs in code, through the same JSON reader the
// tool uses, so a test exercises exactly what a traced graph would.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "graph/graph_reader.h"

namespace ucutlass::sol::testing {

class TestGraph {
 public:
  // Adds a tensor; role "input"/"weight" also lists it in the graph's inputs/weights.
  std::string tensor(std::vector<int64_t> shape, std::string dtype = "float32", std::string role = "intermediate") {
    std::string id = "t" + std::to_string(tensors_.size());
    tensors_.push_back({{"id", id}, {"name", id}, {"shape", shape}, {"dtype", dtype}, {"role", role}});
    if (role == "input") inputs_.push_back(id);
    if (role == "weight") weights_.push_back(id);
    return id;
  }
  std::string input(std::vector<int64_t> shape, std::string dtype = "float32") { return tensor(shape, dtype, "input"); }
  std::string weight(std::vector<int64_t> shape, std::string dtype = "float32") { return tensor(shape, dtype, "weight"); }

  static nlohmann::json ref(const std::string& id) { return {{"tensor", id}}; }

  // Adds a node; tensor inputs are the {"tensor": id} entries of args and kwargs.
  void node(const std::string& op, nlohmann::json args, std::vector<std::string> outputs,
            nlohmann::json kwargs = nlohmann::json::object()) {
    std::vector<std::string> inputs;
    auto collect = [&](const nlohmann::json& v) {
      if (v.is_object() && v.contains("tensor")) inputs.push_back(v["tensor"]);
    };
    for (const auto& a : args) collect(a);
    for (const auto& [_, v] : kwargs.items()) collect(v);
    nodes_.push_back({{"id", "n" + std::to_string(nodes_.size())},
                      {"op", op},
                      {"inputs", inputs},
                      {"outputs", outputs},
                      {"args", args},
                      {"kwargs", kwargs}});
  }
  void output(const std::string& id) { outputs_.push_back(id); }

  nlohmann::json json() const {
    return {{"format", "ucutlass-opgraph"}, {"version", 1},          {"dialect", "aten"},
            {"problem", {{"name", "test"}, {"file", "test.py"}}},
            {"tensors", tensors_},          {"nodes", nodes_},        {"inputs", inputs_},
            {"weights", weights_},          {"outputs", outputs_}};
  }

  graph::OpGraph build() const {
    graph::OpGraph g;
    std::string err;
    EXPECT_TRUE(graph::read_op_graph(json().dump(), "test.json", &g, &err)) << err;
    return g;
  }

 private:
  std::vector<nlohmann::json> tensors_, nodes_;
  std::vector<std::string> inputs_, weights_, outputs_;
};

}  // namespace ucutlass::sol::testing
