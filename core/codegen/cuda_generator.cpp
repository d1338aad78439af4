#include "core/codegen/cuda_generator.h"

#include "core/codegen/cuda_source.h"
#include "core/codegen/nvrtc.h"

namespace ts::codegen {

namespace {
    class CudaGenerator final : public CodeGenerator {
    public:
        explicit CudaGenerator(target::Target target)
            : m_target(std::move(target))
        {
        }

        const target::Target& target() const override { return m_target; }

        Expected<std::string> source(const lower::LoweredFunc& func, bool) override
        {
            TS_TRY(CudaProgram program, emitCuda(func, m_target));
            return std::move(program.source);
        }

        Expected<std::string> assembly(const lower::LoweredFunc& func) override
        {
            TS_TRY(const CudaProgram program, emitCuda(func, m_target));
            TS_TRY(PtxResult ptx, compileToPtx(program.source, m_target.arch, func.name));
            return std::move(ptx.ptx);
        }

        Expected<ObjectCode> compileToObject(const lower::LoweredFunc& func) override
        {
            TS_TRY(const CudaProgram program, emitCuda(func, m_target));
            TS_TRY(const PtxResult ptx, compileToPtx(program.source, m_target.arch, func.name));
            ObjectCode object;
            object.bytes.assign(ptx.ptx.begin(), ptx.ptx.end());
            object.symbol = program.kernels.empty() ? std::string() : program.kernels.front().name;
            return object;
        }

        Expected<std::shared_ptr<CompiledKernel>> compile(const lower::LoweredFunc&) override
        {
            return makeError(ErrorKind::Unsupported,
                "CUDA kernels do not run inside TuneScope's process: tunescope-gpu-runner measures them");
        }

        Expected<void> checkRunsHere() override
        {
            return makeError(ErrorKind::Unsupported,
                "CUDA kernels do not run inside TuneScope's process: tunescope-gpu-runner measures them");
        }

    private:
        target::Target m_target;
    };
} // namespace

std::unique_ptr<CodeGenerator> makeCudaGenerator(const target::Target& target)
{
    return std::make_unique<CudaGenerator>(target);
}

} // namespace ts::codegen
