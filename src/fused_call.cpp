// Fused expressions on the call pipeline: numcu.evaluate's and numcu.fuse's programs, typed per
// call signature exactly as the unfused ufunc calls are typed, and run in one pass over memory
// (fused.hpp) on the CPU backend or a GPU.
//
// The Python layer (numcu/_fusion.py) parses an expression string, or traces a function, into a
// graph of nodes once; _FusedExpr holds it. Each call:
// 1. takes its arguments in (intake), and evaluates with Python's own arithmetic the operator
//    nodes whose operands are all Python scalars (2 * x + 1 with x a Python float is a Python
//    float, as it is in unfused code, which never reaches NumPy's promotion for it);
// 2. looks the typed program up by the call's signature (each argument's dtype and whether it is
//    a Python scalar, a host scalar or an array), or compiles it: NEP 50 promotion and NumPy's
//    loop search for every op (ufunc_types' rule in elementwise_call.cpp, through the same
//    promote_all and op table), casts inserted where an operand's dtype is not its loop's, Python
//    integers checked against integer loops;
// 3. computes the ops whose operands are all scalars held by value where the unfused calls of
//    those scalars run: on the CPU before the program (numcu.sin(2.0) runs there), or, where
//    device= or stream= asks for a GPU, on it as instructions of the program over constants;
//    converts the scalars into the program's constants, places the call (device arrays keep their
//    GPU; host data goes where the placement model says, as for ufuncs), brings host inputs to the
//    GPU, and runs the program: fused on the GPU where an interpreter kernel holds it
//    (fused_gpu.hpp: its dtypes, at most 64 instructions, 16 array inputs, 32 constants and the
//    shared memory the values held at once take), else as unfused calls, one kernel per
//    instruction; always fused on the CPU.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "arguments.hpp"
#include "elementwise_call.hpp"
#include "execution.hpp"
#include "fastcall.hpp"
#include "host_memory.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/backend.hpp"
#include "numcu/checked.hpp"
#include "numcu/cpu_threads.hpp"
#include "numcu/errors.hpp"
#include "numcu/fused.hpp"
#include "numcu/runtime.hpp"
#include "pipeline.hpp"
#include "placement.hpp"
#include "promotion.hpp"

namespace numcu::python {
// A named namespace, not an anonymous one: the module is built as unity batches, whose other
// files have names of their own in anonymous namespaces.
namespace fused_call {

namespace F = ::numcu::fused;

// A node of the expression graph the Python layer builds.
struct Node {
  enum Kind { input, literal, op } kind = input;
  int index = 0;  // input: the argument; literal: into literals_; op: the op number
  std::vector<int> args;
  OpParams params;
  // For operator nodes (a + b, -a, a < b...): Python's operator, used when every operand is a
  // Python scalar. None for function calls (sin(x) is numcu.sin(x) even of a Python float).
  py::object python_op;
};

// How a typed node's value is held.
struct TypedNode {
  enum Kind { array, scalar, temp } kind = array;
  int index = 0;  // array: the program's input; scalar: the call's scalar table; temp: instr.
  DType dtype = DType::float64;
  bool weak = false;
};

// A scalar value of a call, held on the host: a Python scalar argument, a literal, a 0-d host
// array, a value Python's arithmetic gave, or a result of a host step.
struct Scalar {
  DType dtype = DType::float64;
  bool weak = false;
  alignas(16) unsigned char value[16] = {};
};

// A host step: an op of scalars only, computed on the CPU before the program runs.
struct HostStep {
  F::Instruction ins;  // src: Value::constant with `index` into the call's scalar table
  int result = 0;      // the scalar it writes
};

// A program constant: scalar `source` converted to `dtype`.
struct ConstRecipe {
  int source = 0;
  DType dtype = DType::float64;
};

// A Python integer meeting an integer loop, checked against it at each call (NumPy's
// OverflowError); `power` also checks the exponent is not negative (NumPy's ValueError).
struct ScalarCheck {
  int scalar = 0;
  DType loop = DType::int64;
  bool power_exponent = false;
  int op = 0;
};

struct TypedProgram {
  F::Program prog;                  // the device program; constants filled at each call
  std::vector<int> inputs;          // the argument behind each program input
  std::vector<ConstRecipe> consts;  // one per program constant
  std::vector<HostStep> host;
  std::vector<ScalarCheck> checks;
  int nscalars = 0;  // the call's scalar table: the arguments' and literals', then the rest
  TypedNode root;
  // The placement model's class of the program: transcendental where one of its ufuncs is, by
  // the ufunc table's cost (the extras and the cast are elementwise), as an unfused call counts.
  OpClass op_class = OpClass::elementwise;
  // Where no program runs (the result is a scalar): the scalar.
  bool scalar_result = false;
  // The program encoded for the GPU interpreter, per device (null: it runs unfused there, for
  // the reason in gpu_why). Made at the first call on a device and kept.
  struct GpuEntry {
    int device;
    std::shared_ptr<const F::GpuPlan> plan;
    std::string why;
  };
  std::vector<GpuEntry> gpu;
  const GpuEntry& gpu_plan(int device) {
    for (const GpuEntry& e : gpu) {
      if (e.device == device) return e;
    }
    GpuEntry e{device, nullptr, {}};
    e.plan = F::gpu_plan(prog, device, &e.why);
    gpu.push_back(std::move(e));
    return gpu.back();
  }
};

bool is_python_scalar(const Operand& x) { return x.kind == Operand::Kind::scalar; }
// An argument whose value the program holds as a constant: a Python scalar or a 0-d host array.
bool held_by_value(const Operand& x) { return x.kind != Operand::Kind::device && x.view.ndim == 0; }

bool can_cast(DType from, DType to, int rule) {
  switch (rule) {
    case 0:  // no
    case 1:  // equiv
      return from == to;
    case 2:  // safe
      return promote_types(from, to) == to;
    case 3:  // same_kind
      return can_cast_same_kind(from, to);
    default:  // unsafe
      return true;
  }
}

int casting_rule(py::handle casting, const char* fname) {
  if (casting.is_none()) return 2;
  if (!PyUnicode_Check(casting.ptr())) {
    throw_type_error(std::string(fname) + ": casting must be a string");
  }
  const std::string c = casting.cast<std::string>();
  if (c == "no") return 0;
  if (c == "equiv") return 1;
  if (c == "safe") return 2;
  if (c == "same_kind") return 3;
  if (c == "unsafe") return 4;
  throw_value_error(std::string(fname) +
                    ": casting must be one of 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', "
                    "not '" +
                    c + "'");
}

const char* casting_name(int rule) {
  static const char* const names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  return names[rule];
}

void scalar_view(ArrayView& v, DType dtype, unsigned char* value) {
  v.dtype = dtype;
  v.ndim = 0;
  v.device = kHost;
  v.data = reinterpret_cast<char*>(value);
}

class FusedExpr {
 public:
  FusedExpr(py::sequence nodes, int ninputs, std::string fname, std::string text)
      : fname_(std::move(fname)), text_(std::move(text)), ninputs_(ninputs) {
    if (ninputs < 0) throw_value_error(fname_ + ": negative input count");
    for (py::handle h : nodes) {
      const py::tuple t = py::reinterpret_borrow<py::tuple>(h);
      const std::string kind = t[0].cast<std::string>();
      Node n;
      if (kind == "input") {
        n.kind = Node::input;
        n.index = t[1].cast<int>();
        if (n.index < 0 || n.index >= ninputs) throw_value_error(fname_ + ": bad input node");
      } else if (kind == "literal") {
        n.kind = Node::literal;
        n.index = static_cast<int>(literals_.size());
        literals_.push_back(intake(t[1], fname_.c_str()));
        literal_objects_.push_back(py::reinterpret_borrow<py::object>(t[1]));
        if (literals_.back().kind == Operand::Kind::device || literals_.back().view.ndim != 0) {
          throw_value_error(fname_ + ": a literal must be a scalar");
        }
      } else if (kind == "op") {
        n.kind = Node::op;
        n.index = t[1].cast<int>();
        if (n.index < 0 || n.index >= F::kNumOps) throw_value_error(fname_ + ": bad op node");
        for (py::handle a : py::reinterpret_borrow<py::sequence>(t[2])) {
          const int i = a.cast<int>();
          if (i < 0 || i >= static_cast<int>(nodes_.size())) {
            throw_value_error(fname_ + ": a node's argument must come before it");
          }
          n.args.push_back(i);
        }
        const int arity = F::op_info(n.index).arity;
        if (static_cast<int>(n.args.size()) != arity) {
          throw_type_error(fname_ + ": " + F::op_info(n.index).name + " takes " +
                           std::to_string(arity) + " arguments, not " +
                           std::to_string(n.args.size()));
        }
        if (t.size() > 3 && !t[3].is_none()) {
          const py::tuple params = py::reinterpret_borrow<py::tuple>(t[3]);
          n.params.real = params[0].cast<double>();
          n.params.imag = params[1].cast<double>();
        }
        if (t.size() > 4 && !t[4].is_none()) {
          n.python_op = py::reinterpret_borrow<py::object>(t[4]);
          has_python_ops_ = true;
        }
      } else {
        throw_value_error(fname_ + ": unknown node kind '" + kind + "'");
      }
      nodes_.push_back(std::move(n));
    }
    if (nodes_.empty()) throw_value_error(fname_ + ": empty expression");
  }

  int ninputs() const { return ninputs_; }
  std::size_t cached_programs() const { return cache_.size(); }

  // `emulate` (test builds): the GPU interpreter run on the CPU in place of the CPU backend.
  py::object call(py::handle args, py::handle out_obj, int rule, const DeviceRequest& req,
                  bool emulate = false);
  py::list describe(py::handle args, py::handle out_obj, int rule, int device);

 private:
  // Per call: the arguments taken in and the values Python's arithmetic gives.
  struct CallState {
    std::vector<Operand> args;
    // Per node: the Python object of a node whose value is a Python scalar (arguments,
    // literals, operator nodes over Python scalars), else null.
    std::vector<py::object> python_value;
    std::vector<Operand> python_results;  // intake of those computed
    std::vector<int> python_result_of;    // per node: index into python_results, or -1
    // Whether ops of scalars alone run on the GPU, as program instructions over constants,
    // rather than on the CPU before the program (see scalar_calls_on_gpu).
    bool scalars_on_gpu = false;
    std::string key;
  };
  void take_in(py::handle args, py::handle out_obj, int rule, CallState& st);
  std::shared_ptr<TypedProgram> typed(CallState& st, const Operand* out);
  std::shared_ptr<TypedProgram> compile(CallState& st, const Operand* out);
  [[noreturn]] void fail_type(const std::string& what) const {
    throw_type_error(fname_ + ": " + what + " (in '" + text_ + "')");
  }

  std::string fname_, text_;
  int ninputs_;
  std::vector<Node> nodes_;
  std::vector<Operand> literals_;
  std::vector<py::object> literal_objects_;
  bool has_python_ops_ = false;
  std::unordered_map<std::string, std::shared_ptr<TypedProgram>> cache_;
};

void FusedExpr::take_in(py::handle args_obj, py::handle out_obj, int rule, CallState& st) {
  if (!PyTuple_Check(args_obj.ptr())) throw_type_error(fname_ + ": arguments must be a tuple");
  const py::tuple args = py::reinterpret_borrow<py::tuple>(args_obj);
  if (static_cast<int>(args.size()) != ninputs_) {
    throw_type_error(fname_ + ": takes " + std::to_string(ninputs_) + " arguments, not " +
                     std::to_string(args.size()));
  }
  IntakeMemo memo;
  st.args.resize(static_cast<std::size_t>(ninputs_));
  for (int k = 0; k < ninputs_; ++k) {
    intake_into(st.args[k], args[k], fname_.c_str(), Role::input, &memo);
  }
  // The key: each argument's dtype and kind, out='s dtype, the casting rule; then, where operator
  // nodes over Python scalars were evaluated, their results' dtypes.
  st.key.clear();
  st.key.reserve(static_cast<std::size_t>(2 * ninputs_ + 4));
  for (const Operand& x : st.args) {
    const char kind = is_python_scalar(x) ? 's' : held_by_value(x) ? 'h' : 'a';
    st.key.push_back(static_cast<char>(x.view.dtype));
    st.key.push_back(kind);
  }
  st.key.push_back(static_cast<char>(rule));
  if (!out_obj.is_none()) st.key.push_back('o');
  if (!has_python_ops_) return;
  const int nn = static_cast<int>(nodes_.size());
  st.python_value.assign(static_cast<std::size_t>(nn), py::object());
  st.python_result_of.assign(static_cast<std::size_t>(nn), -1);
  st.python_results.clear();
  st.python_results.reserve(static_cast<std::size_t>(nn));
  for (int i = 0; i < nn; ++i) {
    const Node& n = nodes_[i];
    if (n.kind == Node::input) {
      if (is_python_scalar(st.args[n.index])) {
        st.python_value[i] = py::reinterpret_borrow<py::object>(args[n.index]);
      }
    } else if (n.kind == Node::literal) {
      st.python_value[i] = literal_objects_[n.index];
    } else if (n.python_op) {
      bool all = true;
      for (int a : n.args) all = all && st.python_value[a];
      if (!all) continue;
      py::tuple call_args(n.args.size());
      for (std::size_t q = 0; q < n.args.size(); ++q) call_args[q] = st.python_value[n.args[q]];
      py::object value = n.python_op(*call_args);
      st.python_results.emplace_back();
      intake_into(st.python_results.back(), value, fname_.c_str());
      const Operand& r = st.python_results.back();
      if (!is_python_scalar(r)) {
        throw_type_error(fname_ + ": Python's arithmetic on scalars gave " +
                         std::string(py::str(py::type::of(value).attr("__name__"))));
      }
      st.python_result_of[i] = static_cast<int>(st.python_results.size()) - 1;
      st.python_value[i] = std::move(value);
      st.key.push_back(static_cast<char>(i & 0x7f));
      st.key.push_back(static_cast<char>(r.view.dtype));
    }
  }
}

std::shared_ptr<TypedProgram> FusedExpr::typed(CallState& st, const Operand* out) {
  auto it = cache_.find(st.key);
  if (it != cache_.end()) return it->second;
  auto p = compile(st, out);
  cache_.emplace(st.key, p);
  return p;
}

std::shared_ptr<TypedProgram> FusedExpr::compile(CallState& st, const Operand* out) {
  auto tp = std::make_shared<TypedProgram>();
  F::Program& prog = tp->prog;
  const int nn = static_cast<int>(nodes_.size());
  std::vector<TypedNode> T(static_cast<std::size_t>(nn));
  // The scalar table: arguments by value first (one entry each, whatever their use), literals
  // next, then Python results and host steps in node order.
  std::vector<int> arg_scalar(static_cast<std::size_t>(ninputs_), -1);
  int nscalars = 0;
  for (int k = 0; k < ninputs_; ++k) {
    const Operand& x = st.args[k];
    if (held_by_value(x)) arg_scalar[k] = nscalars++;
  }
  const int first_literal = nscalars;
  nscalars += static_cast<int>(literals_.size());
  // Python's results next, in the order take_in made them; the host steps' after them.
  const int first_python = nscalars;
  nscalars += static_cast<int>(st.python_results.size());
  std::vector<int> arg_input(static_cast<std::size_t>(ninputs_), -1);
  // (value, dtype) -> temp already cast, and (scalar, dtype) -> constant.
  std::unordered_map<long long, int> cast_of, const_of;

  const auto as_input = [&](const TypedNode& t, DType need) -> F::Value {
    F::Value v;
    if (t.kind == TypedNode::scalar) {
      const long long key = static_cast<long long>(t.index) * 64 + static_cast<int>(need);
      auto c = const_of.find(key);
      if (c == const_of.end()) {
        c = const_of.emplace(key, static_cast<int>(tp->consts.size())).first;
        tp->consts.push_back(ConstRecipe{t.index, need});
        prog.const_dtype.push_back(need);
      }
      v.kind = F::Value::constant;
      v.index = c->second;
      return v;
    }
    v.kind = t.kind == TypedNode::array ? F::Value::input : F::Value::temp;
    v.index = t.index;
    if (t.dtype == need) return v;
    // A cast of an array or an earlier result, once per target dtype.
    const long long key =
        (static_cast<long long>(v.kind) * (1 << 20) + t.index) * 64 + static_cast<int>(need);
    auto c = cast_of.find(key);
    if (c == cast_of.end()) {
      F::Instruction ins;
      ins.op = F::kCastOp;
      ins.loop = t.dtype;
      ins.out = need;
      ins.arity = 1;
      ins.src[0] = v;
      prog.code.push_back(ins);
      c = cast_of.emplace(key, static_cast<int>(prog.code.size()) - 1).first;
    }
    F::Value r;
    r.kind = F::Value::temp;
    r.index = c->second;
    return r;
  };

  for (int i = 0; i < nn; ++i) {
    const Node& n = nodes_[i];
    TypedNode& t = T[i];
    if (n.kind == Node::input) {
      const Operand& x = st.args[n.index];
      t.dtype = x.view.dtype;
      t.weak = x.weak;
      if (arg_scalar[n.index] >= 0) {
        t.kind = TypedNode::scalar;
        t.index = arg_scalar[n.index];
      } else {
        t.kind = TypedNode::array;
        if (arg_input[n.index] < 0) {
          arg_input[n.index] = static_cast<int>(tp->inputs.size());
          tp->inputs.push_back(n.index);
          prog.input_dtype.push_back(x.view.dtype);
        }
        t.index = arg_input[n.index];
      }
      continue;
    }
    if (n.kind == Node::literal) {
      t.kind = TypedNode::scalar;
      t.index = first_literal + n.index;
      t.dtype = literals_[n.index].view.dtype;
      t.weak = literals_[n.index].weak;
      continue;
    }
    if (!st.python_result_of.empty() && st.python_result_of[i] >= 0) {
      const Operand& r = st.python_results[st.python_result_of[i]];
      t.kind = TypedNode::scalar;
      t.index = first_python + st.python_result_of[i];
      t.dtype = r.view.dtype;
      t.weak = r.weak;
      continue;
    }
    // An op: NumPy's loop search over NEP 50 promotion (ufunc_types' rule).
    const int op = n.index;
    const F::OpInfo& info = F::op_info(op);
    const int nin = static_cast<int>(n.args.size());
    const int first = info.condition_first ? 1 : 0;
    Typed given[3], mapped[3];
    for (int k = first; k < nin; ++k) given[k] = Typed{T[n.args[k]].dtype, T[n.args[k]].weak};
    DType loop, outd;
    if (op == F::kCastOp) {
      // A cast's target in params.real (a dtype's number; -1: a copy in its own dtype).
      loop = given[0].dtype;
      const int to = static_cast<int>(n.params.real);
      outd = to < 0 || to >= kNumDTypes ? loop : static_cast<DType>(to);
    } else {
      const Typed nep50 = promote_all(given + first, nin - first);
      DType promoted = nep50.dtype;
      if (info.loop_per_input) {
        for (int k = first; k < nin; ++k) {
          const TypedNode& a = T[n.args[k]];
          mapped[k] = Typed{F::op_loop_dtype(op, a.weak ? nep50.dtype : a.dtype), nep50.weak};
        }
        promoted = promote_all(mapped + first, nin - first).dtype;
      }
      loop = F::op_loop_dtype(op, promoted);
      if (!F::op_supports(op, loop)) {
        std::string dtypes;
        for (int k = 0; k < nin; ++k) {
          dtypes += (k ? ", " : "") + std::string(dtype_name(T[n.args[k]].dtype));
        }
        if (op == static_cast<int>(Ufunc::subtract) && loop == DType::bool_) {
          fail_type(std::string("boolean subtract is not supported (inputs: ") + dtypes +
                    "); use ^ or logical_xor instead");
        }
        fail_type(std::string(info.name) + " has no loop for dtype " + dtype_name(loop) +
                  " (inputs: " + dtypes + ")");
      }
      outd = F::op_out_dtype(op, loop);
    }
    // Python integers meeting an integer loop are checked at each call; so are integer
    // exponents held by value.
    const char lk = dtype_kind(loop);
    for (int k = first; k < nin; ++k) {
      const TypedNode& a = T[n.args[k]];
      if (a.kind != TypedNode::scalar) continue;
      if (a.weak && (lk == 'i' || lk == 'u')) tp->checks.push_back({a.index, loop, false, op});
      if (op == static_cast<int>(Ufunc::power) && k == 1 && (lk == 'i' || lk == 'u')) {
        tp->checks.push_back({a.index, loop, true, op});
      }
    }
    F::Instruction ins;
    ins.op = op;
    ins.loop = loop;
    ins.out = outd;
    ins.arity = nin;
    ins.params = n.params;
    if (op < kNumUfuncs && op_class_of(static_cast<Ufunc>(op)) == OpClass::transcendental) {
      tp->op_class = OpClass::transcendental;
    }
    bool all_scalars = true;
    for (int k = 0; k < nin; ++k)
      all_scalars = all_scalars && T[n.args[k]].kind == TypedNode::scalar;
    if (all_scalars && !st.scalars_on_gpu) {
      // Computed on the CPU at each call, as the unfused call of scalars is there. (Where that
      // call would run on the GPU, the op is an instruction of the program over constants.)
      HostStep h;
      h.ins = ins;
      for (int k = 0; k < nin; ++k) {
        // Converted into the loop's dtype when the step runs (run_host_steps).
        h.ins.src[k].kind = F::Value::constant;
        h.ins.src[k].index = T[n.args[k]].index;
      }
      h.result = nscalars++;
      tp->host.push_back(h);
      t.kind = TypedNode::scalar;
      t.index = h.result;
      t.dtype = outd;
      t.weak = false;
      continue;
    }
    for (int k = 0; k < nin; ++k) {
      const DType need = (k == 0 && info.condition_first) ? DType::bool_ : loop;
      ins.src[k] = as_input(T[n.args[k]], need);
    }
    prog.code.push_back(ins);
    t.kind = TypedNode::temp;
    t.index = static_cast<int>(prog.code.size()) - 1;
    t.dtype = outd;
    t.weak = false;
  }
  TypedNode root = T[nn - 1];
  // The output: out='s dtype where given (a cast unless it is the result's), a copy where the
  // expression is one of its arguments.
  if (out != nullptr) {
    const DType want = out->view.dtype;
    const int rule = static_cast<int>(st.key[static_cast<std::size_t>(2 * ninputs_)]);
    if (!can_cast(root.dtype, want, rule) && !(root.weak && root.kind == TypedNode::scalar)) {
      throw_type_error(fname_ + ": cannot cast the result from " + dtype_name(root.dtype) +
                       " to out's " + dtype_name(want) + " with casting='" + casting_name(rule) +
                       "'");
    }
    if (root.kind == TypedNode::array || root.kind == TypedNode::scalar || root.dtype != want) {
      F::Instruction ins;
      ins.op = F::kCastOp;
      ins.loop = root.kind == TypedNode::scalar ? want : root.dtype;
      ins.out = want;
      ins.arity = 1;
      ins.src[0] = as_input(root, ins.loop);
      prog.code.push_back(ins);
      root.kind = TypedNode::temp;
      root.index = static_cast<int>(prog.code.size()) - 1;
      root.dtype = want;
    }
  } else if (root.kind == TypedNode::array) {
    F::Instruction ins;
    ins.op = F::kCastOp;
    ins.loop = root.dtype;
    ins.out = root.dtype;
    ins.arity = 1;
    ins.src[0] = as_input(root, root.dtype);
    prog.code.push_back(ins);
    root.kind = TypedNode::temp;
    root.index = static_cast<int>(prog.code.size()) - 1;
  }
  tp->scalar_result = root.kind == TypedNode::scalar;
  tp->root = root;
  tp->nscalars = nscalars;
  prog.consts.assign(16 * tp->consts.size(), 0);
  return tp;
}

// Fills the call's scalar table: the arguments', the literals', the Python results', then each
// host step's, in order.
void fill_scalars(const TypedProgram& tp, const std::vector<Operand>& args,
                  const std::vector<Operand>& literals, const std::vector<Operand>& python_results,
                  std::vector<Scalar>& table) {
  table.assign(static_cast<std::size_t>(tp.nscalars), Scalar{});
  int next = 0;
  const auto put = [&](const Operand& x) {
    Scalar& s = table[next++];
    s.dtype = x.view.dtype;
    s.weak = x.weak;
    std::memcpy(s.value, x.view.data, static_cast<std::size_t>(itemsize(x.view.dtype)));
  };
  for (const Operand& x : args) {
    if (held_by_value(x)) put(x);
  }
  for (const Operand& x : literals) put(x);
  for (const Operand& x : python_results) put(x);
}

// Scalar `s` converted to `dtype` into `out` (16 bytes), as the unfused call converts a scalar
// operand to its loop's dtype.
void convert_scalar(const Scalar& s, DType dtype, unsigned char* out, const char* fname) {
  ArrayView src, dst;
  scalar_view(src, s.dtype, const_cast<unsigned char*>(s.value));
  scalar_view(dst, dtype, out);
  run_cast(Exec{}, dst, src, fname);
}

void run_host_steps(const TypedProgram& tp, std::vector<Scalar>& table, const char* fname) {
  for (const HostStep& h : tp.host) {
    F::Program one;
    F::Instruction ins = h.ins;
    const F::OpInfo& info = F::op_info(ins.op);
    for (int k = 0; k < ins.arity; ++k) {
      const DType need = (k == 0 && info.condition_first) ? DType::bool_ : ins.loop;
      one.const_dtype.push_back(need);
      one.consts.resize(one.consts.size() + 16, 0);
      convert_scalar(table[ins.src[k].index], need, one.consts.data() + 16 * k, fname);
      ins.src[k].index = k;
    }
    one.code.push_back(ins);
    Scalar& r = table[h.result];
    r.dtype = ins.out;
    r.weak = false;
    ArrayView out;
    scalar_view(out, ins.out, r.value);
    const ArrayView* views[1] = {&out};
    const F::Layout L = F::make_layout(views, 1, fname);
    F::run_cpu(one, L);
  }
}

void run_checks(const TypedProgram& tp, const std::vector<Scalar>& table, const char* fname) {
  for (const ScalarCheck& c : tp.checks) {
    const Scalar& s = table[c.scalar];
    if (c.power_exponent) {
      unsigned char v[16] = {};
      convert_scalar(s, c.loop, v, fname);
      const bool negative = visit_dtype(c.loop, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
          T x;
          std::memcpy(&x, v, sizeof x);
          return x < T(0);
        }
        return false;
      });
      if (negative) {
        throw_value_error(std::string(fname) +
                          ": integers to negative integer powers are not allowed");
      }
      continue;
    }
    Operand x;
    x.kind = Operand::Kind::scalar;
    x.weak = true;
    x.view.dtype = s.dtype;
    x.view.ndim = 0;
    std::memcpy(x.value, s.value, 16);
    x.view.data = reinterpret_cast<char*>(x.value);
    check_weak_int(x, c.loop, fname);
  }
}

// The value of a scalar result as Python returns it: a Python scalar stays one, anything else a
// NumPy scalar of its dtype.
py::object scalar_object(const Scalar& s) {
  const std::int64_t shape[1] = {1};
  const std::int64_t strides[1] = {itemsize(s.dtype)};
  py::object a = numpy_empty(s.dtype, 0, shape, strides);
  py::buffer_info info = py::reinterpret_borrow<py::buffer>(a).request(true);
  std::memcpy(info.ptr, s.value, static_cast<std::size_t>(itemsize(s.dtype)));
  return a[py::tuple()];
}

// The unfused run of a program on the GPU: one kernel per instruction over whole arrays, as the
// ufunc calls run (the extras, which have no ufunc kernel, as programs of one instruction).
void run_unfused_cuda(const F::Program& prog, const std::vector<ArrayView>& inputs,
                      const ArrayView& dest, Scratch& scratch, const Exec& ex, const char* fname) {
  const int ninstr = static_cast<int>(prog.code.size());
  std::vector<ArrayView> temp(static_cast<std::size_t>(ninstr));
  for (int i = 0; i < ninstr; ++i) {
    const F::Instruction& ins = prog.code[i];
    const ArrayView out =
        i == ninstr - 1 ? dest : dense_view(scratch, ex, ins.out, dest.ndim, dest.shape, &dest);
    temp[i] = out;
    ArrayView views[4];
    bool is_scalar[4] = {};
    const void* values[4] = {};
    const ArrayView* pv[4];
    views[0] = out;
    for (int k = 0; k < ins.arity; ++k) {
      const F::Value& v = ins.src[k];
      if (v.kind == F::Value::input) {
        views[1 + k] = inputs[v.index];
      } else if (v.kind == F::Value::temp) {
        views[1 + k] = temp[v.index];
      } else {
        is_scalar[1 + k] = true;
        values[1 + k] = prog.constant(v.index);
        views[1 + k].dtype = prog.const_dtype[v.index];
        views[1 + k].ndim = 0;
      }
    }
    for (int k = 0; k <= ins.arity; ++k) pv[k] = &views[k];
    // out = `value` (of dtype `dtype`, on the host) cast into every element: the cast of a
    // broadcast 0-d array.
    const auto fill = [&](DType dtype, const unsigned char* value) {
      ArrayView h;
      scalar_view(h, dtype, const_cast<unsigned char*>(value));
      ArrayView b = upload(scratch, ex, h);
      b.ndim = out.ndim;
      for (int d = 0; d < out.ndim; ++d) {
        b.shape[d] = out.shape[d];
        b.strides[d] = 0;
      }
      run_cast(ex, out, b, fname);
    };
    // out = operand 0 cast into out's dtype.
    const auto copy_operand = [&] {
      if (is_scalar[1]) {
        fill(ins.loop, prog.constant(ins.src[0].index));
      } else {
        run_cast(ex, out, views[1], fname);
      }
    };
    if (ins.op == F::kCastOp) {
      copy_operand();
      continue;
    }
    if (ins.op >= F::kFirstExtra) {
      F::Program one;
      F::Instruction single = ins;
      std::vector<ArrayView> one_inputs;
      for (int k = 0; k < ins.arity; ++k) {
        if (is_scalar[1 + k]) {
          one.const_dtype.push_back(prog.const_dtype[ins.src[k].index]);
          one.consts.insert(one.consts.end(), prog.constant(ins.src[k].index),
                            prog.constant(ins.src[k].index) + 16);
          single.src[k].kind = F::Value::constant;
          single.src[k].index = static_cast<int>(one.const_dtype.size()) - 1;
        } else {
          one.input_dtype.push_back(views[1 + k].dtype);
          one_inputs.push_back(views[1 + k]);
          single.src[k].kind = F::Value::input;
          single.src[k].index = static_cast<int>(one_inputs.size()) - 1;
        }
      }
      one.code.push_back(single);
      std::string why;
      if (!F::gpu_supports(one, ex.device, &why)) {
        // Real dtypes outside the interpreter's (int8, uint16, float16...): what the extras
        // are there, as casts: real and conj a copy, imag zeros, ones_like ones (numcu.ones_like's
        // value). Complex numbers and complex()'s float32 and float64 loops are always held.
        const auto extra = static_cast<F::Extra>(ins.op - F::kFirstExtra);
        const bool real_dtype = dtype_kind(ins.loop) != 'c';
        if (real_dtype && (extra == F::Extra::real || extra == F::Extra::conj)) {
          copy_operand();
          continue;
        }
        if (real_dtype && (extra == F::Extra::imag || extra == F::Extra::ones_like)) {
          std::int64_t k = extra == F::Extra::ones_like ? 1 : 0;
          alignas(16) unsigned char v[16] = {};
          ArrayView from, to;
          scalar_view(from, DType::int64, reinterpret_cast<unsigned char*>(&k));
          scalar_view(to, ins.loop, v);
          run_cast(Exec{}, to, from, fname);
          fill(ins.loop, v);
          continue;
        }
        throw_value_error(std::string(fname) + ": internal error: " + F::op_info(ins.op).name +
                          " cannot run on the GPU for dtype " + dtype_name(ins.loop) + " (" + why +
                          ")");
      }
      std::vector<const ArrayView*> lv{&out};
      for (const ArrayView& v : one_inputs) lv.push_back(&v);
      const F::Layout L = F::make_layout(lv.data(), static_cast<int>(lv.size()), fname);
      F::run_cuda(one, L, ex.device, ex.stream);
      continue;
    }
    const Ufunc u = static_cast<Ufunc>(ins.op);
    switch (ins.arity) {
      case 1: {
        const ElementwisePlan<2> p = make_plan<2>(pv, is_scalar, values, fname);
        ufunc_cuda<2>(u, ins.loop, p, ins.params, ex.stream);
        break;
      }
      case 2: {
        const ElementwisePlan<3> p = make_plan<3>(pv, is_scalar, values, fname);
        ufunc_cuda<3>(u, ins.loop, p, ins.params, ex.stream);
        break;
      }
      default: {
        const ElementwisePlan<4> p = make_plan<4>(pv, is_scalar, values, fname);
        ufunc_cuda<4>(u, ins.loop, p, ins.params, ex.stream);
        break;
      }
    }
  }
}

// Where a call of host data only runs when no device is asked for: the placement model, as for
// ufuncs (pipeline.cpp's placed_request).
DeviceRequest placed(const DeviceRequest& req, const std::vector<const Operand*>& operands,
                     bool has_out, OpClass op_class, double elements, double out_bytes) {
  if (req.kind != DeviceRequest::Kind::automatic || req.has_stream) return req;
  for (const Operand* x : operands) {
    if (x != nullptr && x->kind == Operand::Kind::device) return req;
  }
  if (!cuda::is_available()) return req;
  const PlacementModel& model = placement_model();
  DeviceRequest r = req;
  if (model.mode != PlacementModel::Mode::automatic) {
    if (model.mode == PlacementModel::Mode::cpu) r.kind = DeviceRequest::Kind::cpu;
    return r;
  }
  double in_bytes = 0, largest = out_bytes;
  for (const Operand* x : operands) {
    if (x == nullptr || x->kind != Operand::Kind::host || x->view.ndim == 0) continue;
    const double b =
        static_cast<double>(x->view.size()) * static_cast<double>(itemsize(x->view.dtype));
    in_bytes += b;
    largest = std::max(largest, b);
  }
  int threads = 1;
  try {
    threads = cpu::get_num_threads();
  } catch (const Error&) {
  }
  const PlacementEstimate e =
      estimate_placement(op_class, in_bytes, 0.0, largest, out_bytes, !has_out, elements, threads);
  if (!e.gpu) r.kind = DeviceRequest::Kind::cpu;
  return r;
}

// Whether the unfused call of an op of scalars alone (Python scalars, literals, 0-d host
// arrays) runs on a GPU, placed as a ufunc call of one element is: there where device= or
// stream= asks for one (numcu.exp(x, device='cuda') is the GPU's exp, whose last bits may differ
// from the CPU's), on the CPU where none is asked for (numcu.sin(2.0)), unless the placement
// model's mode says otherwise.
bool scalar_calls_on_gpu(const DeviceRequest& req) {
  const DeviceRequest r = placed(req, {}, false, OpClass::elementwise, 1.0, 16.0);
  if (r.kind == DeviceRequest::Kind::cpu) return false;
  return r.kind == DeviceRequest::Kind::cuda || cuda::is_available();
}

py::object FusedExpr::call(py::handle args, py::handle out_obj, int rule, const DeviceRequest& req,
                           bool emulate) {
  const char* fname = fname_.c_str();
  cuda::DeviceRestore restore;
  std::shared_ptr<void> stream_keeper;
  if (req.stream_object != nullptr)
    stream_keeper = stream_object_keeper(req.stream_object, req.stream);
  CallState st;
  take_in(args, out_obj, rule, st);
  // Where ops of scalars alone run is part of the signature (asked only where there are
  // scalars: arguments held by value or literals). The emulated GPU runs them as the GPU does.
  bool any_scalar = !literals_.empty();
  for (const Operand& x : st.args) {
    any_scalar = any_scalar || held_by_value(x);
  }
  st.scalars_on_gpu = any_scalar && (emulate || scalar_calls_on_gpu(req));
  st.key.push_back(st.scalars_on_gpu ? 'g' : 'c');
  Operand out;
  const bool has_out = !out_obj.is_none();
  if (has_out) {
    intake_into(out, out_obj, fname, Role::output);
    st.key.push_back(static_cast<char>(out.view.dtype));
  }
  const std::shared_ptr<TypedProgram> tpp = typed(st, has_out ? &out : nullptr);
  TypedProgram& tp = *tpp;

  // Scalars: the table, the checks NumPy makes, the host steps, the program's constants.
  std::vector<Scalar> table;
  if (tp.nscalars > 0) {
    fill_scalars(tp, st.args, literals_, st.python_results, table);
    run_checks(tp, table, fname);
    run_host_steps(tp, table, fname);
  }
  // The program with this call's constants (a copy only where it has constants).
  std::unique_ptr<F::Program> with_consts;
  if (!tp.consts.empty()) {
    with_consts = std::make_unique<F::Program>(tp.prog);
    for (std::size_t k = 0; k < tp.consts.size(); ++k) {
      convert_scalar(table[tp.consts[k].source], tp.consts[k].dtype,
                     with_consts->consts.data() + 16 * k, fname);
    }
  }
  const F::Program& prog = with_consts ? *with_consts : tp.prog;
  if (tp.scalar_result && !has_out) {
    // A Python scalar stays one (Python's arithmetic, an argument or a literal given back);
    // anything the ufuncs computed is a NumPy scalar of its dtype.
    const int last = static_cast<int>(nodes_.size()) - 1;
    const Node& n = nodes_[last];
    if (!st.python_result_of.empty() && st.python_result_of[last] >= 0) {
      return st.python_value[last];
    }
    if (n.kind == Node::input) return py::reinterpret_borrow<py::tuple>(args)[n.index];
    if (n.kind == Node::literal) return literal_objects_[n.index];
    return scalar_object(table[tp.root.index]);
  }

  // The arrays: their broadcast shape, which out= must hold.
  Shape shape;
  for (int a : tp.inputs) {
    if (!broadcast_into(shape, st.args[a].view)) {
      std::string shapes;
      for (int b : tp.inputs) {
        shapes +=
            (shapes.empty() ? "" : " ") + shape_str(st.args[b].view.shape, st.args[b].view.ndim);
      }
      throw_value_error(fname_ + ": operands could not be broadcast together with shapes " +
                        shapes);
    }
  }
  if (has_out) {
    const ArrayView& o = out.view;
    Shape with_out = shape;
    const bool fits = o.ndim >= shape.ndim && broadcast_into(with_out, o) &&
                      std::equal(o.shape, o.shape + o.ndim, with_out.dims);
    if (!fits) {
      throw_value_error(fname_ + ": out has shape " + shape_str(o.shape, o.ndim) +
                        " but the result has shape " + shape_str(shape.dims, shape.ndim));
    }
    shape.ndim = o.ndim;
    std::copy(o.shape, o.shape + o.ndim, shape.dims);
  }
  const DType result_dtype = prog.out_dtype();
  checked::check_shape(fname, shape.dims, shape.ndim, result_dtype);
  std::int64_t elements = 1;
  for (int d = 0; d < shape.ndim; ++d) elements *= shape.dims[d];

  // Placement over the arrays and out=.
  std::vector<const Operand*> operands;
  for (int a : tp.inputs) operands.push_back(&st.args[a]);
  if (has_out) operands.push_back(&out);
  const DeviceRequest where =
      placed(req, operands, has_out, tp.op_class, static_cast<double>(elements),
             static_cast<double>(elements) * itemsize(result_dtype));
  const Exec ex = place(fname, operands.data(), static_cast<int>(operands.size()), where);
  if (ex.gpu) cuda::activate(ex.device);
  StreamSet producers;
  for (const Operand* x : operands) {
    if (x->has_producer_stream && producers.insert(x->producer_stream)) {
      cuda::stream_wait(ex.stream, x->producer_stream);
    }
  }

  Scratch scratch;
  bool pinned_upload = false;
  std::vector<ArrayView> inputs;
  inputs.reserve(tp.inputs.size());
  const ArrayView* like = nullptr;
  for (int a : tp.inputs) {
    const Operand& x = st.args[a];
    ArrayView v = x.view;
    if (ex.gpu && x.kind == Operand::Kind::host) {
      register_input(x);
      v = upload_host(scratch, ex, v);
      if (pinned_by_numcu(x.view)) pinned_upload = true;
    }
    inputs.push_back(v);
  }
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (like == nullptr && inputs[k].ndim == shape.ndim) like = &st.args[tp.inputs[k]].view;
  }

  // The destination: out=, or a new array on the inputs' side (a numcu.ndarray where an input
  // is a device array).
  py::object result;
  ArrayView dest;
  const DeviceAllocation* result_allocation = nullptr;
  bool device_input = false;
  for (int a : tp.inputs) device_input = device_input || st.args[a].kind == Operand::Kind::device;
  if (has_out) {
    result = py::reinterpret_borrow<py::object>(out_obj);
    dest = out.view;
    if (ex.gpu) register_input(out);
  } else if (ex.gpu && device_input) {
    NdArray a = NdArray::empty(result_dtype, shape.ndim, shape.dims, ex.device, ex.stream, like);
    dest = a.view();
    result = py::cast(std::move(a));
    result_allocation = result.cast<const NdArray&>().allocation().get();
  } else {
    std::int64_t strides[kMaxDims];
    dense_strides(result_dtype, shape.ndim, shape.dims, like, strides);
    dest.dtype = result_dtype;
    dest.ndim = shape.ndim;
    std::copy(shape.dims, shape.dims + shape.ndim, dest.shape);
    std::copy(strides, strides + shape.ndim, dest.strides);
    const HostPathConfig& config = host_path_config();
    result = numpy_result(result_dtype, shape.ndim, shape.dims, strides, &dest.data,
                          ex.gpu ? config.pool_min_bytes : config.cpu_pool_min_bytes);
  }
  // On the GPU, a host destination is computed into device scratch and downloaded.
  const bool download = ex.gpu && dest.device == kHost;
  const ArrayView target =
      download ? dense_view(scratch, ex, result_dtype, dest.ndim, dest.shape, &dest) : dest;
  // Inputs sharing memory with out= other than element for element are read whole first.
  if (has_out && !download) {
    for (ArrayView& v : inputs) v = unaliased(scratch, ex, target, v, true, fname);
  }

  const F::GpuPlan* plan = ex.gpu ? tp.gpu_plan(ex.device).plan.get() : nullptr;
  const bool fused = !ex.gpu || plan != nullptr;
  const auto run = [&] {
    if (elements == 0) return;
    if (fused) {
      std::vector<const ArrayView*> views{&target};
      for (const ArrayView& v : inputs) views.push_back(&v);
      const F::Layout L = F::make_layout(views.data(), static_cast<int>(views.size()), fname);
      if (ex.gpu) {
        F::run_cuda(*plan, prog, L, ex.stream);
      } else if (emulate) {
#if NUMCU_FUSED_EMULATOR
        F::emulate_cuda(prog, L);
#endif
      } else {
        F::run_cpu(prog, L);
      }
    } else {
      run_unfused_cuda(prog, inputs, target, scratch, ex, fname);
    }
    if (download) download_host(ex, dest, target);
    if (ex.gpu && req.sync) cuda::synchronize(ex.stream);
  };
  if (!ex.gpu && elements <= python::Call::kGilKeptElements) {
    run();
  } else {
    py::gil_scoped_release release;
    run();
  }
  if (pinned_upload && ex.gpu) {
    py::gil_scoped_release release;
    cuda::synchronize(ex.stream);
  }
  finish_streams(ex, operands.data(), static_cast<int>(operands.size()), result_allocation);
  if (!has_out && result_allocation == nullptr && dest.ndim == 0) return result[py::tuple()];
  return result;
}

py::list FusedExpr::describe(py::handle args, py::handle out_obj, int rule, int device) {
  CallState st;
  take_in(args, out_obj, rule, st);
  st.key.push_back('c');  // as a call that asks for no device
  Operand out;
  if (!out_obj.is_none()) {
    intake_into(out, out_obj, fname_.c_str(), Role::output);
    st.key.push_back(static_cast<char>(out.view.dtype));
  }
  const std::shared_ptr<TypedProgram> tp = typed(st, out_obj.is_none() ? nullptr : &out);
  py::list steps;
  const auto name = [](const F::Instruction& ins) { return std::string(F::op_info(ins.op).name); };
  for (const HostStep& h : tp->host) {
    steps.append(
        py::make_tuple("host", name(h.ins), dtype_name(h.ins.loop), dtype_name(h.ins.out)));
  }
  for (const F::Instruction& ins : tp->prog.code) {
    steps.append(py::make_tuple("program", name(ins), dtype_name(ins.loop), dtype_name(ins.out)));
  }
  if (device >= 0 && !tp->prog.code.empty()) {
    std::string why;
    const std::shared_ptr<const F::GpuPlan> plan = F::gpu_plan(tp->prog, device, &why);
    steps.append(py::make_tuple("gpu", plan ? "fused" : "unfused", why,
                                plan ? std::to_string(F::gpu_slots(*plan)) + " slots" : ""));
  }
  return steps;
}

PyObject* fused_call_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"expr", "args", "out", "casting", "device", "stream"};
  static const ArgSpec spec{"numcu._fused_call", names, 6, 2, 6, 2};
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    FusedExpr& e = py::handle(v[0]).cast<FusedExpr&>();
    const int rule = casting_rule(given(v[3]), "numcu.evaluate");
    const DeviceRequest req = parse_device(v[4], v[5], "numcu.evaluate");
    return e.call(v[1], given(v[2]), rule, req);
  });
}

}  // namespace fused_call

void bind_fused(py::module_& m) {
  using namespace fused_call;
  namespace F = ::numcu::fused;
  py::class_<FusedExpr, std::shared_ptr<FusedExpr>> cls(
      m, "_FusedExpr",
      "A fused expression's graph (numcu/_fusion.py builds it); its typed programs are cached "
      "per call signature.");
  cls.def(py::init<py::sequence, int, std::string, std::string>(), py::arg("nodes"),
          py::arg("ninputs"), py::arg("fname"), py::arg("text"))
      .def_property_readonly("ninputs", &FusedExpr::ninputs)
      .def_property_readonly("cached_programs", &FusedExpr::cached_programs,
                             "How many typed programs (call signatures) are cached.")
      .def(
          "describe",
          [](FusedExpr& e, py::tuple args, py::object out, py::object casting, int device) {
            return e.describe(args, out, casting_rule(casting, "numcu.evaluate"), device);
          },
          py::arg("args"), py::arg("out") = py::none(), py::arg("casting") = py::none(),
          py::arg("device") = -1,
          "The typed program for these arguments: (where, op, loop dtype, result dtype) per "
          "step ('host' steps of scalars, 'program' instructions), and, given a GPU, whether it "
          "runs fused there, why not, and the values it holds at once in shared memory.");
#if NUMCU_FUSED_EMULATOR
  cls.def(
      "emulate_gpu",
      [](FusedExpr& e, py::tuple args, py::object out) {
        DeviceRequest req;
        req.kind = DeviceRequest::Kind::cpu;
        return e.call(args, out, 2, req, true);
      },
      py::arg("args"), py::arg("out") = py::none(),
      "Test builds: the call with the GPU interpreter emulated on the CPU (host arrays).");
#endif
  def_fastcall(m, "_fused_call", &fused_call_entry,
               "_fused_call(expr, args, out=None, casting=None, device=None, stream=None)\n--\n\n"
               "Runs a fused expression (numcu.evaluate and numcu.fuse call it).");
  // The ops an expression may name: NumPy's name -> (op number, arity).
  py::dict ops;
  for (int op = 0; op < F::kCastOp; ++op) {
    const F::OpInfo& info = F::op_info(op);
    ops[py::str(info.name)] = py::make_tuple(op, info.arity);
  }
  m.attr("_fused_ops") = ops;
  m.attr("_fused_cast_op") = F::kCastOp;
  py::dict limits;
  limits["gpu_instructions"] = F::kMaxGpuInstructions;
  limits["gpu_inputs"] = F::kMaxGpuInputs;
  limits["gpu_constants"] = F::kMaxGpuConstants;
  m.attr("_fused_limits") = limits;
}

}  // namespace numcu::python
