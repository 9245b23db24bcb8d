#include "graph/graph_reader.h"

#include <fstream>
#include <sstream>
#include <unordered_set>

#include "support/did_you_mean.h"
#include "support/source_file.h"

namespace ucutlass::graph {

namespace {

using nlohmann::json;

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// The JSON type of a value, in words a person reads in an error.
std::string type_words(const json& v) {
  if (v.is_number_integer()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string " + v.dump();
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  return "an object";
}

class Reader {
 public:
  Reader(const std::string& path, std::string* err) : path_(path), err_(err) {}

  bool fail(const std::string& pointer, const std::string& message) {
    *err_ = path_ + ": " + (pointer.empty() ? std::string("(top level)") : pointer) + ": " + message;
    return false;
  }

  // A required member of the given kind; fails with "missing" or "expected".
  const json* member(const json& obj, const std::string& pointer, const char* key, json::value_t kind,
                     const char* kind_words, bool required = true) {
    auto it = obj.find(key);
    std::string p = pointer + "/" + key;
    if (it == obj.end() || (it->is_null() && !required)) {
      if (required) fail(pointer, std::string("missing required member \"") + key + "\"");
      return nullptr;
    }
    bool ok = it->type() == kind ||
              (kind == json::value_t::number_integer && it->is_number_unsigned());
    if (!ok) {
      fail(p, std::string("expected ") + kind_words + ", found " + type_words(*it));
      return nullptr;
    }
    return &*it;
  }

  bool read(const json& root, OpGraph* g) {
    if (!root.is_object()) return fail("", "expected a JSON object, found " + type_words(root));
    const json* format = member(root, "", "format", json::value_t::string, "a string");
    if (!format) return false;
    if (*format != "ucutlass-opgraph")
      return fail("/format", "expected \"ucutlass-opgraph\", found " + format->dump());
    const json* version = member(root, "", "version", json::value_t::number_integer, "an integer");
    if (!version) return false;
    if (*version != 1)
      return fail("/version", "unsupported version " + version->dump() + " (this ucutlass reads version 1)");
    const json* dialect = member(root, "", "dialect", json::value_t::string, "a string");
    if (!dialect) return false;
    if (*dialect != "aten") return fail("/dialect", "unsupported dialect " + dialect->dump() + " (expected \"aten\")");

    if (auto it = root.find("problem"); it != root.end() && !it->is_null()) {
      if (!it->is_object()) return fail("/problem", "expected an object, found " + type_words(*it));
      if (auto n = it->find("name"); n != it->end() && n->is_string()) g->problem_name = n->get<std::string>();
      if (auto f = it->find("file"); f != it->end() && f->is_string()) g->problem_file = f->get<std::string>();
    }

    const json* tensors = member(root, "", "tensors", json::value_t::array, "an array");
    if (!tensors) return false;
    for (size_t i = 0; i < tensors->size(); ++i)
      if (!read_tensor((*tensors)[i], "/tensors/" + std::to_string(i), g)) return false;

    for (const char* list : {"inputs", "weights", "outputs"}) {
      std::vector<int>& dst = std::string(list) == "inputs" ? g->inputs
                              : std::string(list) == "weights" ? g->weights : g->outputs;
      const json* ids = member(root, "", list, json::value_t::array, "an array of tensor ids");
      if (!ids) return false;
      for (size_t i = 0; i < ids->size(); ++i) {
        int t = tensor_ref((*ids)[i], std::string("/") + list + "/" + std::to_string(i), *g);
        if (t < 0) return false;
        dst.push_back(t);
      }
    }

    std::vector<bool> available(g->tensors.size(), false);
    for (size_t t = 0; t < g->tensors.size(); ++t) {
      TensorRole r = g->tensors[t].role;
      available[t] = r == TensorRole::input || r == TensorRole::weight || r == TensorRole::buffer ||
                     r == TensorRole::constant;
    }
    for (int t : g->inputs) available[t] = true;
    for (int t : g->weights) available[t] = true;

    const json* nodes = member(root, "", "nodes", json::value_t::array, "an array");
    if (!nodes) return false;
    std::vector<std::string> producer(g->tensors.size());
    for (size_t i = 0; i < nodes->size(); ++i)
      if (!read_node((*nodes)[i], "/nodes/" + std::to_string(i), g, &available, &producer)) return false;

    for (size_t i = 0; i < g->outputs.size(); ++i) {
      int t = g->outputs[i];
      if (!available[t])
        return fail("/outputs/" + std::to_string(i),
                    "output tensor " + in_quotes(g->tensors[t].id) + " is never produced by any node");
    }
    return true;
  }

 private:
  int tensor_ref(const json& v, const std::string& pointer, const OpGraph& g) {
    if (!v.is_string()) {
      fail(pointer, "expected a tensor id string, found " + type_words(v));
      return -1;
    }
    int t = g.find_tensor(v.get<std::string>());
    if (t < 0) {
      std::vector<std::string> ids;
      for (const Tensor& x : g.tensors) ids.push_back(x.id);
      std::string msg = "unknown tensor id " + v.dump();
      std::string near = ids.size() < 5000 ? closest_name(v.get<std::string>(), ids) : "";
      if (!near.empty()) msg += " (did you mean " + in_quotes(near) + "?)";
      fail(pointer, msg);
    }
    return t;
  }

  bool int_list(const json& v, const std::string& pointer, std::vector<int64_t>* out, bool non_negative) {
    for (size_t i = 0; i < v.size(); ++i) {
      const json& e = v[i];
      std::string p = pointer + "/" + std::to_string(i);
      if (!e.is_number_integer()) return fail(p, "expected an integer, found " + type_words(e));
      int64_t x = e.get<int64_t>();
      if (non_negative && x < 0) return fail(p, "a dimension cannot be negative (" + std::to_string(x) + ")");
      out->push_back(x);
    }
    return true;
  }

  bool flatten_values(const json& v, const std::string& pointer, std::vector<double>* out) {
    if (v.is_number()) {
      out->push_back(v.get<double>());
      return true;
    }
    if (v.is_boolean()) {
      out->push_back(v.get<bool>() ? 1.0 : 0.0);
      return true;
    }
    if (!v.is_array()) return fail(pointer, "expected a number or a nested array of numbers, found " + type_words(v));
    for (size_t i = 0; i < v.size(); ++i)
      if (!flatten_values(v[i], pointer + "/" + std::to_string(i), out)) return false;
    return true;
  }

  bool read_tensor(const json& v, const std::string& pointer, OpGraph* g) {
    if (!v.is_object()) return fail(pointer, "expected a tensor object, found " + type_words(v));
    Tensor t;
    const json* id = member(v, pointer, "id", json::value_t::string, "a string");
    if (!id) return false;
    t.id = id->get<std::string>();
    if (t.id.empty()) return fail(pointer + "/id", "a tensor id cannot be empty");
    if (int prev = g->find_tensor(t.id); prev >= 0)
      return fail(pointer + "/id", "duplicate tensor id " + in_quotes(t.id) + " (first defined at /tensors/" +
                                       std::to_string(prev) + ")");
    if (auto n = v.find("name"); n != v.end() && n->is_string()) t.name = n->get<std::string>();

    const json* shape = member(v, pointer, "shape", json::value_t::array, "an array of integers");
    if (!shape || !int_list(*shape, pointer + "/shape", &t.shape, true)) return false;
    if (const json* stride = member(v, pointer, "stride", json::value_t::array, "an array of integers", false)) {
      if (!int_list(*stride, pointer + "/stride", &t.stride, false)) return false;
      if (t.stride.size() != t.shape.size())
        return fail(pointer + "/stride", "has " + std::to_string(t.stride.size()) + " entries but the shape has " +
                                             std::to_string(t.shape.size()));
    } else if (!err_->empty()) {
      return false;
    }

    const json* dtype = member(v, pointer, "dtype", json::value_t::string, "a string");
    if (!dtype) return false;
    std::optional<DType> d = parse_dtype(dtype->get<std::string>());
    if (!d) {
      std::string msg = "unknown dtype " + dtype->dump();
      std::string near = closest_name(dtype->get<std::string>(), dtype_names());
      if (!near.empty()) msg += " (did you mean " + in_quotes(near) + "?)";
      return fail(pointer + "/dtype", msg + "; legal: " + join_names(dtype_names()));
    }
    t.dtype = *d;

    const json* role = member(v, pointer, "role", json::value_t::string, "a string");
    if (!role) return false;
    std::optional<TensorRole> r = parse_role(role->get<std::string>());
    if (!r)
      return fail(pointer + "/role", "unknown role " + role->dump() +
                                         "; legal: input, weight, buffer, constant, intermediate, output");
    t.role = *r;

    if (auto val = v.find("value"); val != v.end() && !val->is_null()) {
      std::vector<double> values;
      if (!flatten_values(*val, pointer + "/value", &values)) return false;
      if (static_cast<int64_t>(values.size()) != t.numel() && values.size() != 1)
        return fail(pointer + "/value", "has " + std::to_string(values.size()) + " elements but the shape holds " +
                                            std::to_string(t.numel()));
      t.value = std::move(values);
    }
    g->add_tensor(std::move(t));
    return true;
  }

  // Every {"tensor": id} inside args/kwargs must name a known tensor.
  bool check_arg_tensors(const json& v, const std::string& pointer, const OpGraph& g) {
    if (v.is_object()) {
      if (auto t = v.find("tensor"); t != v.end() && v.size() == 1)
        return tensor_ref(*t, pointer + "/tensor", g) >= 0;
      for (auto it = v.begin(); it != v.end(); ++it)
        if (!check_arg_tensors(it.value(), pointer + "/" + it.key(), g)) return false;
    } else if (v.is_array()) {
      for (size_t i = 0; i < v.size(); ++i)
        if (!check_arg_tensors(v[i], pointer + "/" + std::to_string(i), g)) return false;
    }
    return true;
  }

  bool read_node(const json& v, const std::string& pointer, OpGraph* g, std::vector<bool>* available,
                 std::vector<std::string>* producer) {
    if (!v.is_object()) return fail(pointer, "expected a node object, found " + type_words(v));
    Node n;
    const json* id = member(v, pointer, "id", json::value_t::string, "a string");
    if (!id) return false;
    n.id = id->get<std::string>();
    const json* op = member(v, pointer, "op", json::value_t::string, "a string");
    if (!op) return false;
    n.op = op->get<std::string>();
    if (n.op.empty()) return fail(pointer + "/op", "an op name cannot be empty");

    const json* inputs = member(v, pointer, "inputs", json::value_t::array, "an array of tensor ids");
    if (!inputs) return false;
    for (size_t i = 0; i < inputs->size(); ++i) {
      std::string p = pointer + "/inputs/" + std::to_string(i);
      int t = tensor_ref((*inputs)[i], p, *g);
      if (t < 0) return false;
      if (!(*available)[t])
        return fail(p, "tensor " + in_quotes(g->tensors[t].id) + " is read before any node produces it");
      n.inputs.push_back(t);
    }
    const json* outputs = member(v, pointer, "outputs", json::value_t::array, "an array of tensor ids");
    if (!outputs) return false;
    for (size_t i = 0; i < outputs->size(); ++i) {
      std::string p = pointer + "/outputs/" + std::to_string(i);
      int t = tensor_ref((*outputs)[i], p, *g);
      if (t < 0) return false;
      if (!(*producer)[t].empty())
        return fail(p, "tensor " + in_quotes(g->tensors[t].id) + " is already produced by node " +
                           in_quotes((*producer)[t]));
      if ((*available)[t])
        return fail(p, "tensor " + in_quotes(g->tensors[t].id) + " is a graph " + role_name(g->tensors[t].role) +
                           " and cannot be a node output");
      (*producer)[t] = n.id;
      n.outputs.push_back(t);
    }
    if (auto a = v.find("args"); a != v.end() && !a->is_null()) {
      if (!a->is_array()) return fail(pointer + "/args", "expected an array, found " + type_words(*a));
      if (!check_arg_tensors(*a, pointer + "/args", *g)) return false;
      n.args = *a;
    }
    if (auto k = v.find("kwargs"); k != v.end() && !k->is_null()) {
      if (!k->is_object()) return fail(pointer + "/kwargs", "expected an object, found " + type_words(*k));
      if (!check_arg_tensors(*k, pointer + "/kwargs", *g)) return false;
      n.kwargs = *k;
    }
    for (int t : n.outputs) (*available)[t] = true;
    g->nodes.push_back(std::move(n));
    return true;
  }

  const std::string& path_;
  std::string* err_;
};

}  // namespace

bool read_op_graph(std::string_view text, const std::string& path, OpGraph* out, std::string* err) {
  err->clear();
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann's message repeats a line/column we compute better ourselves.
    std::string what = e.what();
    size_t column = what.find("column");
    size_t colon = column == std::string::npos ? std::string::npos : what.find(": ", column);
    std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    SourceFile file(path, std::string(text));
    size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    if (offset > text.size()) offset = text.size();
    LineCol lc = file.line_col(static_cast<uint32_t>(offset));
    *err = path + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column) + ": invalid JSON: " + detail;
    return false;
  }
  OpGraph g;
  Reader reader(path, err);
  if (!reader.read(root, &g)) return false;
  *out = std::move(g);
  return true;
}

bool load_op_graph_file(const std::string& path, OpGraph* out, std::string* err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *err = path + ": cannot open the graph file";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return read_op_graph(text.str(), path, out, err);
}

}  // namespace ucutlass::graph
