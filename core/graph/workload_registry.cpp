#include "core/graph/workload_registry.h"

#include "core/graph/op_tasks.h"
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <array>

namespace ts::graph {

namespace {

    using Kind = WorkloadArg::Kind;

    std::string clip(const std::string& text) { return text.size() > 80 ? text.substr(0, 77) + "..." : text; }

    Expected<WorkloadArg> parseArg(const nlohmann::json& json, const std::string& where)
    {
        WorkloadArg arg;
        if (json.is_null())
            return arg;
        if (json.is_number_integer()) {
            arg.kind = Kind::Int;
            arg.values.push_back(json.get<int64_t>());
            return arg;
        }
        if (json.is_string()) {
            arg.kind = Kind::Text;
            arg.text = json.get<std::string>();
            return arg;
        }
        if (json.is_array() && json.size() == 3 && json[0] == "TENSOR" && json[1].is_array() && json[2].is_string()) {
            arg.kind = Kind::Tensor;
            arg.text = json[2].get<std::string>();
            for (const nlohmann::json& d : json[1]) {
                if (!d.is_number_integer())
                    return makeError(ErrorKind::Parse, where + ": a tensor shape holds a non-integer");
                arg.values.push_back(d.get<int64_t>());
            }
            return arg;
        }
        if (json.is_array()) {
            arg.kind = Kind::IntList;
            for (const nlohmann::json& v : json) {
                if (!v.is_number_integer())
                    return makeError(ErrorKind::Parse, where + ": a list argument holds a non-integer");
                arg.values.push_back(v.get<int64_t>());
            }
            return arg;
        }
        return makeError(
            ErrorKind::Parse, where + ": an argument is neither an integer, a list, a tensor nor a string");
    }

    Expected<std::vector<WorkloadArg>> parseArgs(const nlohmann::json& list, size_t first, const std::string& where)
    {
        std::vector<WorkloadArg> args;
        for (size_t i = first; i < list.size(); ++i) {
            TS_TRY(WorkloadArg arg, parseArg(list[i], where + ", argument " + std::to_string(i)));
            args.push_back(std::move(arg));
        }
        return args;
    }

    // The builders read their arguments through this, so each shape error names the workload and argument.
    class ArgReader {
    public:
        explicit ArgReader(const WorkloadKey& key)
            : m_key(key)
        {
        }

        Expected<int64_t> positive(size_t i) const
        {
            TS_CHECK(has(i));
            const WorkloadArg& a = m_key.args[i];
            if (a.kind != Kind::Int || a.values[0] < 1)
                return fail(i, "must be an integer >= 1");
            return a.values[0];
        }
        // Any integer: a builder that checks ranges itself (an operator task) reads this.
        Expected<int64_t> integer(size_t i) const
        {
            TS_CHECK(has(i));
            const WorkloadArg& a = m_key.args[i];
            if (a.kind != Kind::Int)
                return fail(i, "must be an integer");
            return a.values[0];
        }
        // An int or a list of n values (a single value repeats), each >= minimum.
        Expected<std::vector<int64_t>> tuple(size_t i, size_t n, int64_t minimum) const
        {
            TS_CHECK(has(i));
            const WorkloadArg& a = m_key.args[i];
            std::vector<int64_t> out;
            if (a.kind == Kind::Int || (a.kind == Kind::IntList && a.values.size() == 1))
                out.assign(n, a.values[0]);
            else if (a.kind == Kind::IntList && a.values.size() == n)
                out = a.values;
            else
                return fail(i, "must be an integer or a list of " + std::to_string(n));
            for (int64_t v : out)
                if (v < minimum)
                    return fail(i, "values must be >= " + std::to_string(minimum));
            return out;
        }
        // TVM's padding: one value, [pad_h, pad_w] or [top, left, bottom, right].
        Expected<std::array<int64_t, 4>> padding(size_t i) const
        {
            TS_CHECK(has(i));
            const WorkloadArg& a = m_key.args[i];
            if (a.kind == Kind::IntList && a.values.size() == 4) {
                for (int64_t v : a.values)
                    if (v < 0)
                        return fail(i, "padding must be >= 0");
                return std::array<int64_t, 4> { a.values[0], a.values[1], a.values[2], a.values[3] };
            }
            TS_TRY(std::vector<int64_t> hw, tuple(i, 2, 0));
            return ops::Conv2dParams::symmetric(hw[0], hw[1]);
        }
        Expected<std::vector<int64_t>> tensor(size_t i, size_t rank) const
        {
            TS_CHECK(has(i));
            const WorkloadArg& a = m_key.args[i];
            if (a.kind != Kind::Tensor || a.values.size() != rank)
                return fail(i, "must be a " + std::to_string(rank) + "-D tensor");
            if (a.text != "float32")
                return fail(i, "has dtype " + a.text + " (only float32)");
            for (int64_t d : a.values)
                if (d < 1)
                    return fail(i, "has an extent < 1");
            return a.values;
        }
        bool isTensor(size_t i) const { return i < m_key.args.size() && m_key.args[i].kind == Kind::Tensor; }
        Expected<void> count(size_t minimum, size_t maximum) const
        {
            const size_t n = m_key.args.size();
            if (n < minimum || n > maximum)
                return makeError(ErrorKind::InvalidArgument,
                    "workload " + m_key.name + " takes "
                        + (minimum == maximum ? std::to_string(minimum)
                                              : std::to_string(minimum) + " to " + std::to_string(maximum))
                        + " arguments, got " + std::to_string(n));
            return {};
        }

    private:
        Expected<void> has(size_t i) const
        {
            if (i >= m_key.args.size())
                return makeError(ErrorKind::InvalidArgument,
                    "workload " + m_key.name + " needs argument " + std::to_string(i) + ", got "
                        + std::to_string(m_key.args.size()));
            return {};
        }
        Error fail(size_t i, const std::string& why) const
        {
            return Error { ErrorKind::InvalidArgument,
                "workload " + m_key.name + ": argument " + std::to_string(i) + " " + why };
        }

        const WorkloadKey& m_key;
    };

    bool startsWith(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

    Expected<ir::ComputeDAG> matmulDag(int64_t n, int64_t l, int64_t m)
    {
        ir::Tensor a = ir::placeholder("A", { n, l });
        ir::Tensor b = ir::placeholder("B", { l, m });
        ir::setNextAxisNames({ "i", "j" }, { "k" });
        TS_TRY(ir::Tensor c, ops::matmul(a, b));
        return ir::ComputeDAG::create({ a, b, c });
    }

    // AutoTVM conv2d tasks: (data, kernel, strides, padding, dilation, layout...). NCHWc templates keep the
    // NCHW shapes in their arguments.
    Expected<ir::ComputeDAG> autoTvmConv2d(const WorkloadKey& key, ops::Layout layout)
    {
        const ArgReader args(key);
        TS_CHECK(args.count(5, 8));
        TS_TRY(std::vector<int64_t> data, args.tensor(0, 4));
        TS_TRY(std::vector<int64_t> kernel, args.tensor(1, 4));
        ops::Conv2dParams params;
        params.layout = layout;
        TS_TRY(std::vector<int64_t> stride, args.tuple(2, 2, 1));
        TS_TRY(params.padding, args.padding(3));
        TS_TRY(std::vector<int64_t> dilation, args.tuple(4, 2, 1));
        params.stride = { stride[0], stride[1] };
        params.dilation = { dilation[0], dilation[1] };
        ir::Tensor d = ir::placeholder("data", data);
        ir::Tensor w = ir::placeholder("kernel", kernel);
        TS_TRY(ir::Tensor out, ops::conv2d(d, w, params));
        return ir::ComputeDAG::create({ d, w, out });
    }

    Expected<ir::ComputeDAG> autoTvmDense(const WorkloadKey& key)
    {
        const ArgReader args(key);
        TS_CHECK(args.count(2, 4));
        TS_TRY(std::vector<int64_t> data, args.tensor(0, 2));
        TS_TRY(std::vector<int64_t> weight, args.tensor(1, 2));
        ir::Tensor x = ir::placeholder("data", data);
        ir::Tensor w = ir::placeholder("weight", weight);
        TS_TRY(ir::Tensor out, ops::dense(x, w));
        if (!args.isTensor(2))
            return ir::ComputeDAG::create({ x, w, out });
        TS_TRY(std::vector<int64_t> biasShape, args.tensor(2, 1));
        ir::Tensor bias = ir::placeholder("bias", biasShape);
        TS_TRY(ir::Tensor biased, ops::biasAdd(out, bias, 1));
        return ir::ComputeDAG::create({ x, w, bias, biased });
    }

} // namespace

Expected<WorkloadKey> parseWorkloadKey(const std::string& text)
{
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_array() || json.empty() || !json[0].is_string())
        return makeError(ErrorKind::Parse, "workload key " + clip(text) + " is not [\"name\", args...]");
    WorkloadKey key;
    key.name = json[0].get<std::string>();
    TS_TRY(key.args, parseArgs(json, 1, "workload key " + clip(text)));
    if (!key.args.empty() && key.args.back().kind == Kind::Text) {
        key.dtype = key.args.back().text;
        key.args.pop_back();
    }
    return key;
}

Expected<WorkloadKey> parseAutoTvmTask(const std::string& name, const std::string& argsJson)
{
    const nlohmann::json json = nlohmann::json::parse(argsJson, nullptr, false);
    if (json.is_discarded() || !json.is_array())
        return makeError(
            ErrorKind::Parse, "AutoTVM task " + name + ": arguments " + clip(argsJson) + " are not a list");
    WorkloadKey key;
    key.name = name;
    TS_TRY(key.args, parseArgs(json, 0, "AutoTVM task " + name));
    return key;
}

Expected<WorkloadKey> parseWorkloadSpec(const std::string& text)
{
    const size_t colon = text.find(':');
    WorkloadKey key;
    key.name = text.substr(0, colon);
    if (colon != std::string::npos)
        for (const std::string& part : split(text.substr(colon + 1), ',')) {
            TS_TRY(int64_t value, parseInt(part, "workload argument"));
            key.args.push_back({ Kind::Int, { value }, {} });
        }
    return key;
}

Expected<ir::ComputeDAG> buildWorkload(const WorkloadKey& key)
{
    if (key.dtype != "float32")
        return makeError(ErrorKind::Unsupported, "workload " + key.name + ": dtype " + key.dtype + " (only float32)");
    const ArgReader args(key);
    if (key.name == "matmul_add") {
        TS_CHECK(args.count(3, 3));
        TS_TRY(int64_t n, args.positive(0));
        TS_TRY(int64_t l, args.positive(1));
        TS_TRY(int64_t m, args.positive(2));
        TS_TRY(auto tensors, ops::matmulAdd(n, l, m));
        return ir::ComputeDAG::create(tensors);
    }
    if (key.name == "matmul" || key.name == "matmul_auto_scheduler_test") {
        TS_CHECK(args.count(3, 3));
        TS_TRY(int64_t n, args.positive(0));
        TS_TRY(int64_t second, args.positive(1));
        TS_TRY(int64_t third, args.positive(2));
        // matmul is (N, L, M); TVM's test workload is (N, M, K) with K the reduction.
        return key.name == "matmul" ? matmulDag(n, second, third) : matmulDag(n, third, second);
    }
    if (key.name == "conv2d_layer") {
        TS_CHECK(args.count(9, 9));
        std::array<int64_t, 7> v {};
        for (size_t i = 0; i < v.size(); ++i) {
            TS_TRY(v[i], args.positive(i));
        }
        const auto [n, h, w, co, ci, kh, kw] = v;
        ops::Conv2dParams params;
        TS_TRY(std::vector<int64_t> stride, args.tuple(7, 2, 1));
        TS_TRY(params.padding, args.padding(8));
        params.stride = { stride[0], stride[1] };
        ir::Tensor data = ir::placeholder("data", { n, ci, h, w });
        ir::Tensor kernel = ir::placeholder("kernel", { co, ci, kh, kw });
        ir::Tensor bias = ir::placeholder("bias", { 1, co, 1, 1 });
        TS_TRY(ir::Tensor conv, ops::conv2d(data, kernel, params));
        TS_TRY(ir::Tensor sum, ops::add(conv, bias));
        TS_TRY(ir::Tensor out, ops::relu(sum));
        return ir::ComputeDAG::create({ data, kernel, bias, out });
    }
    if (startsWith(key.name, "tunescope_")) {
        std::vector<int64_t> values;
        for (size_t i = 0; i < key.args.size(); ++i) {
            TS_TRY(int64_t v, args.integer(i));
            values.push_back(v);
        }
        if (auto task = operatorTaskOfWorkload(key.name, values)) {
            if (!*task)
                return makeError(task->error().kind, "workload " + key.name + ": " + task->error().message);
            return (*task)->dag;
        }
    }
    if (startsWith(key.name, "conv2d_nchw") || startsWith(key.name, "conv2d_NCHWc"))
        return autoTvmConv2d(key, ops::Layout::NCHW);
    if (startsWith(key.name, "conv2d_nhwc"))
        return autoTvmConv2d(key, ops::Layout::NHWC);
    if (startsWith(key.name, "dense"))
        return autoTvmDense(key);
    return makeError(ErrorKind::NotFound,
        "unknown workload '" + clip(key.name)
            + "' (known: matmul_add, matmul, matmul_auto_scheduler_test, conv2d_layer, TuneScope's operators "
              "tunescope_*, and AutoTVM conv2d_nchw*, conv2d_NCHWc*, conv2d_nhwc*, dense*)");
}

} // namespace ts::graph
